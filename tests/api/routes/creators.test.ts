import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { upsertAnnouncement } from '@api/data/announcements.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertFancard } from '@api/data/fancards.ts';
import { registerFile } from '@api/data/files.ts';
import { upsertPost } from '@api/data/posts.ts';
import { readConfig } from '@api/config.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';
import { httpRequest } from '../../helpers/http.ts';

let temp: TempDb;
let app: ReturnType<typeof createApp>;
const UPDATED = Date.UTC(2024, 5, 4, 23, 53, 36) / 1000;
const HASH = 'ab'.repeat(32);

beforeAll(async () => {
  temp = tempDb();
  const { db } = temp;
  await upsertCreator(db, { service: 'fanbox', id: '100', name: 'Alice', indexed: UPDATED - 100, updated: UPDATED, relation_id: 7 });
  await upsertCreator(db, { service: 'patreon', id: '200', name: 'Alice P', indexed: UPDATED, updated: UPDATED, relation_id: 7 });
  await upsertCreator(db, { service: 'gumroad', id: 'bob', name: 'Bob', indexed: UPDATED, updated: UPDATED, public_id: 'bobby' });
  await upsertPost(db, { service: 'fanbox', user: '100', id: '1', title: 'One', tags: ['cats', 'dogs'], published: '2024-01-01T00:00:00' });
  await upsertPost(db, { service: 'fanbox', user: '100', id: '2', title: 'Two', tags: ['cats'], published: '2024-01-02T00:00:00' });
  await upsertAnnouncement(db, { service: 'fanbox', user_id: '100', hash: 'a1', content: '<p>News</p>', published: '2024-02-01T00:00:00' });
  const file = await registerFile(db, { hash: HASH, size: 10, ext: '.png' });
  await upsertFancard(db, { user_id: '100', file_id: file.id, price: '500', added: '2024-03-01T00:00:00' });
  app = createApp({ db, config: readConfig({ DATA_DIR: temp.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
});

afterAll(() => temp.cleanup());

describe('GET /api/v1/creators.txt and /creators', () => {
  it('answers every creator with epoch dates and exactly the documented keys', async () => {
    const answer = await request(app).get('/api/v1/creators.txt').set('Accept', 'text/css');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/application\/json/);
    expect(answer.body).toHaveLength(3);
    const alice = answer.body.find((c: { id: string }) => c.id === '100');
    expect(Object.keys(alice).sort()).toEqual(
      ['favorited', 'has_chats', 'id', 'indexed', 'name', 'public_id', 'relation_id', 'service', 'updated'].sort(),
    );
    expect(alice.updated).toBe(UPDATED);
    expect((await request(app).get('/api/v1/creators')).body).toEqual(answer.body);
  });

  it('carries an ETag, answers 304 on If-None-Match, and gzips when asked', async () => {
    const first = await request(app).get('/api/v1/creators.txt').set('Accept-Encoding', 'gzip');
    expect(first.headers['content-encoding']).toBe('gzip');
    const etag = first.headers.etag;
    expect(etag).toMatch(/^".+"$/);
    const again = await request(app).get('/api/v1/creators.txt').set('If-None-Match', etag);
    expect(again.status).toBe(304);
    // Raw bytes from a real socket: supertest would decode the gzip itself.
    const server = app.listen(0);
    try {
      const port = (server.address() as AddressInfo).port;
      const raw = await httpRequest(`http://127.0.0.1:${port}/api/v1/creators.txt`, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(JSON.parse(zlib.gunzipSync(raw.body).toString())).toHaveLength(3);
    } finally {
      server.close();
    }
  });

  it('is refreshed when the archive changes', async () => {
    const before = (await request(app).get('/api/v1/creators.txt')).headers.etag;
    await upsertCreator(temp.db, { service: 'boosty', id: 'new', name: 'Newcomer' });
    const after = await request(app).get('/api/v1/creators.txt').set('If-None-Match', before);
    expect(after.status).toBe(200);
    expect(after.body.map((c: { id: string }) => c.id)).toContain('new');
  });
});

describe('GET /api/v1/{service}/user/{id}/profile', () => {
  it('answers exactly the profile keys with ISO dates and counts', async () => {
    const answer = await request(app).get('/api/v1/fanbox/user/100/profile');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id: '100',
      name: 'Alice',
      service: 'fanbox',
      indexed: '2024-06-04T23:51:56',
      updated: '2024-06-04T23:53:36',
      public_id: null,
      relation_id: 7,
      post_count: 2,
      dm_count: 0,
      share_count: 0,
      chat_count: 0,
      has_chats: false,
    });
    expect(answer.headers['last-modified']).toBe('Tue, 04 Jun 2024 23:53:36 GMT');
  });

  it('answers 304 when If-Modified-Since is not older than the creator', async () => {
    const url = '/api/v1/fanbox/user/100/profile';
    expect((await request(app).get(url).set('If-Modified-Since', 'Tue, 04 Jun 2024 23:53:36 GMT')).status).toBe(304);
    expect((await request(app).get(url).set('If-Modified-Since', 'Tue, 04 Jun 2024 23:53:35 GMT')).status).toBe(200);
    // One year back, as the site's own pages send it.
    expect((await request(app).get(url).set('If-Modified-Since', 'Sun, 04 Jun 2023 00:00:00 GMT')).status).toBe(200);
    expect((await request(app).get(url).set('If-Modified-Since', 'garbage')).status).toBe(200);
  });

  it('gives the spec messages for unknown creators and services', async () => {
    expect((await request(app).get('/api/v1/fanbox/user/999/profile')).body).toEqual({ error: 'Creator not found.' });
    expect((await request(app).get('/api/v1/fanbox/user/999/profile')).status).toBe(404);
    const badService = await request(app).get('/api/v1/myspace/user/1/profile');
    expect(badService.status).toBe(400);
    expect(badService.body).toEqual({ error: '"myspace" is not a valid paysite.' });
  });
});

describe('creator tabs', () => {
  it('GET /artists/random names a creator', async () => {
    const answer = await request(app).get('/api/v1/artists/random');
    expect(answer.status).toBe(200);
    expect(['100', '200', 'bob', 'new']).toContain(answer.body.artist_id);
    expect(typeof answer.body.service).toBe('string');
  });

  it('GET /links lists the other profiles of the link group', async () => {
    const answer = await request(app).get('/api/v1/fanbox/user/100/links');
    expect(answer.body.map((c: { service: string; id: string }) => `${c.service}:${c.id}`)).toEqual(['patreon:200']);
    expect((await request(app).get('/api/v1/gumroad/user/bob/links')).body).toEqual([]);
    expect((await request(app).get('/api/v1/gumroad/user/nobody/links')).status).toBe(404);
  });

  it('GET /announcements answers the documented shape', async () => {
    const answer = await request(app).get('/api/v1/fanbox/user/100/announcements');
    expect(answer.body).toEqual([
      expect.objectContaining({ service: 'fanbox', user_id: '100', hash: 'a1', content: '<p>News</p>', published: '2024-02-01T00:00:00' }),
    ]);
  });

  it('GET /fancards is fanbox only and names the file server', async () => {
    const answer = await request(app).get('/api/v1/fanbox/user/100/fancards');
    expect(answer.status).toBe(200);
    expect(answer.body[0]).toMatchObject({ user_id: '100', hash: HASH, path: `/ab/ab/${HASH}.png`, price: '500', ext: '.png' });
    expect(answer.body[0].server).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Behind a TLS-terminating proxy (TRUST_PROXY=1) the server is the forwarded one.
    const proxied = createApp({
      db: temp.db,
      config: readConfig({ DATA_DIR: temp.dir, TROVE_ENV: 'test', TRUST_PROXY: '1' }),
      logger: { error() {} },
    });
    const forwarded = await request(proxied)
      .get('/api/v1/fanbox/user/100/fancards')
      .set('Host', 'archive.example.org')
      .set('X-Forwarded-Proto', 'https');
    expect(forwarded.body[0].server).toBe('https://archive.example.org');
    const patreon = await request(app).get('/api/v1/patreon/user/200/fancards');
    expect(patreon.status).toBe(400);
    expect(patreon.body).toEqual({ error: 'Service must be "fanbox".' });
  });

  it('GET /tags counts posts per tag', async () => {
    const answer = await request(app).get('/api/v1/fanbox/user/100/tags');
    expect(answer.body).toEqual(
      expect.arrayContaining([
        { tag: 'cats', post_count: 2 },
        { tag: 'dogs', post_count: 1 },
      ]),
    );
  });
});
