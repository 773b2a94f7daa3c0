/**
 * The popular pages in the page store: the latest page of each period is stored (keyed by period and
 * offset); dated pages render on demand; popularity changes, changes to popular posts, removed posts
 * and renamed creators re-render the stored ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affectedByChanges } from '@api/pages/affected.ts';
import { allArchivePages } from '@api/pages/rebuild.ts';
import { canonicalPageKey, GLOBAL_LISTING_STORED_PAGES } from '@api/pages/keys.ts';
import { lastChangeId, readChangesSince } from '@api/data/changes.ts';
import { touchCreatorUpdated, upsertCreator } from '@api/data/creators.ts';
import { addPopularity } from '@api/data/popular.ts';
import { deletePost, upsertPost } from '@api/data/posts.ts';
import { todayUtc } from '@shared/popular.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

describe('popular page keys', () => {
  it('keys the latest popular pages by period and offset, in one order', () => {
    expect(canonicalPageKey('/posts/popular', '')).toBe('/posts/popular');
    expect(canonicalPageKey('/posts/popular', '?period=recent')).toBe('/posts/popular');
    expect(canonicalPageKey('/posts/popular', '?period=week')).toBe('/posts/popular?period=week');
    expect(canonicalPageKey('/posts/popular', '?o=50&period=month')).toBe('/posts/popular?period=month&o=50');
    expect(canonicalPageKey('/posts/popular', '?period=day&o=0')).toBe('/posts/popular?period=day');
  });

  it('renders dated pages, unknown periods, repeated parameters and deep pages on demand', () => {
    expect(canonicalPageKey('/posts/popular', '?date=2024-01-01&period=day')).toBeUndefined();
    expect(canonicalPageKey('/posts/popular', '?period=year')).toBeUndefined();
    expect(canonicalPageKey('/posts/popular', '?period=day&period=week')).toBeUndefined();
    expect(canonicalPageKey('/posts/popular', `?o=${GLOBAL_LISTING_STORED_PAGES * 50}`)).toBeUndefined();
    expect(canonicalPageKey('/posts/popular', '?o=25')).toBeUndefined();
  });
});

describe('popular pages a change affects', () => {
  let t: TempDb;
  const today = todayUtc();
  beforeAll(async () => {
    t = tempDb();
    await upsertCreator(t.db, { service: 'fanbox', id: 'alpha', name: 'Alpha' });
    for (let n = 1; n <= 60; n++)
      await upsertPost(t.db, { service: 'fanbox', user: 'alpha', id: String(n), title: `Post ${n}`, published: '2024-01-01T00:00:00' });
  });
  afterAll(() => t.cleanup());

  it('a popularity change renders the stored pages of every period, as many as the period holds', async () => {
    const from = await lastChangeId(t.db);
    await addPopularity(
      t.db,
      Array.from({ length: 60 }, (_, n) => ({ day: today, service: 'fanbox', user: 'alpha', post_id: String(n + 1), favorites: n })),
    );
    const affected = await affectedByChanges(t.db, await readChangesSince(t.db, from));
    for (const key of [
      '/posts/popular',
      '/posts/popular?o=50',
      '/posts/popular?period=day',
      '/posts/popular?period=day&o=50',
      '/posts/popular?period=week',
      '/posts/popular?period=month&o=50',
    ]) {
      expect(affected.render, key).toContain(key);
    }
    expect(affected.listings.get('/posts/popular?period=week')).toBe(50);
    // Nothing but popularity changed: no creator or post pages.
    expect([...affected.render].some((key) => key.startsWith('/fanbox/'))).toBe(false);
  });

  it('a change to a post with favourites or views renders them too (their cards show the post), and a full render includes them', async () => {
    const from = await lastChangeId(t.db);
    await upsertPost(t.db, { service: 'fanbox', user: 'alpha', id: '1', title: 'Renamed', published: '2024-01-01T00:00:00' });
    expect((await affectedByChanges(t.db, await readChangesSince(t.db, from))).render).toContain('/posts/popular?period=month');
    expect((await allArchivePages(t.db)).render).toContain('/posts/popular?period=day&o=50');
  });

  it('new posts leave them alone (a new post has no favourites or views), and so do the creator listings', async () => {
    const from = await lastChangeId(t.db);
    for (let n = 61; n <= 160; n++)
      await upsertPost(t.db, { service: 'fanbox', user: 'alpha', id: String(n), title: `Post ${n}`, published: '2024-02-01T00:00:00' });
    const render = [...(await affectedByChanges(t.db, await readChangesSince(t.db, from))).render];
    expect(render).toContain('/posts');
    expect(render).toContain('/fanbox/user/alpha');
    expect(render.filter((key) => key.startsWith('/posts/popular') || key.startsWith('/artists'))).toEqual([]);
    // More new posts than one lookup statement takes, then one that is popular among them.
    const again = await lastChangeId(t.db);
    for (let n = 161; n <= 220; n++)
      await upsertPost(t.db, { service: 'fanbox', user: 'alpha', id: String(n), title: `Post ${n}`, published: '2024-02-01T00:00:00' });
    await upsertPost(t.db, { service: 'fanbox', user: 'alpha', id: '60', title: 'Renamed too', published: '2024-01-01T00:00:00' });
    expect((await affectedByChanges(t.db, await readChangesSince(t.db, again))).render).toContain('/posts/popular');
  });

  it("a removed post, and a renamed creator (the feeds name it), render them; a creator's new update time does not", async () => {
    const changed = async (write: () => Promise<unknown>) => {
      const from = await lastChangeId(t.db);
      await write();
      return [...(await affectedByChanges(t.db, await readChangesSince(t.db, from))).render];
    };
    expect(await changed(() => deletePost(t.db, 'fanbox', 'alpha', '159'))).toContain('/posts/popular?period=week');
    const touched = await changed(() => touchCreatorUpdated(t.db, 'fanbox', 'alpha', 4_000_000_000));
    expect(touched).toContain('/artists/updated');
    expect(touched.filter((key) => key.startsWith('/posts'))).toEqual([]);
    const renamed = await changed(() => upsertCreator(t.db, { service: 'fanbox', id: 'alpha', name: 'Alpha Two' }));
    expect(renamed).toContain('/posts/popular/feed.rss');
    expect(renamed).toContain('/posts/feed.atom');
    expect(renamed).toContain('/artists');
  });
});
