/**
 * "New from your favourites" against a real migrated database: the list since a date (only favourite
 * creators, newest added first, paged, the 400s), the count since the last visit (capped), and the
 * personal feed's link: made and reset through the API (CSRF-checked), stored only as a SHA-256, and the
 * feed itself (parsed with a real feed parser) answering for the live token only.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from '@rowanmanning/feed-parser';
import { createApp } from '@api/app.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { addFavoriteCreator } from '@api/data/favorites.ts';
import { recordNewsVisit } from '@api/data/favorites-news.ts';
import { nowIso } from '@api/data/util.ts';
import { readConfig } from '@api/config.ts';
import { loadFavoritesFeed } from '@site/loaders/favorites-news.ts';
import { cardTitle } from '@shared/post-card.ts';
import { SINCE_MESSAGE } from '@shared/validation/favorites-news.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { v1Calls } from '../../helpers/api-calls.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let app: ReturnType<typeof createApp>;
let alice: TestSession;
let bob: TestSession;

const { get, post, del } = v1Calls(() => app);
const ids = (body: { posts: Array<{ id: string }> }) => body.posts.map((p) => p.id);
const daysAgo = (days: number) => nowIso(new Date(Date.now() - days * 86_400_000));
const deps = () => ({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }) });
const feed = async (file: string) => {
  const [token, format = ''] = file.split('.');
  return await loadFavoritesFeed(deps(), new Request(`http://trove.test/feeds/favorites.${format}?token=${token}`), format, token);
};

beforeAll(async () => {
  t = tempDb();
  app = createApp({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
  await upsertCreator(t.db, { service: 'patreon', id: '100', name: 'Alice Art' });
  await upsertCreator(t.db, { service: 'fanbox', id: '200', name: 'Bob Draws' });
  await upsertCreator(t.db, { service: 'patreon', id: '300', name: 'Not A Favourite' });
  await upsertPost(t.db, { service: 'patreon', user: '100', id: 'a1', title: 'Old one', added: '2026-01-05T10:00:00' });
  await upsertPost(t.db, {
    service: 'patreon',
    user: '100',
    id: 'a2',
    title: 'Newer one',
    added: '2026-01-20T10:00:00',
    published: '2025-12-01T00:00:00',
  });
  await upsertPost(t.db, {
    service: 'fanbox',
    user: '200',
    id: 'b1',
    title: '',
    content: '<p>Hello <b>there</b></p>',
    added: '2026-01-15T08:00:00',
  });
  await upsertPost(t.db, { service: 'patreon', user: '300', id: 'c1', title: 'Elsewhere', added: '2026-01-25T00:00:00' });
  alice = await signIn(t.db, { username: 'alice' });
  bob = await signIn(t.db, { username: 'bob' });
  await addFavoriteCreator(t.db, alice.account.id, 'patreon', '100');
  await addFavoriteCreator(t.db, alice.account.id, 'fanbox', '200');
});

afterAll(() => t.cleanup());

describe('GET /api/v1/account/favorites/new', () => {
  it('lists the favourite creators’ posts added since a date, newest added first', async () => {
    const answer = await get('/account/favorites/new?since=2026-01-10', alice).expect(200);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    expect(answer.body.since).toBe('2026-01-10T00:00:00');
    expect(answer.body.total).toBe(2);
    expect(ids(answer.body)).toEqual(['a2', 'b1']);
    // The day itself counts from midnight (UTC): b1 was added at 08:00 that day.
    expect(ids((await get('/account/favorites/new?since=2026-01-15', alice).expect(200)).body)).toEqual(['a2', 'b1']);
    expect(ids((await get('/account/favorites/new?since=2026-01-16', alice).expect(200)).body)).toEqual(['a2']);
    expect(ids((await get('/account/favorites/new?since=2026-01-01', alice).expect(200)).body)).toEqual(['a2', 'b1', 'a1']);
  });

  it('shows nothing of creators that are not favourites, and each account only its own', async () => {
    expect((await get('/account/favorites/new?since=2026-01-01', bob).expect(200)).body).toMatchObject({ total: 0, posts: [] });
  });

  it('refuses a since that is not a date with a clear 400', async () => {
    expect((await get('/account/favorites/new?since=yesterday', alice).expect(400)).body.error).toBe(SINCE_MESSAGE);
    expect((await get('/account/favorites/new?since=2026-02-30', alice).expect(400)).body.error).toBe(
      'Invalid since: 2026-02-30 is not a date of the calendar.',
    );
    await get('/account/favorites/new?since=2026-01-01&o=7', alice).expect(400);
  });

  it('pages by 50 with o', async () => {
    const carol = await signIn(t.db, { username: 'carol' });
    await upsertCreator(t.db, { service: 'patreon', id: '400', name: 'Prolific' });
    for (let n = 0; n < 55; n += 1) {
      await upsertPost(t.db, { service: 'patreon', user: '400', id: `p${n}`, added: `2026-02-01T00:00:${String(n).padStart(2, '0')}` });
    }
    await addFavoriteCreator(t.db, carol.account.id, 'patreon', '400');
    const first = (await get('/account/favorites/new?since=2026-02-01', carol).expect(200)).body;
    expect(first.total).toBe(55);
    expect(first.posts).toHaveLength(50);
    expect(first.posts[0].id).toBe('p54');
    const second = (await get('/account/favorites/new?since=2026-02-01&o=50', carol).expect(200)).body;
    expect(ids(second)).toEqual(['p4', 'p3', 'p2', 'p1', 'p0']);
  });

  it('defaults to the last visit, which reading the API does not move', async () => {
    const dave = await signIn(t.db, { username: 'dave' });
    await upsertCreator(t.db, { service: 'patreon', id: '500', name: 'Recent' });
    await addFavoriteCreator(t.db, dave.account.id, 'patreon', '500');
    await upsertPost(t.db, { service: 'patreon', user: '500', id: 'r1', added: daysAgo(3) });
    await upsertPost(t.db, { service: 'patreon', user: '500', id: 'r2', added: daysAgo(1) });
    await upsertPost(t.db, { service: 'patreon', user: '500', id: 'r0', added: daysAgo(10) });
    // Never visited: the last week.
    expect(ids((await get('/account/favorites/new', dave).expect(200)).body)).toEqual(['r2', 'r1']);
    await recordNewsVisit(t.db, dave.account.id, daysAgo(2));
    const since = (await get('/account/favorites/new', dave).expect(200)).body;
    expect(ids(since)).toEqual(['r2']);
    expect((await get('/account/favorites/new', dave).expect(200)).body).toEqual(since);
  });
});

describe('GET /api/v1/account/favorites/new/count', () => {
  it('counts the posts added since the last visit; a visit resets it and a new post raises it', async () => {
    const erin = await signIn(t.db, { username: 'erin' });
    await upsertCreator(t.db, { service: 'patreon', id: '600', name: 'Counted' });
    await addFavoriteCreator(t.db, erin.account.id, 'patreon', '600');
    await upsertPost(t.db, { service: 'patreon', user: '600', id: 'n1', added: daysAgo(2) });
    await upsertPost(t.db, { service: 'patreon', user: '600', id: 'n2', added: daysAgo(1) });
    const answer = await get('/account/favorites/new/count', erin).expect(200);
    expect(answer.body).toEqual({ count: 2, capped: false });
    expect(answer.headers['cache-control']).toBe('private, no-store');
    await recordNewsVisit(t.db, erin.account.id, daysAgo(1.5));
    expect((await get('/account/favorites/new/count', erin).expect(200)).body).toEqual({ count: 1, capped: false });
    await recordNewsVisit(t.db, erin.account.id);
    expect((await get('/account/favorites/new/count', erin).expect(200)).body).toEqual({ count: 0, capped: false });
    await upsertPost(t.db, { service: 'patreon', user: '600', id: 'n3', added: nowIso(new Date(Date.now() + 1000)) });
    expect((await get('/account/favorites/new/count', erin).expect(200)).body).toEqual({ count: 1, capped: false });
  });

  it('stops counting at 99 and says so', async () => {
    const fay = await signIn(t.db, { username: 'fay' });
    await upsertCreator(t.db, { service: 'patreon', id: '700', name: 'Very prolific' });
    for (let n = 0; n < 120; n += 1) await upsertPost(t.db, { service: 'patreon', user: '700', id: `v${n}`, added: daysAgo(1) });
    await addFavoriteCreator(t.db, fay.account.id, 'patreon', '700');
    expect((await get('/account/favorites/new/count', fay).expect(200)).body).toEqual({ count: 99, capped: true });
  });

  it('answers 401 to guests', async () => {
    await get('/account/favorites/new/count').expect(401);
    await get('/account/favorites/new').expect(401);
  });
});

describe('the personal feed', () => {
  const hash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

  it('is made through POST /api/v1/account/favorites/feed, and only its hash is stored', async () => {
    const made = (await post('/account/favorites/feed', alice).expect(200)).body;
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.rss).toBe(`/feeds/favorites.rss?token=${made.token}`);
    expect(made.atom).toBe(`/feeds/favorites.atom?token=${made.token}`);
    const rows = t.db.prepare('SELECT * FROM favorites_news').all();
    expect(JSON.stringify(rows)).not.toContain(made.token);
    const row = t.db.prepare('SELECT feed_token_hash FROM favorites_news WHERE account_id = ?').get(alice.account.id) as {
      feed_token_hash: string;
    };
    expect(row.feed_token_hash).toBe(hash(made.token));
  });

  it('refuses a reset sent from another site (CSRF)', async () => {
    const before = t.db.prepare('SELECT feed_token_hash FROM favorites_news WHERE account_id = ?').get(alice.account.id);
    await post('/account/favorites/feed', alice).set('Origin', 'https://evil.example').set('Host', 'trove.test').expect(403);
    expect(t.db.prepare('SELECT feed_token_hash FROM favorites_news WHERE account_id = ?').get(alice.account.id)).toEqual(before);
  });

  it('carries the favourite creators’ posts, newest added first, in RSS and Atom', async () => {
    const { token } = (await post('/account/favorites/feed', alice).expect(200)).body;
    for (const format of ['rss', 'atom'] as const) {
      const answer = await feed(`${token}.${format}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['Content-Type']).toContain(format === 'rss' ? 'application/rss+xml' : 'application/atom+xml');
      expect(answer.headers['Cache-Control']).toBe('private, no-store');
      const parsed = parseFeed(answer.body);
      expect(parsed.title).toContain('New from your favorites');
      expect(parsed.items.map((item) => item.url)).toEqual([
        'http://trove.test/patreon/user/100/post/a2',
        'http://trove.test/fanbox/user/200/post/b1',
        'http://trove.test/patreon/user/100/post/a1',
      ]);
      expect(parsed.items.map((item) => item.title)).toEqual(['Newer one', cardTitle('', 'Hello there'), 'Old one']);
      // The item's date is the creator's publication date when there is one, else when it was added.
      expect(parsed.items[0].published?.toISOString()).toBe('2025-12-01T00:00:00.000Z');
      expect(parsed.items[1].published?.toISOString()).toBe('2026-01-15T08:00:00.000Z');
      expect(parsed.items[1].description ?? parsed.items[1].content).toContain('Hello there');
    }
  });

  it('answers 404 for the old token after a reset, an unknown token, and after turning it off', async () => {
    const old = (await post('/account/favorites/feed', alice).expect(200)).body.token;
    expect((await feed(`${old}.rss`)).status).toBe(200);
    const fresh = (await post('/account/favorites/feed', alice).expect(200)).body.token;
    expect(fresh).not.toBe(old);
    expect((await feed(`${old}.rss`)).status).toBe(404);
    expect((await feed(`${fresh}.atom`)).status).toBe(200);
    expect(await feed(`${'A'.repeat(43)}.rss`)).toMatchObject({ status: 404, body: 'Feed not found.' });
    expect((await feed('not-a-token.rss')).status).toBe(404);
    expect((await feed(`${fresh}.json`)).status).toBe(404);
    expect((await feed(fresh)).status).toBe(404);
    await del('/account/favorites/feed', alice).expect(200);
    expect((await feed(`${fresh}.rss`)).status).toBe(404);
    // Turning off a feed that is off is fine too.
    await del('/account/favorites/feed', alice).expect(200);
  });

  it("gives each account its own feed: bob's token never shows alice's posts", async () => {
    const { token } = (await post('/account/favorites/feed', bob).expect(200)).body;
    expect(parseFeed((await feed(`${token}.rss`)).body).items).toEqual([]);
  });
});
