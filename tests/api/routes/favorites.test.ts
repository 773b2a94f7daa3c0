/**
 * Favourites API against a real migrated database: list shapes, idempotent add and remove (200, as
 * kemono 1.3.0), 404s, each account seeing and changing only its own favourites, and the change log
 * row that re-renders /artists. Flags are in flags.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { lastChangeId, readChangesSince } from '@api/data/changes.ts';
import { listAllCreators, upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { affectedByChanges } from '@api/pages/affected.ts';
import { readConfig } from '@api/config.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { v1Calls } from '../../helpers/api-calls.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let app: ReturnType<typeof createApp>;
let alice: TestSession;
let bob: TestSession;

const { get, post, del } = v1Calls(() => app);
const count = (sql: string, ...args: unknown[]) => (t.db.prepare(sql).get(...args) as { n: number }).n;

beforeAll(async () => {
  t = tempDb();
  app = createApp({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
  await upsertCreator(t.db, {
    service: 'patreon',
    id: '100',
    name: 'Alice Art',
    public_id: 'aliceart',
    updated: 1_700_000_000,
    last_imported: 1_700_100_000,
  });
  await upsertCreator(t.db, { service: 'fanbox', id: '200', name: 'Bob Draws', updated: 1_600_000_000 });
  await upsertPost(t.db, {
    service: 'patreon',
    user: '100',
    id: '1',
    title: 'First',
    content: '<p>Hello there</p>',
    published: '2024-01-02T03:04:05',
    tags: ['a'],
  });
  await upsertPost(t.db, { service: 'patreon', user: '100', id: '2', title: 'Second', published: '2024-02-02T03:04:05' });
  alice = await signIn(t.db);
  bob = await signIn(t.db);
});

afterAll(() => t.cleanup());

describe('favourite creators', () => {
  it('answers 401 with the spec message for guests, and changes nothing', async () => {
    for (const call of [get('/account/favorites'), post('/favorites/creator/patreon/100'), del('/favorites/creator/patreon/100')]) {
      const answer = await call;
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: 'You must be registered to access this page.' });
    }
    expect(count('SELECT count(*) AS n FROM favorite_creators')).toBe(0);
  });

  it('adds idempotently and lists the kemono shape', async () => {
    // kemono 1.3.0 documents 200 for adding and removing a favourite (we answered 204 before).
    const added = await post('/favorites/creator/patreon/100', alice);
    expect(added.status).toBe(200);
    expect(added.body).toBe(true);
    expect((await post('/favorites/creator/patreon/100', alice)).status).toBe(200);
    const list = await get('/account/favorites?type=artist', alice);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(Object.keys(list.body[0]).sort()).toEqual(
      ['faved_seq', 'id', 'indexed', 'last_imported', 'name', 'public_id', 'relation_id', 'service', 'updated'].sort(),
    );
    expect(list.body[0]).toMatchObject({
      id: '100',
      service: 'patreon',
      name: 'Alice Art',
      public_id: 'aliceart',
      updated: '2023-11-14T22:13:20',
      last_imported: '2023-11-16T02:00:00',
    });
    // type defaults to artist, as kemono
    expect((await get('/account/favorites', alice)).body).toEqual(list.body);
  });

  it('counts the favourite in creators.txt and logs one change that re-renders only /artists', async () => {
    const before = await lastChangeId(t.db);
    expect((await post('/favorites/creator/fanbox/200', alice)).status).toBe(200);
    expect((await post('/favorites/creator/fanbox/200', bob)).status).toBe(200);
    // A repeat changes no count: no row.
    expect((await post('/favorites/creator/fanbox/200', bob)).status).toBe(200);
    const changes = await readChangesSince(t.db, before);
    expect(changes.map((c) => [c.kind, c.service, c.creator_id])).toEqual([
      ['favorite', 'fanbox', '200'],
      ['favorite', 'fanbox', '200'],
    ]);
    expect((await listAllCreators(t.db)).find((c) => c.id === '200')?.favorited).toBe(2);
    const affected = await affectedByChanges(t.db, changes);
    expect([...affected.render]).toEqual(['/artists']);
  });

  it("keeps each account's favourites apart", async () => {
    const bobs = await get('/account/favorites?type=artist', bob);
    expect(bobs.body.map((c: { id: string }) => c.id)).toEqual(['200']);
    // Bob removing Alice's favourite creator only touches his own row.
    expect((await del('/favorites/creator/patreon/100', bob)).status).toBe(200);
    const alices = await get('/account/favorites?type=artist', alice);
    expect(alices.body.map((c: { id: string }) => c.id).sort()).toEqual(['100', '200']);
  });

  it('removes idempotently', async () => {
    expect((await del('/favorites/creator/patreon/100', alice)).status).toBe(200);
    expect((await del('/favorites/creator/patreon/100', alice)).status).toBe(200);
    expect((await get('/account/favorites', alice)).body.map((c: { id: string }) => c.id)).toEqual(['200']);
  });

  it('answers 404 for an unknown creator and 400 for an unknown paysite', async () => {
    const unknown = await post('/favorites/creator/patreon/999', alice);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Creator not found.' });
    expect((await del('/favorites/creator/patreon/999', alice)).status).toBe(404);
    const badService = await post('/favorites/creator/nowhere/100', alice);
    expect(badService.status).toBe(400);
    expect(badService.body).toEqual({ error: '"nowhere" is not a valid paysite.' });
  });

  it('refuses an unknown type with a clear message', async () => {
    const answer = await get('/account/favorites?type=creators', alice);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'Invalid favorites type: expected "artist", "creator" or "post".' });
  });

  it('reads type=creator as the creator list, as kemono documents it', async () => {
    const artists = await get('/account/favorites?type=artist', alice);
    const creators = await get('/account/favorites?type=creator', alice);
    expect(creators.status).toBe(200);
    expect(creators.body).toEqual(artists.body);
    expect((creators.body as unknown[]).length).toBeGreaterThan(0);
  });
});

describe('favourite posts', () => {
  it('adds, lists post summaries with faved_seq, and removes', async () => {
    expect((await post('/favorites/post/patreon/100/1', alice)).status).toBe(200);
    expect((await post('/favorites/post/patreon/100/2', alice)).status).toBe(200);
    expect((await post('/favorites/post/patreon/100/2', alice)).status).toBe(200);
    const list = await get('/account/favorites?type=post', alice);
    expect(list.status).toBe(200);
    expect(list.body.map((p: { id: string }) => p.id)).toEqual(['2', '1']);
    const first = list.body.find((p: { id: string }) => p.id === '1');
    expect(first).toMatchObject({
      id: '1',
      user: '100',
      service: 'patreon',
      title: 'First',
      published: '2024-01-02T03:04:05',
      tags: ['a'],
    });
    expect(first.substring).toContain('Hello there');
    expect(list.body[0].faved_seq).toBeGreaterThan(first.faved_seq);
    expect((await get('/account/favorites?type=post', bob)).body).toEqual([]);
    expect((await del('/favorites/post/patreon/100/2', bob)).status).toBe(200);
    expect((await get('/account/favorites?type=post', alice)).body).toHaveLength(2);
    expect((await del('/favorites/post/patreon/100/2', alice)).status).toBe(200);
    expect((await get('/account/favorites?type=post', alice)).body.map((p: { id: string }) => p.id)).toEqual(['1']);
  });

  it('logs no change (no stored page shows post favourites)', async () => {
    const before = await lastChangeId(t.db);
    await post('/favorites/post/patreon/100/2', bob);
    expect(await readChangesSince(t.db, before)).toEqual([]);
  });

  it('answers 404 for an unknown post', async () => {
    const answer = await post('/favorites/post/patreon/100/404', alice);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: 'Post not found.' });
    expect((await post('/favorites/post/patreon/200/1', alice)).status).toBe(404);
  });
});
