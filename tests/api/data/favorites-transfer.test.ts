/** Favourites export and import on both engines: the same reports, order and dates from SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import { addFavoriteCreator, addFavoritePost, listFavoriteCreators } from '@api/data/favorites.ts';
import { exportFavorites, importFavoriteRefs } from '@api/data/favorites-transfer.ts';
import { readChangesSince } from '@api/data/changes.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addAccount, addCreator, addPost } from './store-rows.ts';

const engines = engineDatabases();

describe.each(ENGINES)('favorites transfer on %s', (engine) => {
  let db: Store;
  let alice = 0;
  beforeEach(async () => {
    db = await engines.fresh(engine);
    alice = await addAccount(db, 'alice');
    for (const id of ['1', '2', '3']) await addCreator(db, 'fanbox', id);
    await addPost(db, { service: 'fanbox', user: '1', id: 'p1', seq: 1 });
    await addPost(db, { service: 'fanbox', user: '1', id: 'p2', seq: 2 });
  });

  /** The account's post favourites, oldest first, as [post_id, faved_seq, created_at]. */
  async function postFavourites(): Promise<unknown[][]> {
    const rows = await db.k
      .selectFrom('favorite_posts')
      .select(['post_id', 'faved_seq', 'created_at'])
      .where('account_id', '=', alice)
      .orderBy('faved_seq')
      .execute();
    return rows.map((r) => [r.post_id, r.faved_seq, r.created_at]);
  }

  it('exports an empty account as two empty lists', async () => {
    expect(await exportFavorites(db, alice)).toEqual({ artists: [], posts: [] });
  });

  it('exports creator favourites newest first with the date each was added', async () => {
    await addFavoriteCreator(db, alice, 'fanbox', '2', '2030-01-01T00:00:00');
    await addFavoriteCreator(db, alice, 'fanbox', '1', '2030-01-02T00:00:00');
    const exported = await exportFavorites(db, alice);
    expect(exported.artists.map((a) => [a.id, a.faved_seq, a.faved_at])).toEqual([
      ['1', 2, '2030-01-02T00:00:00'],
      ['2', 1, '2030-01-01T00:00:00'],
    ]);
    expect(exported.posts).toEqual([]);
  });

  it('exports post favourites with their dates', async () => {
    await addFavoritePost(db, alice, 'fanbox', '1', 'p1', '2030-03-01T00:00:00');
    await addFavoritePost(db, alice, 'fanbox', '1', 'p2', '2030-03-02T00:00:00');
    const exported = await exportFavorites(db, alice);
    expect(exported.posts.map((p) => [p.id, p.faved_seq, p.faved_at])).toEqual([
      ['p2', 2, '2030-03-02T00:00:00'],
      ['p1', 1, '2030-03-01T00:00:00'],
    ]);
  });

  it('imports refs oldest first, reports missing ones in file order, and adds nothing the second time', async () => {
    await addFavoriteCreator(db, alice, 'fanbox', '3');
    const mark = (await readChangesSince(db, 0)).at(-1)?.id ?? 0;
    const refs = {
      artists: [
        { service: 'fanbox', id: '1' },
        { service: 'fanbox', id: 'gone' },
        { service: 'fanbox', id: '2' },
        { service: 'fanbox', id: '3' },
      ],
      posts: [
        { service: 'fanbox', user: '1', id: 'p2', faved_at: '2030-05-02T00:00:00' },
        { service: 'fanbox', user: '1', id: 'missing', faved_at: '2030-05-03T00:00:00' },
        { service: 'fanbox', user: '1', id: 'p1', faved_at: '2030-05-01T00:00:00' },
      ],
      skipped: 2,
    };
    expect(await importFavoriteRefs(db, alice, refs)).toEqual({
      added: { artists: 2, posts: 2 },
      unchanged: 1,
      not_found: ['fanbox:gone', 'fanbox:1:missing'],
      skipped: 2,
    });
    // Files list the newest first: the first artist ends with the highest sequence.
    expect((await listFavoriteCreators(db, alice)).map((c) => c.id)).toEqual(['1', '2', '3']);
    // Every post dated: the dates decide.
    expect(await postFavourites()).toEqual([
      ['p1', 4, '2030-05-01T00:00:00'],
      ['p2', 5, '2030-05-02T00:00:00'],
    ]);
    expect((await readChangesSince(db, mark)).map((c) => [c.kind, c.creator_id])).toEqual([
      ['favorite', '2'],
      ['favorite', '1'],
    ]);
    expect(await importFavoriteRefs(db, alice, refs)).toEqual({
      added: { artists: 0, posts: 0 },
      unchanged: 5,
      not_found: ['fanbox:gone', 'fanbox:1:missing'],
      skipped: 2,
    });
  });

  it('imports an empty list as nothing to do', async () => {
    expect(await importFavoriteRefs(db, alice, { artists: [], posts: [], skipped: 0 })).toEqual({
      added: { artists: 0, posts: 0 },
      unchanged: 0,
      not_found: [],
      skipped: 0,
    });
  });
});
