import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { getArchiveRecord } from '@api/data/archive-files.ts';
import { registerFile } from '@api/data/files.ts';
import { storeFile } from '@api/media/store.ts';
import { dataPaths } from '@api/config.ts';
import {
  FIXTURE_PASSWORD,
  SAMPLE_ENTRIES,
  encryptedZip,
  headerEncrypted7z,
  manyEntriesZip,
  storedRar,
  yazlZip,
  zipBomb,
  zipSlip,
} from '../../helpers/archive-fixtures.ts';
import { httpRequest } from '../../helpers/http.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { upsertDiscordChannel, upsertDiscordMessages } from '@api/data/discord.ts';
import { readConfig } from '@api/config.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

const IMAGE = 'a'.repeat(64);
const ORPHAN = 'b'.repeat(64);
const UNKNOWN = 'c'.repeat(64);

let t: TempDb;
let app: ReturnType<typeof createApp>;
const archives: Record<string, string> = {};
const NAMES = SAMPLE_ENTRIES.map((entry) => entry.name).sort();

/** Stores bytes in the test's DATA_DIR and registers the file, as an import would. */
async function addFile(name: string, data: Buffer, ext: string): Promise<string> {
  const stored = await storeFile(dataPaths(t.dir).files, data, ext);
  await registerFile(t.db, { hash: stored.sha256, size: stored.size, ext });
  archives[name] = stored.sha256;
  return stored.sha256;
}

beforeAll(async () => {
  t = tempDb();
  await addFile('plain', await yazlZip(), 'zip');
  await addFile('locked', await encryptedZip(), 'zip');
  await addFile('lockedV1', await encryptedZip(FIXTURE_PASSWORD, [...SAMPLE_ENTRIES, { name: 'v1.txt', data: Buffer.from('v1') }]), 'zip');
  await addFile('headers', await headerEncrypted7z(), '7z');
  await addFile('rar', storedRar(), 'rar');
  await addFile('bomb', zipBomb(), 'zip');
  await addFile('slip', zipSlip(), 'zip');
  await addFile('many', manyEntriesZip(100_000), 'zip');
  await addFile('text', Buffer.from('not an archive at all\n'), 'zip');
  await addFile('image', Buffer.from('a png, supposedly'), 'png');
  await addFile('gone', await yazlZip([{ name: 'x.txt', data: Buffer.from('x') }]), 'zip');
  const gone = archives.gone;
  fs.rmSync(path.join(dataPaths(t.dir).files, gone.slice(0, 2), gone.slice(2, 4), `${gone}.zip`));
  app = createApp({ db: t.db, config: { ...readConfig({}), dataDir: t.dir } });
  await registerFile(t.db, { hash: IMAGE, size: 1234, ext: 'png', added: '2024-01-02T03:04:05' });
  await registerFile(t.db, { hash: ORPHAN, size: 10, ext: 'txt', added: '2024-01-02T03:04:05' });
  await upsertCreator(t.db, { service: 'patreon', id: '100', name: 'Painter' });
  await upsertPost(t.db, {
    service: 'patreon',
    user: '100',
    id: '1',
    title: 'With the image',
    file: { name: 'art.png', path: `/aa/aa/${IMAGE}.png` },
  });
  await upsertPost(t.db, {
    service: 'patreon',
    user: '100',
    id: '2',
    title: 'Attached too',
    attachments: [{ name: 'art.png', path: `/aa/aa/${IMAGE}.png` }],
  });
  await upsertCreator(t.db, { service: 'discord', id: '900', name: 'Server X' });
  await upsertDiscordChannel(t.db, { id: '901', server_id: '900', name: 'channel-y' });
  await upsertDiscordMessages(t.db, [
    {
      id: '9001',
      server_id: '900',
      channel_id: '901',
      author: { id: '1', username: 'someone' } as never,
      published: '2024-01-01T00:00:00',
      attachments: [{ name: 'art.png', path: `/aa/aa/${IMAGE}.png` }],
    },
  ]);
}, 60_000);
afterAll(() => t.cleanup());

