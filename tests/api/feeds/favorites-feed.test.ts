/**
 * The personal feed through the real front server and the built site: /feeds/favorites.rss?token= and
 * .atom answer the feed without a session, with private no-store caching, for the live token only, with
 * absolute links on the origin the reader asked (forwarded headers only with TRUST_PROXY), and nothing of
 * it lands in the page store.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from '@rowanmanning/feed-parser';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { addFavoriteCreator } from '@api/data/favorites.ts';
import { resetFeedToken } from '@api/feeds/favorites.ts';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { httpRequest } from '../../helpers/http.ts';
import { signIn } from '../../helpers/session.ts';

let site: TestSite;
let token: string;

beforeAll(async () => {
  site = await createTestSite('favorites-feed');
  const reader = await signIn(site.db, { username: 'reader' });
  await upsertCreator(site.db, { service: 'patreon', id: '10', name: 'Feed <Creator> & Co' });
  await upsertPost(site.db, { service: 'patreon', user: '10', id: '1', title: 'First <b>bold</b> & ]]>', added: '2026-03-01T10:00:00' });
  await upsertPost(site.db, { service: 'patreon', user: '10', id: '2', title: 'Second', added: '2026-03-02T10:00:00' });
  await addFavoriteCreator(site.db, reader.account.id, 'patreon', '10');
  token = await resetFeedToken(site.db, reader.account.id);
  await site.start();
});

afterAll(() => site?.close());

describe('/feeds/favorites.rss and .atom', () => {
  it('answers the RSS and Atom feeds without a session, privately', async () => {
    for (const [format, type] of [
      ['rss', 'application/rss+xml'],
      ['atom', 'application/atom+xml'],
    ] as const) {
      const answer = await httpRequest(`${site.base}/feeds/favorites.${format}?token=${token}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toContain(type);
      expect(answer.headers['cache-control']).toBe('private, no-store');
      const feed = parseFeed(answer.body.toString('utf8'));
      expect(feed.items.map((item) => item.title)).toEqual(['Second', 'First <b>bold</b> & ]]>']);
      expect(feed.items[0].url).toBe(`${site.base}/patreon/user/10/post/2`);
    }
    // Personal: nothing of it is stored.
    const stored = fs.existsSync(site.paths.pages) ? fs.readdirSync(site.paths.pages, { recursive: true }).map(String) : [];
    expect(stored.filter((name) => name.includes('feeds') || name.includes(token))).toEqual([]);
  });

  it('answers 404 for an unknown or malformed token', async () => {
    for (const target of [`.rss?token=${'x'.repeat(43)}`, '.atom?token=short', `.xml?token=${token}`, '.rss', `/${token}.rss`]) {
      const answer = await httpRequest(`${site.base}/feeds/favorites${target}`);
      expect(answer.status, target).toBe(404);
    }
  });

  it('ignores forwarded headers without TRUST_PROXY', async () => {
    const answer = await httpRequest(`${site.base}/feeds/favorites.rss?token=${token}`, {
      headers: { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' },
    });
    expect(answer.body.toString('utf8')).not.toContain('evil.example');
  });
});
