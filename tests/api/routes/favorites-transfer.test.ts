/**
 * Export and import of favourites against a real migrated database: GET /api/v1/account/favorites/export
 * (JSON envelope and CSV), POST /api/v1/account/favorites/import (our envelope, each kemono answer on
 * its own, CSV, idempotence, unknown items, size and count limits, malformed files), and registration
 * carrying a guest's favourite posts as well as creators (POST /api/v1/authentication/register).
 */
import request from 'supertest';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { addFavoriteCreator, addFavoritePost } from '@api/data/favorites.ts';
import { readConfig } from '@api/config.ts';
import {
  FAVORITES_CSV_COLUMNS,
  FAVORITES_IMPORT_MAX_BYTES,
  FAVORITES_IMPORT_MAX_ITEMS,
  FAVORITES_TRANSFER_MESSAGES,
} from '@shared/favorites-transfer.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let app: ReturnType<typeof createApp>;

const EXPORT = '/api/v1/account/favorites/export';
const IMPORT = '/api/v1/account/favorites/import';
const importFile = (session: TestSession | undefined, text: unknown) => {
  const call = request(app).post(IMPORT);
  return (session ? call.set('Cookie', session.cookie) : call).send({ text });
};
const favoriteKeys = (session: TestSession) => ({
  artists: (
    t.db
      .prepare('SELECT service, creator_id FROM favorite_creators WHERE account_id = ? ORDER BY faved_seq DESC')
      .all(session.account.id) as { service: string; creator_id: string }[]
  ).map((row) => `${row.service}:${row.creator_id}`),
  posts: (
    t.db
      .prepare('SELECT service, "user", post_id FROM favorite_posts WHERE account_id = ? ORDER BY faved_seq DESC')
      .all(session.account.id) as { service: string; user: string; post_id: string }[]
  ).map((row) => `${row.service}:${row.user}:${row.post_id}`),
});

