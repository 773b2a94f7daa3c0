/**
 * Hiding creators and tags through the API against a real migrated database: add, list and remove,
 * idempotence, 400 and 404, and the listings (posts, search, popular, tags, creators, random) leaving
 * hidden items out for that account only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { readConfig } from '@api/config.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { v1Calls } from '../../helpers/api-calls.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let app: ReturnType<typeof createApp>;
let alice: TestSession;
let bob: TestSession;

const { get, post, del } = v1Calls(() => app);
const ids = (posts: { id: string }[]) => posts.map((p) => p.id).sort();

beforeAll(async () => {
  t = tempDb();
  app = createApp({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
  await upsertCreator(t.db, { service: 'patreon', id: '100', name: 'Alice Art', updated: 1_700_000_000 });
  await upsertCreator(t.db, { service: 'fanbox', id: '200', name: 'Bob Draws', updated: 1_600_000_000 });
  await upsertPost(t.db, {
    service: 'patreon',
    user: '100',
    id: '1',
    title: 'Sunset one',
    published: '2024-01-02T03:04:05',
    tags: ['sky'],
  });
  await upsertPost(t.db, {
    service: 'patreon',
    user: '100',
    id: '2',
    title: 'Sunset two',
    published: '2024-01-03T03:04:05',
    tags: ['gore'],
  });
  await upsertPost(t.db, {
    service: 'fanbox',
    user: '200',
    id: '3',
    title: 'Sunset three',
    published: '2024-01-04T03:04:05',
    tags: ['gore', 'sky'],
  });
  await upsertPost(t.db, {
    service: 'fanbox',
    user: '200',
    id: '4',
    title: 'Sunset four',
    published: '2024-01-05T03:04:05',
    tags: ['sea'],
  });
  const popular = t.db.prepare('INSERT INTO post_popularity (day, service, "user", post_id, favorites) VALUES (?, ?, ?, ?, ?)');
  for (const [service, user, id] of [
    ['patreon', '100', '1'],
    ['patreon', '100', '2'],
    ['fanbox', '200', '3'],
    ['fanbox', '200', '4'],
  ])
    popular.run('2024-03-01', service, user, id, 3);
  alice = await signIn(t.db);
  bob = await signIn(t.db);
});

afterAll(() => t.cleanup());

describe('GET/POST/DELETE /api/v1/account/hidden', () => {
  it('answers 401 to guests and keeps nothing', async () => {
    for (const call of [get('/account/hidden'), post('/account/hidden/creator/patreon/100'), del('/account/hidden/tag/sky')]) {
      expect((await call).status).toBe(401);
    }
    expect((t.db.prepare('SELECT count(*) AS n FROM hidden_creators').get() as { n: number }).n).toBe(0);
  });

  it('adds, lists and removes creators and tags, idempotently', async () => {
    for (let i = 0; i < 2; i++) {
      const hid = await post('/account/hidden/creator/patreon/100', alice);
      expect(hid.status).toBe(200);
      expect(hid.body).toBe(true);
      expect((await post(`/account/hidden/tag/${encodeURIComponent('night sky/2')}`, alice)).status).toBe(200);
    }
    const listed = await get('/account/hidden', alice);
    expect(listed.status).toBe(200);
    expect(listed.body.creators).toEqual([{ service: 'patreon', id: '100', name: 'Alice Art', added: expect.any(String) }]);
    expect(listed.body.tags).toEqual([{ tag: 'night sky/2', added: expect.any(String) }]);
    expect((await get('/account/hidden', bob)).body).toEqual({ creators: [], tags: [] });

    for (let i = 0; i < 2; i++) {
      expect((await del('/account/hidden/creator/patreon/100', alice)).status).toBe(200);
      expect((await del(`/account/hidden/tag/${encodeURIComponent('night sky/2')}`, alice)).status).toBe(200);
    }
    expect((await get('/account/hidden', alice)).body).toEqual({ creators: [], tags: [] });
  });

  it('refuses a bad service or tag with 400 and an unknown creator with 404', async () => {
    const badService = await post('/account/hidden/creator/myspace/100', alice);
    expect(badService.status).toBe(400);
    expect(JSON.stringify(badService.body)).toContain('not a valid paysite');
    const spaces = await post(`/account/hidden/tag/${encodeURIComponent(' sky ')}`, alice);
    expect(spaces.status).toBe(400);
    expect(JSON.stringify(spaces.body)).toContain('spaces');
    expect((await post(`/account/hidden/tag/${'x'.repeat(201)}`, alice)).status).toBe(400);
    const unknown = await post('/account/hidden/creator/patreon/999', alice);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Creator not found.' });
  });
});

describe('listings leave hidden items out for that account only', () => {
  beforeAll(async () => {
    await post('/account/hidden/creator/patreon/100', alice);
    await post('/account/hidden/tag/gore', alice);
  });
  afterAll(async () => {
    await del('/account/hidden/creator/patreon/100', alice);
    await del('/account/hidden/tag/gore', alice);
  });

  it('GET /api/v1/posts and its search', async () => {
    expect(ids((await get('/posts', bob)).body.posts)).toEqual(['1', '2', '3', '4']);
    expect(ids((await get('/posts')).body.posts)).toEqual(['1', '2', '3', '4']);
    const mine = await get('/posts', alice);
    expect(ids(mine.body.posts)).toEqual(['4']);
    expect(mine.headers['cache-control']).toContain('private');
    expect(ids((await get('/posts?q=sunset', alice)).body.posts)).toEqual(['4']);
    expect(ids((await get('/posts?tag=sky', alice)).body.posts)).toEqual([]);
    expect(ids((await get('/posts?tag=sky', bob)).body.posts)).toEqual(['1', '3']);
  });

  it('GET /api/v1/posts/popular', async () => {
    expect(ids((await get('/posts/popular?date=2024-03-01&period=day', bob)).body.posts)).toEqual(['1', '2', '3', '4']);
    expect(ids((await get('/posts/popular?date=2024-03-01&period=day', alice)).body.posts)).toEqual(['4']);
  });

  it('GET /api/v1/posts/tags', async () => {
    const tags = (session?: TestSession) =>
      get('/posts/tags', session).then((answer) => answer.body.map((row: { tag: string }) => row.tag).sort());
    expect(await tags(bob)).toEqual(['gore', 'sea', 'sky']);
    expect(await tags(alice)).toEqual(['sea', 'sky']);
  });

  it('GET /api/v1/creators and /api/v1/creators.txt', async () => {
    for (const path of ['/creators', '/creators.txt']) {
      const names = async (session?: TestSession) => (await get(path, session)).body.map((c: { name: string }) => c.name).sort();
      expect(await names(bob)).toEqual(['Alice Art', 'Bob Draws']);
      expect(await names()).toEqual(['Alice Art', 'Bob Draws']);
      expect(await names(alice)).toEqual(['Bob Draws']);
    }
  });

  it('GET /api/v1/posts/random and /api/v1/artists/random never pick a hidden one', async () => {
    for (let i = 0; i < 15; i++) {
      expect((await get('/posts/random', alice)).body).toEqual({ service: 'fanbox', artist_id: '200', post_id: '4' });
      expect((await get('/artists/random', alice)).body).toEqual({ service: 'fanbox', artist_id: '200' });
    }
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) seen.add((await get('/artists/random', bob)).body.artist_id);
    expect(seen.has('100')).toBe(true);
  });
});
