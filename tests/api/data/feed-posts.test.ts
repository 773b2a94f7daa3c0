/** The feeds' content heads (feed-posts.ts) are the same on SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import { FEED_CONTENT_HEAD, postContentHeads } from '@api/data/feed-posts.ts';
import { postKeyString } from '@api/data/posts.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addCreator, addPost } from './store-rows.ts';

const engines = engineDatabases();

describe.each(ENGINES)('feed posts on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
    await addCreator(db, 'fanbox', '1');
  });

  it('gives each post the head of its content, by key, leaving missing posts out', async () => {
    const long = `<p>${'語'.repeat(FEED_CONTENT_HEAD)}</p>`;
    await addPost(db, { service: 'fanbox', user: '1', id: 'a', seq: 1, content: '<p>short ✓</p>' });
    await addPost(db, { service: 'fanbox', user: '1', id: 'b', seq: 2, content: long });
    await addPost(db, { service: 'fanbox', user: '1', id: 'c', seq: 3, content: '' });
    const keys = ['a', 'b', 'c', 'missing'].map((id) => ({ service: 'fanbox', user: '1', id }));
    const heads = await postContentHeads(db, keys);
    expect([...heads.keys()]).toEqual(keys.slice(0, 3).map(postKeyString));
    expect(heads.get(postKeyString(keys[0]))).toBe('<p>short ✓</p>');
    // Characters, not bytes, on both engines.
    expect(heads.get(postKeyString(keys[1]))).toBe(long.slice(0, FEED_CONTENT_HEAD));
    expect(heads.get(postKeyString(keys[2]))).toBe('');
    expect(await postContentHeads(db, [])).toEqual(new Map());
  });

  it('reads more keys than one statement takes, in the order asked', async () => {
    for (let seq = 1; seq <= 120; seq += 1) {
      await addPost(db, { service: 'fanbox', user: '1', id: `p${seq}`, seq, content: `<p>post ${seq}</p>` });
    }
    const ids = Array.from({ length: 120 }, (_, i) => `p${120 - i}`);
    const heads = await postContentHeads(
      db,
      ids.map((id) => ({ service: 'fanbox', user: '1', id })),
    );
    expect([...heads.values()]).toEqual(ids.map((id) => `<p>post ${id.slice(1)}</p>`));
  });
});