beforeAll(async () => {
  t = tempDb();
  app = createApp({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
  await upsertCreator(t.db, { service: 'patreon', id: '100', name: 'Alice, "the" Artist', updated: 1_700_000_000 });
  await upsertCreator(t.db, { service: 'fanbox', id: '200', name: 'Bob Draws', updated: 1_600_000_000 });
  await upsertPost(t.db, { service: 'patreon', user: '100', id: '1', title: 'First', published: '2024-01-02T03:04:05' });
  await upsertPost(t.db, { service: 'patreon', user: '100', id: '2', title: 'Second', published: '2024-02-02T03:04:05' });
});

afterAll(() => t.cleanup());

describe('GET /api/v1/account/favorites/export', () => {
  it('answers 401 for guests', async () => {
    expect((await request(app).get(EXPORT)).status).toBe(401);
  });

  it('answers both kemono lists in one JSON file, each item with faved_at, as an attachment', async () => {
    const carol = await signIn(t.db);
    await addFavoriteCreator(t.db, carol.account.id, 'fanbox', '200', '2024-03-01T00:00:00');
    await addFavoriteCreator(t.db, carol.account.id, 'patreon', '100', '2024-03-02T00:00:00');
    await addFavoritePost(t.db, carol.account.id, 'patreon', '100', '2', '2024-03-03T00:00:00');
    const res = await request(app).get(EXPORT).set('Cookie', carol.cookie);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="?trove-favorites-\d{4}-\d\d-\d\d\.json"?$/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const list = await request(app).get('/api/v1/account/favorites?type=artist').set('Cookie', carol.cookie);
    const posts = await request(app).get('/api/v1/account/favorites?type=post').set('Cookie', carol.cookie);
    expect(res.body.artists.map(({ faved_at: _at, ...rest }: { faved_at: string }) => rest)).toEqual(list.body);
    expect(res.body.posts.map(({ faved_at: _at, ...rest }: { faved_at: string }) => rest)).toEqual(posts.body);
    expect(res.body.artists.map((c: { id: string; faved_at: string }) => [c.id, c.faved_at])).toEqual([
      ['100', '2024-03-02T00:00:00'],
      ['200', '2024-03-01T00:00:00'],
    ]);
  });

  it('writes CSV with one row per favourite, quoting names, and the CSV imports back into another account', async () => {
    const dave = await signIn(t.db);
    await addFavoriteCreator(t.db, dave.account.id, 'patreon', '100', '2024-04-01T00:00:00');
    await addFavoritePost(t.db, dave.account.id, 'patreon', '100', '1', '2024-04-02T00:00:00');
    const res = await request(app).get(`${EXPORT}?format=csv`).set('Cookie', dave.cookie);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/trove-favorites-\d{4}-\d\d-\d\d\.csv/);
    expect(parse(res.text)).toEqual([
      [...FAVORITES_CSV_COLUMNS],
      ['artist', 'patreon', '100', '', 'Alice, "the" Artist', '2024-04-01T00:00:00'],
      ['post', 'patreon', '100', '1', 'First', '2024-04-02T00:00:00'],
    ]);
    const erin = await signIn(t.db);
    const imported = await importFile(erin, res.text);
    expect(imported.body).toEqual({ added: { artists: 1, posts: 1 }, unchanged: 0, not_found: [], skipped: 0 });
    const dates = t.db.prepare('SELECT created_at FROM favorite_posts WHERE account_id = ?').get(erin.account.id);
    expect(dates).toEqual({ created_at: '2024-04-02T00:00:00' });
  });

  it('refuses an unknown format with a clear 400', async () => {
    const frank = await signIn(t.db);
    const res = await request(app).get(`${EXPORT}?format=xml`).set('Cookie', frank.cookie);
    expect(res.status).toBe(400);
    expect(String(res.body.error)).toContain('Invalid export format');
  });
});

describe('POST /api/v1/account/favorites/import', () => {
  it('answers 401 for guests and adds nothing', async () => {
    const res = await importFile(undefined, '[{"service":"patreon","id":"100"}]');
    expect(res.status).toBe(401);
  });

  it('imports a bare kemono creator list, keeps its order, reports unknown creators, and adds nothing the second time', async () => {
    const gina = await signIn(t.db);
    // kemono answers newest favourite first.
    const kemono = JSON.stringify([
      { id: '100', name: 'Alice', service: 'patreon', faved_seq: 9, indexed: 'x', updated: 'y' },
      { id: '404', name: 'Nobody', service: 'patreon', faved_seq: 8 },
      { id: '200', name: 'Bob', service: 'fanbox', faved_seq: 7 },
      { id: '1', service: 'nowhere' },
    ]);
    const first = await importFile(gina, kemono);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ added: { artists: 2, posts: 0 }, unchanged: 0, not_found: ['patreon:404'], skipped: 1 });
    expect(favoriteKeys(gina).artists).toEqual(['patreon:100', 'fanbox:200']);
    const second = await importFile(gina, kemono);
    expect(second.body).toEqual({ added: { artists: 0, posts: 0 }, unchanged: 2, not_found: ['patreon:404'], skipped: 1 });
    expect(favoriteKeys(gina).artists).toEqual(['patreon:100', 'fanbox:200']);
  });

  it('imports a bare kemono post list (items with user)', async () => {
    const hal = await signIn(t.db);
    const posts = [
      { id: '2', user: '100', service: 'patreon', title: 'Second', faved_seq: 5 },
      { id: '1', user: '100', service: 'patreon', title: 'First', faved_seq: 4 },
      { id: '9', user: '100', service: 'patreon', title: 'Gone' },
    ];
    const res = await importFile(hal, JSON.stringify(posts));
    expect(res.body).toEqual({ added: { artists: 0, posts: 2 }, unchanged: 0, not_found: ['patreon:100:9'], skipped: 0 });
    expect(favoriteKeys(hal).posts).toEqual(['patreon:100:2', 'patreon:100:1']);
  });

  it('imports our envelope of both lists', async () => {
    const ivy = await signIn(t.db);
    const envelope = { artists: [{ service: 'fanbox', id: '200', name: 'Bob' }], posts: [{ service: 'patreon', user: '100', id: '1' }] };
    const res = await importFile(ivy, JSON.stringify(envelope));
    expect(res.body).toEqual({ added: { artists: 1, posts: 1 }, unchanged: 0, not_found: [], skipped: 0 });
    expect(favoriteKeys(ivy)).toEqual({ artists: ['fanbox:200'], posts: ['patreon:100:1'] });
  });

  it('answers malformed, empty and foreign files with a clear 400', async () => {
    const jay = await signIn(t.db);
    const cases: [unknown, string][] = [
      ['{"artists": [', FAVORITES_TRANSFER_MESSAGES.badJson],
      ['{"name": "not favourites"}', FAVORITES_TRANSFER_MESSAGES.shape],
      ['{"artists": 5}', FAVORITES_TRANSFER_MESSAGES.shape],
      ['42', FAVORITES_TRANSFER_MESSAGES.csvHeader],
      ['[]', FAVORITES_TRANSFER_MESSAGES.empty],
      ['   ', FAVORITES_TRANSFER_MESSAGES.empty],
      ['type,service,creator_id\n"post,patreon', FAVORITES_TRANSFER_MESSAGES.badCsv],
      ['name,age\nx,1', FAVORITES_TRANSFER_MESSAGES.csvHeader],
      [undefined, 'The file is required.'],
      [{ not: 'text' }, 'The file is required.'],
    ];
    for (const [text, message] of cases) {
      const res = await importFile(jay, text);
      expect(res.status, String(text)).toBe(400);
      expect(String(res.body.error), String(text)).toContain(message);
    }
    expect(favoriteKeys(jay)).toEqual({ artists: [], posts: [] });
  });

  it('refuses more than the item limit and files over the size limit', async () => {
    const kim = await signIn(t.db);
    const many = Array.from({ length: FAVORITES_IMPORT_MAX_ITEMS + 1 }, (_, i) => ({ service: 'patreon', id: `c${i}` }));
    const tooMany = await importFile(kim, JSON.stringify(many));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe(FAVORITES_TRANSFER_MESSAGES.tooMany);
    const padded = `[{"service":"patreon","id":"100","pad":"${'x'.repeat(FAVORITES_IMPORT_MAX_BYTES)}"}]`;
    const tooLarge = await importFile(kim, padded);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error).toBe(FAVORITES_TRANSFER_MESSAGES.tooLarge);
    expect(favoriteKeys(kim)).toEqual({ artists: [], posts: [] });
  });
});

describe('POST /api/v1/authentication/register with device favourites', () => {
  it('adds the guest favourite creators and posts ({service, user, id}), skipping unknown ones', async () => {
    const favorites = [
      { service: 'patreon', id: '100', faved_at: '2024-05-01T00:00:00' },
      { service: 'patreon', user: '100', id: '2', faved_at: '2024-05-02T00:00:00' },
      { service: 'patreon', user: '100', id: 'missing' },
      { service: 'fanbox', id: '200' },
    ];
    const res = await request(app)
      .post('/api/v1/authentication/register')
      .send({ username: 'deviceguest', password: 'secret5', confirm_password: 'secret5', favorites_json: JSON.stringify(favorites) });
    expect(res.status).toBe(200);
    const session = { account: { id: res.body.id } } as TestSession;
    expect(favoriteKeys(session)).toEqual({ artists: ['fanbox:200', 'patreon:100'], posts: ['patreon:100:2'] });
    const dated = t.db.prepare('SELECT created_at FROM favorite_posts WHERE account_id = ?').get(res.body.id);
    expect(dated).toEqual({ created_at: '2024-05-02T00:00:00' });
  });
});
