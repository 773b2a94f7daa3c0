/**
 * The artists list (/artists) on the real front server: the stored default listing, query variants
 * rendered on demand, the spec's 400 messages, and which stored pages a creator change re-renders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { httpRequest } from '../../helpers/http.ts';
import { createAccount } from '@api/data/accounts.ts';
import { lastChangeId, readChangesSince } from '@api/data/changes.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { addFavoriteCreator } from '@api/data/favorites.ts';
import { affectedByChanges } from '@api/pages/affected.ts';
import { canonicalPageKey, GLOBAL_LISTING_STORED_PAGES } from '@api/pages/keys.ts';
import { allArchivePages } from '@api/pages/rebuild.ts';

let site: TestSite;
let base: string;

/** 120 creators: 'Creator 000' to 'Creator 119'; creator n was indexed on day n and has n % 7 fans. */
beforeAll(async () => {
  site = await createTestSite('artists');
  const fans: number[] = [];
  for (let n = 0; n < 6; n += 1) fans.push((await createAccount(site.db, { username: `fan${n}`, password_hash: 'x' })).id);
  for (let n = 0; n < 120; n += 1) {
    const id = String(1000 + n);
    const service = n % 2 ? 'patreon' : 'fanbox';
    await upsertCreator(site.db, {
      service,
      id,
      name: `Creator ${String(n).padStart(3, '0')}`,
      indexed: 1_700_000_000 + n * 86_400,
      updated: 1_700_000_000,
    });
    for (const fan of fans.slice(0, n % 7)) await addFavoriteCreator(site.db, fan, service, id);
  }
  base = await site.start();
}, 300_000);

afterAll(() => site?.close());

const get = (path: string) => httpRequest(`${base}${path}`);
const cardIds = (html: string) =>
  [...html.matchAll(/class="creator-card" data-service="[^"]+" data-id="([^"]+)"/g)].map((match) => Number(match[1]) - 1000);

describe('the /artists page', () => {
  it('stores the default listing: 50 cards, most favourited first', async () => {
    const answer = await get('/artists');
    expect(answer.status).toBe(200);
    const html = answer.body.toString();
    const shown = cardIds(html);
    expect(shown).toHaveLength(50);
    expect(shown.every((n) => n % 7 === 6)).toBe(false); // more than the 17 with six fans
    expect(shown.slice(0, 17).every((n) => n % 7 === 6)).toBe(true);
    expect(html).toContain('Showing 1 - 50 of 120');
    expect(site.store.has('/artists')).toBe(true);
    expect((await get('/artists?o=100')).status).toBe(200);
    expect(site.store.has('/artists?o=100')).toBe(true);
  });

  it('renders queries on demand without storing them', async () => {
    const answer = await get('/artists?q=creator+11&sort_by=indexed&order=asc');
    expect(answer.status).toBe(200);
    expect(cardIds(answer.body.toString())).toEqual([110, 111, 112, 113, 114, 115, 116, 117, 118, 119]);
    const fanbox = cardIds((await get('/artists?service=fanbox&sort_by=name&order=desc')).body.toString());
    expect(fanbox).toEqual(Array.from({ length: 50 }, (_, n) => 118 - 2 * n));
    expect(site.store.has('/artists?q=creator+11&sort_by=indexed&order=asc')).toBe(false);
  });

  it('links the paginator pages with the query kept', async () => {
    const html = (await get('/artists?sort_by=name&order=asc&o=50')).body.toString().replace(/&#38;|&amp;/g, '&');
    expect(cardIds(html)[0]).toBe(50);
    expect(html).toContain('href="/artists?sort_by=name&order=asc&o=100"');
    expect(html).toContain('href="/artists?sort_by=name&order=asc"');
  });

  it("answers the spec's messages with 400, an empty search with its message, and 404 past the end", async () => {
    for (const [query, message] of [
      ['sort_by=age', 'Invalid sort field value'],
      ['order=up', 'Invalid order by field'],
      ['service=myspace', 'Unknown service'],
      ['o=10', 'Offset 10 is not a multiple of 50.'],
    ]) {
      const answer = await get(`/artists?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.statusText, query).toBe('Bad Request');
      expect(answer.body.toString()).toContain(message);
    }
    const empty = await get('/artists?q=nobody');
    expect(empty.status).toBe(200);
    expect(empty.body.toString()).toContain('No creators found for your query.');
    expect((await get('/artists?o=150')).status).toBe(404);
    expect(site.store.has('/artists?o=150')).toBe(false);
  });

  it('takes the first of a repeated parameter, like the other listings', async () => {
    expect((await get('/artists?sort_by=name&sort_by=age')).status).toBe(200);
    expect((await get('/artists?sort_by=age&sort_by=name')).status).toBe(400);
  });

  it('sees a new creator on the next request (the list is cached per archive state)', async () => {
    expect(cardIds((await get('/artists?q=newcomer')).body.toString())).toEqual([]);
    await upsertCreator(site.db, { service: 'gumroad', id: '9999', name: 'Newcomer' });
    expect(cardIds((await get('/artists?q=newcomer')).body.toString())).toEqual([8999]);
  });
});

describe('/artists in the page store', () => {
  it('keys the default listing by offset, within the global depth, and never a query', () => {
    const deepest = (GLOBAL_LISTING_STORED_PAGES - 1) * 50;
    expect(canonicalPageKey('/artists', '')).toBe('/artists');
    expect(canonicalPageKey('/artists/', '?o=50')).toBe('/artists?o=50');
    expect(canonicalPageKey('/artists', `?o=${deepest}`)).toBe(`/artists?o=${deepest}`);
    expect(canonicalPageKey('/artists', `?o=${deepest + 50}`)).toBeUndefined();
    for (const query of ['?q=ab', '?service=fanbox', '?sort_by=name', '?order=asc', '?o=10']) {
      expect(canonicalPageKey('/artists', query), query).toBeUndefined();
    }
  });

  it('re-renders every stored page of the listing when a creator changes, and in a full rebuild', async () => {
    const from = await lastChangeId(site.db);
    await upsertCreator(site.db, { service: 'fanbox', id: '1000', name: 'Creator 000 renamed' });
    const affected = await affectedByChanges(site.db, await readChangesSince(site.db, from));
    for (const key of ['/artists', '/artists?o=50', '/artists?o=100']) expect(affected.render).toContain(key);
    expect(affected.listings.get('/artists')).toBe(100);
    expect((await allArchivePages(site.db)).render).toContain('/artists?o=100');
  });
});
