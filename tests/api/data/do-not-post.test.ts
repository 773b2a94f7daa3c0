/** The do-not-post list gives the same answers on SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  addDoNotPost,
  countDoNotPost,
  isCreatorListed,
  isPostIdListed,
  isPostListed,
  liftDoNotPost,
  listDoNotPost,
  recordRemovedPosts,
} from '@api/data/do-not-post.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

const engines = engineDatabases();

describe.each(ENGINES)('do-not-post on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
  });

  it('is empty at first', async () => {
    expect(await countDoNotPost(db)).toBe(0);
    expect(await listDoNotPost(db, { offset: 0, limit: 10 })).toEqual([]);
    expect(await isCreatorListed(db, 'patreon', '1')).toBeUndefined();
    expect(await isPostListed(db, 'patreon', '1', 'p')).toBeUndefined();
    expect(await isPostIdListed(db, 'patreon', 'p')).toBeUndefined();
    expect(await liftDoNotPost(db, 42)).toBeUndefined();
  });

  it('adds an entry once, keeping the first as it was', async () => {
    const first = await addDoNotPost(db, {
      service: 'patreon',
      creator_id: '1',
      name: 'Ünïcode ✓',
      reason: 'owner request',
      added_at: '2030-01-01T00:00:00.000Z',
    });
    expect(first).toEqual({
      id: first.id,
      service: 'patreon',
      creator_id: '1',
      post_id: null,
      name: 'Ünïcode ✓',
      reason: 'owner request',
      added_by: null,
      added_at: '2030-01-01T00:00:00.000Z',
    });
    expect(typeof first.id).toBe('number');
    const again = await addDoNotPost(db, { service: 'patreon', creator_id: '1', reason: 'other', post_id: null });
    expect(again).toEqual(first);
    const post = await addDoNotPost(db, { service: 'patreon', creator_id: '1', post_id: 'p1', reason: 'post' });
    expect(post.id).not.toBe(first.id);
    expect(post.post_id).toBe('p1');
    expect(typeof post.added_at).toBe('string');
    expect(await countDoNotPost(db)).toBe(2);
  });

  it('finds creators and posts, the creator entry first', async () => {
    const post = await addDoNotPost(db, { service: 'patreon', creator_id: '1', post_id: 'p1', reason: 'post' });
    expect(await isCreatorListed(db, 'patreon', '1')).toBeUndefined();
    expect(await isPostListed(db, 'patreon', '1', 'p1')).toEqual(post);
    expect(await isPostListed(db, 'patreon', '1', 'p2')).toBeUndefined();
    expect(await isPostListed(db, 'fanbox', '1', 'p1')).toBeUndefined();
    const creator = await addDoNotPost(db, { service: 'patreon', creator_id: '1', reason: 'creator' });
    expect(await isCreatorListed(db, 'patreon', '1')).toEqual(creator);
    expect(await isPostListed(db, 'patreon', '1', 'p1')).toEqual(creator);
    expect(await isPostListed(db, 'patreon', '1', 'p2')).toEqual(creator);
  });

  it('finds a post by its id alone, through its own entry or its removed creator', async () => {
    const post = await addDoNotPost(db, { service: 'patreon', creator_id: '1', post_id: 'p1', reason: 'post' });
    const creator = await addDoNotPost(db, { service: 'patreon', creator_id: '2', reason: 'creator' });
    await recordRemovedPosts(db, creator.id, 'patreon', ['p2', 'p3', 'p2']);
    await recordRemovedPosts(db, creator.id, 'patreon', ['p3']);
    await recordRemovedPosts(db, creator.id, 'patreon', []);
    expect(await isPostIdListed(db, 'patreon', 'p1')).toEqual(post);
    expect(await isPostIdListed(db, 'patreon', 'p2')).toEqual(creator);
    expect(await isPostIdListed(db, 'patreon', 'p3')).toEqual(creator);
    expect(await isPostIdListed(db, 'fanbox', 'p2')).toBeUndefined();
    expect(await isPostIdListed(db, 'patreon', 'p4')).toBeUndefined();
    // Lifting the creator's entry forgets its posts.
    expect(await liftDoNotPost(db, creator.id)).toEqual(creator);
    expect(await isPostIdListed(db, 'patreon', 'p2')).toBeUndefined();
    expect(await liftDoNotPost(db, creator.id)).toBeUndefined();
    expect(await countDoNotPost(db)).toBe(1);
  });

  it('lists newest first by page', async () => {
    const ids: number[] = [];
    for (const creator of ['a', 'b', 'c']) ids.push((await addDoNotPost(db, { service: 's', creator_id: creator, reason: 'r' })).id);
    expect((await listDoNotPost(db, { offset: 0, limit: 2 })).map((entry) => entry.creator_id)).toEqual(['c', 'b']);
    expect((await listDoNotPost(db, { offset: 2, limit: 2 })).map((entry) => entry.id)).toEqual([ids[0]]);
    expect(await listDoNotPost(db, { offset: 3, limit: 2 })).toEqual([]);
  });
});
