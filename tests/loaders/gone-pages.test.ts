/**
 * The 410 pages of removed creators and posts (src/loaders/outcome.ts `gone`, src/components/Gone.astro),
 * rendered by the real front server: every URL of a listed creator and of a listed post answers 410
 * with the removal message while its do-not-post entry stands, and what it answered before once lifted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { addDoNotPost, liftDoNotPost, recordRemovedPosts } from '@api/data/do-not-post.ts';
import { GONE_MESSAGES, NOT_FOUND_MESSAGE } from '@shared/error-page.ts';
import { createTestSite, type TestSite } from '../helpers/front-server.ts';
import { httpRequest } from '../helpers/http.ts';

let site: TestSite;

async function get(url: string) {
  const answer = await httpRequest(site.base + url);
  return { status: answer.status, html: answer.body.toString('utf8'), headers: answer.headers };
}

/** The HTML escapes the apostrophe of the creator message. */
const shown = (html: string, message: string) => html.replace(/&#39;|&#x27;/g, "'").includes(message);

beforeAll(async () => {
  site = await createTestSite('gone-pages');
  const db = site.db;
  await upsertCreator(db, { service: 'patreon', id: '700', name: 'Listed Painter' });
  await upsertPost(db, { service: 'patreon', user: '700', id: 'p1', title: 'Kept by its creator', published: '2024-01-01T00:00:00' });
  await upsertCreator(db, { service: 'patreon', id: '800', name: 'Other Painter' });
  await upsertPost(db, { service: 'patreon', user: '800', id: 'solo', title: 'Removed alone', published: '2024-01-02T00:00:00' });
  await upsertPost(db, { service: 'patreon', user: '800', id: 'stays', title: 'Still here', published: '2024-01-03T00:00:00' });
  await site.start();
}, 300_000);

afterAll(async () => {
  await site?.close();
});

const CREATOR_URLS = [
  '/patreon/user/700',
  '/patreon/user/700/tags',
  '/patreon/user/700/announcements',
  '/patreon/user/700/dms',
  '/patreon/user/700/links',
  '/patreon/user/700/shares',
  '/patreon/user/700/community',
  '/patreon/user/700/community/1',
  '/patreon/user/700/post/p1',
  '/patreon/user/700/post/p1/revision/1',
  '/patreon/post/p1',
];

describe('a removed creator', () => {
  it('answers 410 "Removed" with the creator message on the creator page, its tabs, posts, revisions and short links', async () => {
    const entry = await addDoNotPost(site.db, { service: 'patreon', creator_id: '700', name: 'Listed Painter', reason: 'owner asked' });
    try {
      for (const url of CREATOR_URLS) {
        const { status, html } = await get(url);
        expect(status, url).toBe(410);
        expect(shown(html, GONE_MESSAGES.creator), url).toBe(true);
        expect(html, url).toContain('<title>Removed');
        expect(html, url).not.toContain('Kept by its creator');
      }
    } finally {
      await liftDoNotPost(site.db, entry.id);
    }
    // Lifted: the creator (whose rows are still here in this test) shows again.
    expect((await get('/patreon/user/700')).status).toBe(200);
  });

  it('answers 410 for a creator no longer in the archive, and 404 once its entry is lifted', async () => {
    const entry = await addDoNotPost(site.db, { service: 'fanbox', creator_id: '9999', reason: 'owner asked' });
    const gone = await get('/fanbox/user/9999/fancards');
    expect(gone.status).toBe(410);
    // Lifting undoes it: browsers must not keep the 410.
    expect(gone.headers['cache-control']).toBe('no-store');
    expect(shown(gone.html, GONE_MESSAGES.creator)).toBe(true);
    // The short links of its posts, which name no creator, are known by the ids the takedown kept.
    expect((await get('/fanbox/post/gone-1')).status).toBe(404);
    await recordRemovedPosts(site.db, entry.id, 'fanbox', ['gone-1']);
    const short = await get('/fanbox/post/gone-1');
    expect(short.status).toBe(410);
    expect(shown(short.html, GONE_MESSAGES.creator)).toBe(true);
    await liftDoNotPost(site.db, entry.id);
    expect((await get('/fanbox/post/gone-1')).status).toBe(404);
    const after = await get('/fanbox/user/9999/fancards');
    expect(after.status).toBe(404);
    expect(after.html).toContain(NOT_FOUND_MESSAGE);
  });

  it('answers 410 on the pages of a removed discord server', async () => {
    const entry = await addDoNotPost(site.db, { service: 'discord', creator_id: '123456', reason: 'owner asked' });
    for (const url of ['/discord/server/123456', '/discord/server/123456/42', '/discord/user/123456']) {
      const { status, html } = await get(url);
      expect(status, url).toBe(410);
      expect(shown(html, GONE_MESSAGES.creator), url).toBe(true);
    }
    await liftDoNotPost(site.db, entry.id);
    expect((await get('/discord/server/123456')).status).toBe(404);
  });
});

describe('a removed post', () => {
  it('answers 410 with the post message on its page, revisions and short link, while the creator and its other posts stay', async () => {
    const entry = await addDoNotPost(site.db, {
      service: 'patreon',
      creator_id: '800',
      post_id: 'solo',
      name: 'Removed alone',
      reason: 'owner asked',
    });
    for (const url of ['/patreon/user/800/post/solo', '/patreon/user/800/post/solo/revision/1', '/patreon/post/solo']) {
      const { status, html } = await get(url);
      expect(status, url).toBe(410);
      expect(html, url).toContain(GONE_MESSAGES.post);
      expect(html, url).not.toContain('content was removed');
    }
    expect((await get('/patreon/user/800/post/stays')).status).toBe(200);
    await liftDoNotPost(site.db, entry.id);
    expect((await get('/patreon/user/800/post/solo')).status).toBe(200);
    expect((await get('/patreon/user/800/post/nothing')).status).toBe(404);
  });
});
