/** "New from your favourites" on the store: the same answers on SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  clearFeedToken,
  countNewPosts,
  feedAccountId,
  feedCreatedAt,
  lastNewsVisit,
  listNewFeedPosts,
  listNewPosts,
  recordNewsVisit,
  setFeedTokenHash,
} from '@api/data/favorites-news.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addAccount, addCreator, addPost } from './store-rows.ts';

const engines = engineDatabases();

describe.each(ENGINES)('favourites news on %s', (engine) => {
  let db: Store;
  let alice: number;
  let bob: number;

  beforeEach(async () => {
    db = await engines.fresh(engine);
    alice = await addAccount(db, 'alice');
    bob = await addAccount(db, 'bob');
  });

  const favorite = (account: number, creator: string, seq: number) =>
    db.k.insertInto('favorite_creators').values({ account_id: account, service: 'patreon', creator_id: creator, faved_seq: seq }).execute();

  it('lists and counts the favourites’ posts added since a moment, newest added first, ties by seq', async () => {
    expect(await listNewPosts(db, alice, '2000-01-01', 0, 10)).toEqual([]);
    expect(await countNewPosts(db, alice, '2000-01-01')).toBe(0);
    expect(await listNewFeedPosts(db, alice, 10)).toEqual([]);

    await addCreator(db, 'patreon', 'c1', 'Ada ☃');
    await addCreator(db, 'patreon', 'c2', 'Bea');
    await addCreator(db, 'patreon', 'c3', 'Not a favourite');
    await favorite(alice, 'c1', 1);
    await favorite(alice, 'c2', 2);
    await favorite(bob, 'c3', 3);
    await addPost(db, { service: 'patreon', user: 'c1', id: 'old', seq: 1, added: '2030-01-01T00:00:00' });
    await addPost(db, {
      service: 'patreon',
      user: 'c1',
      id: 'p2',
      seq: 2,
      added: '2030-01-05T00:00:00',
      content: '<p>Héllo &amp; <b>wörld</b></p>',
    });
    await addPost(db, { service: 'patreon', user: 'c2', id: 'p3', seq: 3, added: '2030-01-05T00:00:00', published: '2029-12-01T00:00:00' });
    await addPost(db, { service: 'patreon', user: 'c2', id: 'p4', seq: 4, added: '2030-01-03T00:00:00' });
    await addPost(db, { service: 'patreon', user: 'c3', id: 'p5', seq: 5, added: '2030-01-09T00:00:00' });

    const since = '2030-01-03T00:00:00';
    const listed = await listNewPosts(db, alice, since, 0, 10);
    expect(listed.map((post) => post.id)).toEqual(['p3', 'p2', 'p4']);
    expect(listed[1]).toEqual({
      id: 'p2',
      user: 'c1',
      service: 'patreon',
      title: 'title p2',
      substring: 'Héllo & wörld',
      published: null,
      added: '2030-01-05T00:00:00',
      edited: null,
      tags: [],
      file: {},
      attachments: [],
      poll: null,
      incomplete_rewards: null,
      embed: {},
      shared_file: false,
    });
    expect(listed[0].published).toBe('2029-12-01T00:00:00');
    expect((await listNewPosts(db, alice, since, 1, 1)).map((post) => post.id)).toEqual(['p2']);
    expect(await countNewPosts(db, alice, since)).toBe(3);
    expect(await countNewPosts(db, alice, since, 2)).toBe(2);
    expect(await countNewPosts(db, alice, '2031-01-01')).toBe(0);
    expect(await countNewPosts(db, bob, since)).toBe(1);

    const feed = await listNewFeedPosts(db, alice, 3);
    expect(feed.map((post) => [post.id, post.creator_name, post.text])).toEqual([
      ['p3', 'Bea', ''],
      ['p2', 'Ada ☃', 'Héllo & wörld'],
      ['p4', 'Bea', ''],
    ]);
    expect((await listNewFeedPosts(db, alice, 10)).map((post) => post.id)).toEqual(['p3', 'p2', 'p4', 'old']);
  });

  it('records visits and keeps the feed token apart', async () => {
    expect(await lastNewsVisit(db, alice)).toBeNull();
    expect(await feedCreatedAt(db, alice)).toBeNull();
    expect(await feedAccountId(db, 'hash')).toBeUndefined();
    expect(await clearFeedToken(db, alice)).toBe(false);

    await recordNewsVisit(db, alice, '2030-01-01T00:00:00');
    await recordNewsVisit(db, alice, '2030-01-02T00:00:00');
    expect(await lastNewsVisit(db, alice)).toBe('2030-01-02T00:00:00');
    expect(await feedCreatedAt(db, alice)).toBeNull();
    expect(await clearFeedToken(db, alice)).toBe(false);

    await setFeedTokenHash(db, alice, 'h1', '2030-01-03T00:00:00');
    await setFeedTokenHash(db, bob, 'hb', '2030-01-04T00:00:00');
    expect(await feedAccountId(db, 'h1')).toBe(alice);
    await setFeedTokenHash(db, alice, 'h2', '2030-01-05T00:00:00');
    expect(await feedAccountId(db, 'h1')).toBeUndefined();
    expect(await feedAccountId(db, 'h2')).toBe(alice);
    expect(await feedAccountId(db, 'hb')).toBe(bob);
    expect(await feedCreatedAt(db, alice)).toBe('2030-01-05T00:00:00');
    expect(await lastNewsVisit(db, alice)).toBe('2030-01-02T00:00:00');
    expect(await lastNewsVisit(db, bob)).toBeNull();

    expect(await clearFeedToken(db, alice)).toBe(true);
    expect(await clearFeedToken(db, alice)).toBe(false);
    expect(await feedCreatedAt(db, alice)).toBeNull();
    expect(await feedAccountId(db, 'h2')).toBeUndefined();
    expect(await lastNewsVisit(db, alice)).toBe('2030-01-02T00:00:00');
    await recordNewsVisit(db, bob, '2030-02-01T00:00:00');
    expect(await feedAccountId(db, 'hb')).toBe(bob);
  });
});
