import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '@api/data/db.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { deletePost, upsertPost } from '@api/data/posts.ts';
import { listAllTags } from '@api/data/tags.ts';

let dir: string;
let db: Db;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-tags-'));
  db = openDatabase(path.join(dir, 'trove.sqlite'));
  migrate(db);
  await upsertCreator(db, { service: 'fanbox', id: '1', name: 'Tagger' });
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function groupedCounts() {
  return db.prepare('SELECT tag, count(*) AS post_count FROM post_tags GROUP BY tag ORDER BY post_count DESC, tag').all();
}

describe('all-tags counts', () => {
  it('follow posts being added, retagged and deleted', async () => {
    await upsertPost(db, { service: 'fanbox', user: '1', id: 'a', title: 'a', published: '2024-01-01T00:00:00', tags: ['cat', 'sketch'] });
    await upsertPost(db, { service: 'fanbox', user: '1', id: 'b', title: 'b', published: '2024-01-02T00:00:00', tags: ['cat'] });
    expect(await listAllTags(db)).toEqual([
      { tag: 'cat', post_count: 2 },
      { tag: 'sketch', post_count: 1 },
    ]);

    await upsertPost(db, { service: 'fanbox', user: '1', id: 'a', title: 'a', published: '2024-01-01T00:00:00', tags: ['dog'] });
    expect(await listAllTags(db)).toEqual([
      { tag: 'cat', post_count: 1 },
      { tag: 'dog', post_count: 1 },
    ]);

    await deletePost(db, 'fanbox', '1', 'b');
    expect(await listAllTags(db)).toEqual([{ tag: 'dog', post_count: 1 }]);
    expect(await listAllTags(db)).toEqual(groupedCounts());
  });
});
