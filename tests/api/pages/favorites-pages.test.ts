/**
 * The favourites pages on the real front server: redirects, the guest's page (the device list is the
 * island's), the spec's 400 messages,
 * the first page sorted on the server, empty states, and that per-account HTML is never stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { httpRequest } from '../../helpers/http.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { addFavoriteCreator, addFavoritePost } from '@api/data/favorites.ts';

let site: TestSite;
let base: string;
let fan: TestSession;
let nobody: TestSession;

/** 60 creators, favourited in id order; creator n updated on day 120 - 2n, so "New post date" reverses it. */
beforeAll(async () => {
  site = await createTestSite('favorites');
  fan = await signIn(site.db);
  nobody = await signIn(site.db);
  for (let n = 0; n < 60; n += 1) {
    const id = String(1000 + n);
    await upsertCreator(site.db, { service: 'patreon', id, name: `Fave ${n}`, updated: 1_700_000_000 + (120 - 2 * n) * 86_400 });
    await addFavoriteCreator(site.db, fan.account.id, 'patreon', id);
  }
  await upsertPost(site.db, { service: 'patreon', user: '1000', id: 'p1', title: 'Older post', published: '2020-01-01T00:00:00' });
  await upsertPost(site.db, { service: 'patreon', user: '1000', id: 'p2', title: 'Newer post', published: '2023-01-01T00:00:00' });
  await addFavoritePost(site.db, fan.account.id, 'patreon', '1000', 'p2');
  await addFavoritePost(site.db, fan.account.id, 'patreon', '1000', 'p1');
  base = await site.start();
}, 300_000);

afterAll(() => site?.close());

const get = (path: string, session?: TestSession) => httpRequest(`${base}${path}`, { headers: session ? { cookie: session.cookie } : {} });
const creatorIds = (html: string) =>
  [...html.matchAll(/class="creator-card" data-service="[^"]+" data-id="([^"]+)"/g)].map((m) => Number(m[1]) - 1000);
const postIds = (html: string) => [...html.matchAll(/class="post-card" data-id="([^"]+)"/g)].map((m) => m[1]);

describe('favourites pages', () => {
  it('redirect /favorites and /account/favorites to the profiles', async () => {
    for (const path of ['/favorites', '/account/favorites']) {
      const answer = await get(path);
      expect(answer.status, path).toBe(302);
      expect(answer.headers.location).toBe('/account/favorites/artists');
    }
  });

  it('show guests the page for their device favourites, never stored, with the 400 for a bad sort', async () => {
    const answer = await get('/account/favorites/artists');
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const html = answer.body.toString();
    expect(html).toContain('These favourites are kept on this device only.');
    expect(html).toContain('href="/authentication/register"');
    expect(creatorIds(html)).toEqual([]);
    expect(html).not.toContain('You must be registered to access this page.');
    expect((await get('/account/favorites/posts')).status).toBe(200);
    expect((await get('/account/favorites/artists?sort_by=nonsense')).status).toBe(400);
    expect(site.store.has('/account/favorites/artists')).toBe(false);
  });

  it('sort the first page on the server: New post date, newest first, by default', async () => {
    const answer = await get('/account/favorites/artists', fan);
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    // React separates text parts with empty comments.
    const html = answer.body.toString().replaceAll('<!-- -->', '');
    expect(creatorIds(html)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(html).toContain('Showing 1 - 50 of 60');
    expect(html).toContain('New post date');
    expect(creatorIds((await get('/account/favorites/artists?sort_by=faved_seq', fan)).body.toString())).toEqual(
      Array.from({ length: 50 }, (_, i) => 59 - i),
    );
    expect(creatorIds((await get('/account/favorites/artists?sort_by=updated&order=asc&o=50', fan)).body.toString())).toEqual(
      Array.from({ length: 10 }, (_, i) => 9 - i),
    );
    expect(site.store.has('/account/favorites/artists')).toBe(false);
  });

  it('sort posts by faved date or published date', async () => {
    expect(postIds((await get('/account/favorites/posts', fan)).body.toString())).toEqual(['p1', 'p2']);
    expect(postIds((await get('/account/favorites/posts?sort_by=published', fan)).body.toString())).toEqual(['p2', 'p1']);
    expect(postIds((await get('/account/favorites/posts?sort_by=published&order=asc', fan)).body.toString())).toEqual(['p1', 'p2']);
  });

  it("answer the spec's messages for a bad sort_by or order", async () => {
    const badSort = await get('/account/favorites/artists?sort_by=published', fan);
    expect(badSort.status).toBe(400);
    expect(badSort.body.toString()).toContain('Invalid sort by value');
    const badOrder = await get('/account/favorites/posts?order=sideways', fan);
    expect(badOrder.status).toBe(400);
    expect(badOrder.body.toString()).toContain('Invalid order value');
  });

  it("show another account's empty states, never the fan's favourites", async () => {
    const artists = (await get('/account/favorites/artists', nobody)).body.toString();
    expect(creatorIds(artists)).toEqual([]);
    expect(artists).toContain('Nobody here but us chickens!');
    expect(artists).toContain('There are no profiles.');
    const posts = (await get('/account/favorites/posts', nobody)).body.toString();
    expect(postIds(posts)).toEqual([]);
    expect(posts).toContain('There are no more posts.');
  });
});
