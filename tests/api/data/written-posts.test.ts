/** What a rebuild reads of the posts a run wrote gives the same answers on SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import { writtenPosts } from '@api/data/written-posts.ts';
import { postKeyString, upsertPost } from '@api/data/posts.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addCreator } from './store-rows.ts';

const engines = engineDatabases();

describe.each(ENGINES)('written posts on %s', (engine) => {
  let db: Store;
  const key = (id: string) => ({ service: 'fanbox', user: '1', id });
  beforeEach(async () => {
    db = await engines.fresh(engine);
    await addCreator(db, 'fanbox', '1');
  });

  it('reads neighbours, tags and whether older versions exist, leaving out missing posts', async () => {
    await upsertPost(db, { ...key('a'), title: 'a', published: '2020-01-01T00:00:00', tags: ['cat', '黒猫'] });
    await upsertPost(db, { ...key('b'), title: 'b', published: '2020-01-02T00:00:00' });
    await upsertPost(db, { ...key('c'), title: 'c', published: '2020-01-03T00:00:00', tags: ['dog'] });
    await upsertPost(db, { ...key('b'), title: 'b, edited', published: '2020-01-02T00:00:00' });
    const found = await writtenPosts(db, [key('a'), key('b'), key('c'), key('missing')]);
    expect([...found.keys()].sort()).toEqual(['a', 'b', 'c'].map((id) => postKeyString(key(id))));
    expect(found.get(postKeyString(key('a')))).toEqual({ prev: 'b', next: null, tags: ['cat', '黒猫'], hasRevisions: false });
    expect(found.get(postKeyString(key('b')))).toEqual({ prev: 'c', next: 'a', tags: [], hasRevisions: true });
    expect(found.get(postKeyString(key('c')))).toEqual({ prev: null, next: 'b', tags: ['dog'], hasRevisions: false });
    expect(await writtenPosts(db, [])).toEqual(new Map());
  });

  it('answers for more posts than one statement takes', async () => {
    const ids = Array.from({ length: 120 }, (_, n) => `p${String(n).padStart(3, '0')}`);
    for (const id of ids) await upsertPost(db, { ...key(id), title: id, published: '2020-01-01T00:00:00' });
    const found = await writtenPosts(db, ids.map(key));
    expect(found.size).toBe(120);
    // Same date: newer by id, so prev is the next id up.
    expect(found.get(postKeyString(key('p050')))).toMatchObject({ prev: 'p051', next: 'p049' });
  });
});
