/** Favourites on both engines: the same answers, faved_seq and 'favorite' change rows from SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  addFavoriteCreator,
  addFavoritePost,
  listFavoriteCreators,
  listFavoritePosts,
  removeFavoriteCreator,
  removeFavoritePost,
} from '@api/data/favorites.ts';
import { readChangesSince } from '@api/data/changes.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addAccount, addCreator, addPost } from './store-rows.ts';

const engines = engineDatabases();

describe.each(ENGINES)('favorites on %s', (engine) => {
  let db: Store;
  let alice = 0;
  let bob = 0;
  let mark = 0;
  beforeEach(async () => {
    db = await engines.fresh(engine);
    mark = 0;
    alice = await addAccount(db, 'alice');
    bob = await addAccount(db, 'bob');
    await addCreator(db, 'fanbox', '1', 'ファンボックス ✓');
    await addCreator(db, 'patreon', '2');
    await addPost(db, { service: 'fanbox', user: '1', id: 'p1', seq: 1 });
    await addPost(db, { service: 'fanbox', user: '1', id: 'p2', seq: 2 });
  });

  /** The change rows since the previous call, as [kind, action, service, creator_id]. */
  async function since(): Promise<(string | null)[][]> {
    const rows = await readChangesSince(db, mark);
    if (rows.length) mark = rows[rows.length - 1].id;
    return rows.map((c) => [c.kind, c.action, c.service, c.creator_id]);
  }

  it('adds creator favourites once, newest first, with one sequence per favourite and a change row each', async () => {
    expect(await listFavoriteCreators(db, alice)).toEqual([]);
    await db.k.updateTable('creators').set({ last_imported: 86400, public_id: 'pub' }).where('id', '=', '2').execute();
    expect(await addFavoriteCreator(db, alice, 'fanbox', '1', '2030-01-01T00:00:00')).toBe(true);
    expect(await addFavoriteCreator(db, alice, 'patreon', '2')).toBe(true);
    expect(await addFavoriteCreator(db, alice, 'fanbox', '1')).toBe(false);
    expect(await addFavoriteCreator(db, alice, 'fanbox', 'missing')).toBe(false);
    expect(await addFavoriteCreator(db, bob, 'fanbox', '1')).toBe(true);
    expect(await since()).toEqual([
      ['favorite', 'upsert', 'fanbox', '1'],
      ['favorite', 'upsert', 'patreon', '2'],
      ['favorite', 'upsert', 'fanbox', '1'],
    ]);
    expect(await listFavoriteCreators(db, alice)).toEqual([
      {
        id: '2',
        name: 'name of 2',
        service: 'patreon',
        indexed: '1970-01-01T00:00:01',
        updated: '1970-01-01T00:00:01',
        public_id: 'pub',
        relation_id: null,
        faved_seq: 2,
        last_imported: '1970-01-02T00:00:00',
      },
      {
        id: '1',
        name: 'ファンボックス ✓',
        service: 'fanbox',
        indexed: '1970-01-01T00:00:01',
        updated: '1970-01-01T00:00:01',
        public_id: null,
        relation_id: null,
        faved_seq: 1,
        last_imported: null,
      },
    ]);
    expect((await listFavoriteCreators(db, bob)).map((c) => [c.id, c.faved_seq])).toEqual([['1', 3]]);
    const dated = await db.k
      .selectFrom('favorite_creators')
      .select('created_at')
      .where('account_id', '=', alice)
      .where('creator_id', '=', '1')
      .executeTakeFirst();
    expect(dated?.created_at).toBe('2030-01-01T00:00:00');
  });

  it('removes a creator favourite with a change row, and reports a missing one without any', async () => {
    await addFavoriteCreator(db, alice, 'fanbox', '1');
    await since();
    expect(await removeFavoriteCreator(db, alice, 'fanbox', '1')).toBe(true);
    expect(await since()).toEqual([['favorite', 'upsert', 'fanbox', '1']]);
    expect(await removeFavoriteCreator(db, alice, 'fanbox', '1')).toBe(false);
    expect(await removeFavoriteCreator(db, bob, 'patreon', 'missing')).toBe(false);
    expect(await since()).toEqual([]);
    expect(await listFavoriteCreators(db, alice)).toEqual([]);
    // A favourite added again takes a new sequence number.
    expect(await addFavoriteCreator(db, alice, 'fanbox', '1')).toBe(true);
    expect((await listFavoriteCreators(db, alice)).map((c) => c.faved_seq)).toEqual([2]);
  });

  it('adds and removes post favourites without change rows; creators and posts share one sequence', async () => {
    expect(await addFavoriteCreator(db, alice, 'fanbox', '1')).toBe(true);
    await since();
    expect(await addFavoritePost(db, alice, 'fanbox', '1', 'p1', '2030-02-02T00:00:00')).toBe(true);
    expect(await addFavoritePost(db, alice, 'fanbox', '1', 'p1')).toBe(false);
    expect(await addFavoritePost(db, alice, 'fanbox', '1', 'nope')).toBe(false);
    expect(await addFavoritePost(db, alice, 'fanbox', '2', 'p1')).toBe(false);
    expect(await addFavoritePost(db, bob, 'fanbox', '1', 'p2')).toBe(true);
    expect(await since()).toEqual([]);
    const rows = await db.k
      .selectFrom('favorite_posts')
      .select(['account_id', 'post_id', 'faved_seq', 'created_at'])
      .orderBy('faved_seq')
      .execute();
    expect(rows).toEqual([
      { account_id: alice, post_id: 'p1', faved_seq: 2, created_at: '2030-02-02T00:00:00' },
      { account_id: bob, post_id: 'p2', faved_seq: 3, created_at: expect.any(String) },
    ]);
    expect(await removeFavoritePost(db, alice, 'fanbox', '1', 'p1')).toBe(true);
    expect(await removeFavoritePost(db, alice, 'fanbox', '1', 'p1')).toBe(false);
    expect(await removeFavoritePost(db, alice, 'fanbox', '1', 'p2')).toBe(false);
    expect(await since()).toEqual([]);
    expect(await listFavoritePosts(db, alice)).toEqual([]);
  });

  it('lists favourite posts as summaries, newest favourite first, skipping gone posts', async () => {
    await addFavoritePost(db, alice, 'fanbox', '1', 'p1');
    await addFavoritePost(db, alice, 'fanbox', '1', 'p2');
    await addFavoritePost(db, bob, 'fanbox', '1', 'p1');
    const list = await listFavoritePosts(db, alice);
    expect(list.map((p) => [p.service, p.user, p.id, p.title, p.faved_seq])).toEqual([
      ['fanbox', '1', 'p2', 'title p2', 2],
      ['fanbox', '1', 'p1', 'title p1', 1],
    ]);
    await db.k.deleteFrom('posts').where('id', '=', 'p2').execute();
    expect((await listFavoritePosts(db, alice)).map((p) => p.id)).toEqual(['p1']);
  });
});