describe('GET /api/v1/search_hash/{hash}', () => {
  it('answers the file record with the posts and Discord messages carrying it', async () => {
    const res = await request(app).get(`/api/v1/search_hash/${IMAGE.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ hash: IMAGE, ext: '.png', size: 1234, mime: 'image/png', added: '2024-01-02T03:04:05' });
    expect(typeof res.body.id).toBe('number');
    expect(res.body.posts.map((p: { id: string }) => p.id).sort()).toEqual(['1', '2']);
    expect(res.body.discord_posts).toHaveLength(1);
    expect(res.body.discord_posts[0]).toMatchObject({
      id: '9001',
      server: '900',
      server_name: 'Server X',
      channel: '901',
      channel_name: 'channel-y',
    });
  });

  it('answers a known file that no post carries with empty lists', async () => {
    const res = await request(app).get(`/api/v1/search_hash/${ORPHAN}`);
    expect(res.status).toBe(200);
    expect(res.body.posts).toEqual([]);
    expect(res.body.discord_posts).toEqual([]);
  });

  it('answers 404 for an unknown hash and 400 "Invalid hash!" for a malformed one', async () => {
    const missing = await request(app).get(`/api/v1/search_hash/${UNKNOWN}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'File not found.' });
    for (const bad of ['abc', `${IMAGE}0`, 'z'.repeat(64), '%20']) {
      const res = await request(app).get(`/api/v1/search_hash/${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid hash!' });
    }
  });
});

describe('GET /api/v1/file/{hash} and /api/v2/file/{hash}', () => {
  it('lists an archive attachment on first request and stores the result', async () => {
    expect(await getArchiveRecord(t.db, archives.plain)).toBeUndefined();
    const res = await request(app).get(`/api/v1/file/${archives.plain}`);
    expect(res.status).toBe(200);
    expect(res.body.file).toMatchObject({ hash: archives.plain, ext: '.zip' });
    expect(res.body.file_list.sort()).toEqual(NAMES);
    expect('password' in res.body).toBe(false);
    expect((await getArchiveRecord(t.db, archives.plain))?.info.file_list.sort()).toEqual(NAMES);
  });

  it('wraps the same answer in the v2 envelope', async () => {
    const res = await request(app).get(`/api/v2/file/${archives.rar}`);
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('api_response');
    expect(res.body.data.file.hash).toBe(archives.rar);
    expect(res.body.data.file_list.sort()).toEqual(NAMES);
  });

  it("answers password '' when one is needed and unknown", async () => {
    const zip = await request(app).get(`/api/v1/file/${archives.locked}`);
    expect(zip.body.password).toBe('');
    expect(zip.body.file_list.sort()).toEqual(NAMES);
    const sevenZip = await request(app).get(`/api/v1/file/${archives.headers}`);
    expect(sevenZip.body).toMatchObject({ file_list: [], password: '' });
  });

  it('answers unsafe names as names, and the first 10,000 of a huge list with a flag', async () => {
    const slip = await request(app).get(`/api/v1/file/${archives.slip}`);
    expect(slip.body.file_list).toContain('../../evil.txt');
    expect(slip.body.file_list).toContain('/etc/evil.txt');
    const many = await request(app).get(`/api/v1/file/${archives.many}`);
    expect(many.status).toBe(200);
    expect(many.body.file_list).toHaveLength(10_000);
    expect(many.body.file_list_truncated).toBe(true);
  });

  it('answers 422 with the reason for archives it cannot list, and does not read them again', async () => {
    const bomb = await request(app).get(`/api/v1/file/${archives.bomb}`);
    expect(bomb.status).toBe(422);
    expect(bomb.body).toEqual({ error: 'This archive is too large to list.' });
    const text = await request(app).get(`/api/v2/file/${archives.text}`);
    expect(text.status).toBe(422);
    expect(text.body.error.message).toBe('This file could not be read as an archive.');
    expect((await getArchiveRecord(t.db, archives.text))?.status).toBe('unreadable');
  });

  it("answers 404 'Archive file not found.' for unknown hashes, non-archives and missing files", async () => {
    for (const hash of [UNKNOWN, archives.image, archives.gone]) {
      const res = await request(app).get(`/api/v1/file/${hash}`);
      expect(res.status, hash).toBe(404);
      expect(res.body).toEqual({ error: 'Archive file not found.' });
    }
    const v2 = await request(app).get(`/api/v2/file/${UNKNOWN}`);
    expect(v2.status).toBe(404);
    expect(v2.body.error.message).toBe('Archive file not found.');
  });

  it("answers 400 'File hash is required.' without a hash and 'Invalid hash!' for a malformed one", async () => {
    for (const url of ['/api/v1/file', '/api/v1/file/', '/api/v1/file/%20', '/api/v2/file/']) {
      const res = await request(app).get(url);
      expect(res.status, url).toBe(400);
      expect(res.text, url).toContain('File hash is required.');
    }
    const bad = await request(app).get('/api/v1/file/not-a-hash');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Invalid hash!' });
  });
});

describe('PATCH /api/v2/file/{hash}', () => {
  const patch = (hash: string, body: unknown) =>
    request(app).patch(`/api/v2/file/${hash}`).set('Content-Type', 'application/json').send(JSON.stringify(body));

  it("answers 'Please enter a password.' for an empty password", async () => {
    for (const body of [
      { type: 'x', data: { password: '' } },
      { type: 'x', data: {} },
    ]) {
      const res = await patch(archives.locked, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Please enter a password.');
    }
  });

  it("answers 'Invalid password.' for a wrong one and stores nothing", async () => {
    const res = await patch(archives.locked, { type: 'x', data: { password: 'guess' } });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe('Invalid password.');
    expect((await getArchiveRecord(t.db, archives.locked))?.info.password).toBe('');
  });

  it('stores a correct password and answers the archive with it', async () => {
    const res = await patch(archives.locked, { type: 'x', data: { password: FIXTURE_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.data.password).toBe(FIXTURE_PASSWORD);
    const again = await request(app).get(`/api/v1/file/${archives.locked}`);
    expect(again.body.password).toBe(FIXTURE_PASSWORD);
    // Once known, another password is wrong without reading the archive again.
    const other = await patch(archives.locked, { type: 'x', data: { password: 'another' } });
    expect(other.status).toBe(422);
  });

  it('opens the list of a 7z with encrypted headers', async () => {
    const wrong = await patch(archives.headers, { type: 'x', data: { password: 'nope' } });
    expect(wrong.status).toBe(422);
    const right = await patch(archives.headers, { type: 'x', data: { password: FIXTURE_PASSWORD } });
    expect(right.status).toBe(200);
    expect(right.body.data.file_list.sort()).toEqual(NAMES);
    const stored = await request(app).get(`/api/v1/file/${archives.headers}`);
    expect(stored.body).toMatchObject({ password: FIXTURE_PASSWORD });
    expect(stored.body.file_list.sort()).toEqual(NAMES);
  });

  it('answers 404 for unknown archives and 400 for bad hashes', async () => {
    expect((await patch(UNKNOWN, { type: 'x', data: { password: 'x' } })).status).toBe(404);
    const bad = await patch('xyz', { type: 'x', data: { password: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Invalid hash!');
  });
});

// kemono's site tests a password with a v1 PATCH whose body is a JSON array holding it.
describe('PATCH /api/v1/file/{hash}', () => {
  const patch = (hash: string, body: string, type = 'application/json') =>
    request(app).patch(`/api/v1/file/${hash}`).set('Content-Type', type).send(body);

  it("answers 'Please enter a password.' for an empty or missing password, in the v1 error shape", async () => {
    for (const body of ['[""]', '[]', '{}', '{"password": ""}']) {
      const res = await patch(archives.lockedV1, body);
      expect(res.status, body).toBe(400);
      expect(res.body, body).toEqual({ error: 'Please enter a password.' });
    }
    const none = await request(app).patch(`/api/v1/file/${archives.lockedV1}`);
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'Please enter a password.' });
  });

  it("answers 'Invalid password.' (422) for a wrong one and stores nothing", async () => {
    const res = await patch(archives.lockedV1, '["guess"]');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'Invalid password.' });
    expect((await getArchiveRecord(t.db, archives.lockedV1))?.info.password).toBe('');
  });

  it('stores a correct password and answers the archive, unwrapped, as the v2 call does', async () => {
    const res = await patch(archives.lockedV1, JSON.stringify([FIXTURE_PASSWORD]));
    expect(res.status).toBe(200);
    expect(res.body.password).toBe(FIXTURE_PASSWORD);
    expect(res.body.file_list).toContain('v1.txt');
    expect(res.body.file).toMatchObject({ hash: archives.lockedV1, ext: '.zip' });
    expect((await request(app).get(`/api/v2/file/${archives.lockedV1}`)).body.data.password).toBe(FIXTURE_PASSWORD);
    // Once known, another password is wrong, on either version.
    expect((await patch(archives.lockedV1, '["another"]')).status).toBe(422);
    // {password} (the v2 data) is taken too.
    expect((await patch(archives.lockedV1, JSON.stringify({ password: FIXTURE_PASSWORD }))).status).toBe(200);
  });

  it('answers 404 for unknown archives and 400 for bad hashes', async () => {
    const unknown = await patch(UNKNOWN, '["x"]');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Archive file not found.' });
    const bad = await patch('xyz', '["x"]');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Invalid hash!' });
  });
});

describe('a slow listing', () => {
  it('does not hold up other requests', async () => {
    const big = await addFile('bigger', manyEntriesZip(150_000), 'zip');
    const server = app.listen(0);
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const order: string[] = [];
      const slow = httpRequest(`${base}/api/v1/file/${big}`).then((res) => {
        order.push('slow');
        return res;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const quick = await httpRequest(`${base}/api/v1/search_hash/${IMAGE}`);
      order.push('quick');
      expect(quick.status).toBe(200);
      expect((await slow).status).toBe(200);
      expect(order).toEqual(['quick', 'slow']);
    } finally {
      server.close();
    }
  });
});
