/**
 * Shares API against a real migrated database and a real files folder: the lists and their paging, one
 * share, a creator's uploads, and the multipart upload (signed in and out, limits, bad fields).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { readChangesSince, lastChangeId } from '@api/data/changes.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { registerFile } from '@api/data/files.ts';
import { createShare } from '@api/data/shares.ts';
import { defineRoutes } from '@api/http/route.ts';
import { storeFileSync } from '@api/media/store.ts';
import { uploadRoute } from '@api/routes/shares.ts';
import { readConfig } from '@api/config.ts';
import { SHARE_UPLOAD_LIMITS } from '@shared/constants.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

const SMALL = { maxFileBytes: 1000, maxFiles: 3, maxTotalBytes: 2500 };
/** The same upload handler with small limits, so limits are tested without gigabytes of traffic. */
const smallUploads = defineRoutes('test-uploads', [uploadRoute(SMALL, '/test/shares/upload')]);

let t: TempDb;
let app: ReturnType<typeof createApp>;
let filesDir: string;
let user: TestSession;
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** Every file under the files folder (the store and its .tmp), as paths relative to it. */
function filesOnDisk(): string[] {
  if (!fs.existsSync(filesDir)) return [];
  return (fs.readdirSync(filesDir, { recursive: true }) as string[])
    .filter((entry) => fs.statSync(path.join(filesDir, entry)).isFile())
    .sort();
}
const count = (table: string) => (t.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

beforeAll(async () => {
  t = tempDb();
  filesDir = path.join(t.dir, 'files');
  app = createApp({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }), routes: [smallUploads], logger: { error() {} } });
  await upsertCreator(t.db, { service: 'patreon', id: '100', name: 'Alice', public_id: 'alice' });
  await upsertCreator(t.db, { service: 'fanbox', id: '200', name: 'Bob' });
  user = await signIn(t.db);
  const stored = storeFileSync(filesDir, Buffer.from('seeded bytes'), '.txt');
  await registerFile(t.db, { hash: stored.sha256, size: stored.size, ext: '.txt' });
  // 55 shares, one a day; every third linked to Alice.
  for (let i = 1; i <= 55; i += 1) {
    await createShare(t.db, {
      name: `Share ${i}`,
      description: `About ${i}`,
      added: new Date(Date.UTC(2024, 0, i)).toISOString().slice(0, 19),
      files: [{ filename: `file-${i}.txt`, hash: stored.sha256 }],
      creators: i % 3 === 0 ? [{ service: 'patreon', creator_id: '100' }] : [],
    });
  }
});

afterAll(() => t.cleanup());

describe('GET /api/v1/shares', () => {
  it('lists 50 shares newest first with the count, then the rest', async () => {
    const first = await request(app).get('/api/v1/shares');
    expect(first.status).toBe(200);
    expect(first.body.props).toEqual({ currentPage: 'shares', count: 55, limit: 50 });
    expect(first.body.shares).toHaveLength(50);
    const added = first.body.shares.map((s: { added: string }) => s.added);
    expect([...added].sort().reverse()).toEqual(added);
    expect(Object.keys(first.body.shares[0]).sort()).toEqual(['added', 'description', 'id', 'name']);
    const second = await request(app).get('/api/v1/shares?o=50');
    expect(second.body.shares).toHaveLength(5);
    const ids = new Set([...first.body.shares, ...second.body.shares].map((s: { id: number }) => s.id));
    expect(ids.size).toBe(55);
  });

  it('answers an empty list past the end and the spec message for a bad offset', async () => {
    const past = await request(app).get('/api/v1/shares?o=500');
    expect(past.status).toBe(200);
    expect(past.body.shares).toEqual([]);
    const bad = await request(app).get('/api/v1/shares?o=25');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Offset 25 is not a multiple of 50.' });
  });
});

describe('GET /api/v1/share/{id}', () => {
  it('answers the share and its files with their store paths', async () => {
    const res = await request(app).get('/api/v1/share/1');
    expect(res.status).toBe(200);
    expect(res.body.share).toMatchObject({ id: 1, name: 'Share 1', description: 'About 1' });
    const hash = sha256('seeded bytes');
    expect(res.body.share_files).toEqual([
      { hash, ext: '.txt', filename: 'file-1.txt', upload_url: null, path: `/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}.txt` },
    ]);
  });

  it('is a 404 for unknown or malformed ids and a 400 for a blank one', async () => {
    for (const id of ['9999', 'abc', '0', '-1', '1.5']) {
      const res = await request(app).get(`/api/v1/share/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ error: 'Share not found.' });
    }
    const blank = await request(app).get('/api/v1/share/%20');
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ error: 'Share ID is required.' });
  });
});

describe('GET /api/v1/{service}/user/{id}/shares', () => {
  it("lists the creator's shares with share_count and the profile", async () => {
    const res = await request(app).get('/api/v1/patreon/user/100/shares');
    expect(res.status).toBe(200);
    expect(res.body.props).toMatchObject({
      currentPage: 'shares',
      id: '100',
      service: 'patreon',
      name: 'Alice',
      share_count: 18,
      limit: 50,
    });
    expect(res.body.props.artist).toMatchObject({ id: '100', share_count: 18 });
    expect(res.body.shares).toHaveLength(18);
    expect(res.body.shares.every((s: { name: string }) => Number(s.name.split(' ')[1]) % 3 === 0)).toBe(true);
    const byPublicId = await request(app).get('/api/v1/patreon/user/alice/shares');
    expect(byPublicId.body.props.id).toBe('100');
    const empty = await request(app).get('/api/v1/fanbox/user/200/shares');
    expect(empty.body.props.share_count).toBe(0);
    expect(empty.body.shares).toEqual([]);
  });

  it('is a 404 for an unknown creator and a 400 for an unknown service or bad offset', async () => {
    const unknown = await request(app).get('/api/v1/patreon/user/nobody/shares');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Creator not found.' });
    const service = await request(app).get('/api/v1/myspace/user/100/shares');
    expect(service.status).toBe(400);
    expect(service.body).toEqual({ error: '"myspace" is not a valid paysite.' });
    const offset = await request(app).get('/api/v1/patreon/user/100/shares?o=7');
    expect(offset.body).toEqual({ error: 'Offset 7 is not a multiple of 50.' });
  });
});

// What /posts/upload (and /account/posts/upload) shows, for clients: its form needs an account.
describe('GET /api/v1/account/posts/upload', () => {
  const url = '/api/v1/account/posts/upload';
  const limits = {
    max_file_bytes: SHARE_UPLOAD_LIMITS.maxFileBytes,
    max_files: SHARE_UPLOAD_LIMITS.maxFiles,
    max_total_bytes: SHARE_UPLOAD_LIMITS.maxTotalBytes,
    name_max: SHARE_UPLOAD_LIMITS.nameMax,
    description_max: SHARE_UPLOAD_LIMITS.descriptionMax,
  };

  it('tells guests to register', async () => {
    const guest = await request(app).get(url);
    expect(guest.status).toBe(401);
    expect(guest.body).toEqual({ error: 'You must be registered to access this page.' });
  });

  it('answers the creator to prefill (by id or public id), the paysites and the limits', async () => {
    const answer = await request(app).get(`${url}?service=patreon&user=alice`).set('Cookie', user.cookie);
    expect(answer.status).toBe(200);
    const { props } = answer.body;
    expect(props).toMatchObject({ currentPage: 'posts', service: 'patreon', user: '100', limits });
    expect(props.artist).toMatchObject({ id: '100', service: 'patreon', name: 'Alice', share_count: expect.any(Number) });
    expect(props.services[0]).toBe('patreon');
    expect(props.services).toContain('candfans');
  });

  it('keeps what it cannot use as the page does: no creator, an unknown paysite dropped', async () => {
    const bare = await request(app).get(url).set('Cookie', user.cookie);
    expect(bare.body.props).toMatchObject({ service: '', user: '', artist: null, limits });
    const unknown = await request(app).get(`${url}?service=patreon&user=nobody`).set('Cookie', user.cookie);
    expect(unknown.body.props).toMatchObject({ service: 'patreon', user: 'nobody', artist: null });
    const badService = await request(app).get(`${url}?service=myspace&user=100`).set('Cookie', user.cookie);
    expect(badService.status).toBe(200);
    expect(badService.body.props).toMatchObject({ service: '', user: '100', artist: null });
  });
});

describe('upload', () => {
  let sharesBefore: number;
  let filesBefore: string[];
  beforeEach(() => {
    sharesBefore = count('shares');
    filesBefore = filesOnDisk();
  });
  const nothingLeft = () => {
    expect(count('shares')).toBe(sharesBefore);
    expect(filesOnDisk()).toEqual(filesBefore);
  };

  it('GET /api/v1/shares/upload tells guests to register and gives members the limits', async () => {
    const guest = await request(app).get('/api/v1/shares/upload');
    expect(guest.status).toBe(401);
    expect(guest.body).toEqual({ error: 'You must be registered to access this page.' });
    const member = await request(app).get('/api/v1/shares/upload').set('Cookie', user.cookie);
    expect(member.status).toBe(200);
    expect(member.body).toEqual({
      max_file_bytes: SHARE_UPLOAD_LIMITS.maxFileBytes,
      max_files: SHARE_UPLOAD_LIMITS.maxFiles,
      max_total_bytes: SHARE_UPLOAD_LIMITS.maxTotalBytes,
      name_max: SHARE_UPLOAD_LIMITS.nameMax,
      description_max: SHARE_UPLOAD_LIMITS.descriptionMax,
    });
  });

  it('stores the files by sha256, creates the linked share and logs the change', async () => {
    const one = Buffer.from('first file \u00e9\n'.repeat(100));
    const two = Buffer.alloc(300 * 1024, 7);
    const changesBefore = await lastChangeId(t.db);
    const res = await request(app)
      .post('/api/v1/shares/upload')
      .set('Cookie', user.cookie)
      .field('service', 'fanbox')
      .field('user', '200')
      .field('name', '  Brushes  ')
      .field('description', 'Two <b>files</b>')
      .attach('file', one, 'notes.TXT')
      .attach('file', two, '画像 パック.bin');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.share_id;
    expect(Number.isInteger(id)).toBe(true);

    for (const [data, ext] of [
      [one, '.txt'],
      [two, '.bin'],
    ] as const) {
      const hash = sha256(data);
      const onDisk = path.join(filesDir, hash.slice(0, 2), hash.slice(2, 4), `${hash}${ext}`);
      expect(fs.readFileSync(onDisk).equals(data)).toBe(true);
    }
    expect(fs.readdirSync(path.join(filesDir, '.tmp'))).toEqual([]);

    const share = await request(app).get(`/api/v1/share/${id}`);
    expect(share.body.share).toMatchObject({ name: 'Brushes', description: 'Two <b>files</b>' });
    expect(share.body.share_files.map((f: { filename: string; hash: string }) => [f.filename, f.hash])).toEqual([
      ['notes.TXT', sha256(one)],
      ['画像 パック.bin', sha256(two)],
    ]);
    const uploads = await request(app).get('/api/v1/fanbox/user/200/shares');
    expect(uploads.body.props.share_count).toBe(1);
    expect(uploads.body.shares[0].id).toBe(id);
    const uploader = t.db.prepare('SELECT uploader_id FROM shares WHERE id = ?').get(id) as { uploader_id: number };
    expect(uploader.uploader_id).toBe(user.account.id);

    const changes = await readChangesSince(t.db, changesBefore);
    expect(changes).toContainEqual(
      expect.objectContaining({ kind: 'share', action: 'upsert', service: 'fanbox', creator_id: '200', ref: String(id) }),
    );
    expect(changes.filter((c) => c.kind === 'file')).toHaveLength(2);
  });

  it('stores a file already in the store once, and the same bytes twice in one share', async () => {
    const same = Buffer.from('seeded bytes');
    const res = await request(app)
      .post('/api/v1/shares/upload')
      .set('Cookie', user.cookie)
      .field('service', 'patreon')
      .field('user', 'alice')
      .field('name', 'Again')
      .attach('file', same, 'a.txt')
      .attach('file', same, 'b.txt');
    expect(res.status).toBe(200);
    expect(filesOnDisk()).toEqual(filesBefore);
    const share = await request(app).get(`/api/v1/share/${res.body.share_id}`);
    expect(share.body.share_files.map((f: { filename: string }) => f.filename)).toEqual(['a.txt', 'b.txt']);
  });

  it('refuses guests with 401 and stores nothing', async () => {
    const res = await request(app)
      .post('/api/v1/shares/upload')
      .field('service', 'fanbox')
      .field('user', '200')
      .field('name', 'Sneaky')
      .attach('file', Buffer.from('guest bytes'), 'g.txt');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'You must be registered to access this page.' });
    nothingLeft();
  });

  it('refuses a cross-site form post riding on the session cookie', async () => {
    const res = await request(app)
      .post('/api/v1/shares/upload')
      .set('Cookie', user.cookie)
      .set('Origin', 'https://evil.example')
      .field('service', 'fanbox')
      .field('user', '200')
      .field('name', 'Forged')
      .attach('file', Buffer.from('forged'), 'f.txt');
    expect(res.status).toBe(403);
    nothingLeft();
  });

  it.each([
    ['missing name', { service: 'fanbox', user: '200' }, 'Name is required.'],
    ['blank name', { service: 'fanbox', user: '200', name: '   ' }, 'Name is required.'],
    [
      'long name',
      { service: 'fanbox', user: '200', name: 'x'.repeat(SHARE_UPLOAD_LIMITS.nameMax + 1) },
      `Name must be at most ${SHARE_UPLOAD_LIMITS.nameMax} characters long.`,
    ],
    [
      'long description',
      { service: 'fanbox', user: '200', name: 'n', description: 'd'.repeat(SHARE_UPLOAD_LIMITS.descriptionMax + 1) },
      `Description must be at most ${SHARE_UPLOAD_LIMITS.descriptionMax} characters long.`,
    ],
    ['missing service', { user: '200', name: 'n' }, 'Service name is required.'],
    ['unknown service', { service: 'myspace', user: '200', name: 'n' }, '"myspace" is not a valid paysite.'],
    ['missing creator', { service: 'fanbox', name: 'n' }, 'Artist ID is required.'],
    ['unknown creator', { service: 'fanbox', user: 'nobody', name: 'n' }, 'Creator not found.'],
  ])('answers 400 for a %s and stores nothing', async (_label, fields, message) => {
    let call = request(app).post('/api/v1/shares/upload').set('Cookie', user.cookie);
    for (const [key, value] of Object.entries(fields)) call = call.field(key, value);
    const res = await call.attach('file', Buffer.from(`bytes for ${message}`), 'x.txt');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
    nothingLeft();
  });

  it('checks fields sent after the files too, and removes what was stored', async () => {
    const res = await request(app)
      .post('/api/v1/shares/upload')
      .set('Cookie', user.cookie)
      .attach('file', Buffer.from('late fields'), 'late.txt')
      .field('service', 'fanbox')
      .field('user', 'nobody')
      .field('name', 'Late');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Creator not found.' });
    nothingLeft();
  });

  it('answers 400 without files or without a multipart body', async () => {
    const none = await request(app)
      .post('/api/v1/shares/upload')
      .set('Cookie', user.cookie)
      .field('service', 'fanbox')
      .field('user', '200')
      .field('name', 'Empty');
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'At least one file is required.' });
    const json = await request(app).post('/api/v1/shares/upload').set('Cookie', user.cookie).send({ name: 'x' });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ error: 'The upload must be sent as multipart/form-data.' });
    const broken = await request(app)
      .post('/api/v1/shares/upload')
      .set('Cookie', user.cookie)
      .set('Content-Type', 'multipart/form-data; boundary=xyz')
      .send('--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated');
    expect(broken.status).toBe(400);
    nothingLeft();
  });

  const small = () =>
    request(app)
      .post('/api/v1/test/shares/upload')
      .set('Cookie', user.cookie)
      .field('service', 'fanbox')
      .field('user', '200')
      .field('name', 'Big');

  it('answers 413 for a file over the limit and leaves nothing behind', async () => {
    const res = await small()
      .attach('file', Buffer.alloc(400, 1), 'ok.bin')
      .attach('file', Buffer.alloc(SMALL.maxFileBytes + 1, 2), 'huge.bin');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'File "huge.bin" is larger than 1000 bytes.' });
    nothingLeft();
    const exact = await small().attach('file', Buffer.alloc(SMALL.maxFileBytes, 3), 'exact.bin');
    expect(exact.status).toBe(200);
  });

  it('answers 413 for too many files or too many bytes in total', async () => {
    let many = small();
    for (let i = 0; i <= SMALL.maxFiles; i += 1) many = many.attach('file', Buffer.from(`file ${i}`), `${i}.txt`);
    const tooMany = await many;
    expect(tooMany.status).toBe(413);
    expect(tooMany.body).toEqual({ error: 'At most 3 files can be uploaded at once.' });
    nothingLeft();
    const total = await small()
      .attach('file', Buffer.alloc(900, 4), 'a.bin')
      .attach('file', Buffer.alloc(900, 5), 'b.bin')
      .attach('file', Buffer.alloc(900, 6), 'c.bin');
    expect(total.status).toBe(413);
    expect(total.body).toEqual({ error: 'The upload is larger than 2500 bytes in total.' });
    nothingLeft();
  });

  it('cleans up when the client goes away in the middle of a file', async () => {
    const server = http.createServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const head =
        '--b\r\nContent-Disposition: form-data; name="service"\r\n\r\nfanbox\r\n' +
        '--b\r\nContent-Disposition: form-data; name="user"\r\n\r\n200\r\n' +
        '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nCut\r\n' +
        '--b\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n';
      const req = http.request({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/api/v1/shares/upload',
        headers: { Cookie: user.cookie, 'Content-Type': 'multipart/form-data; boundary=b', 'Content-Length': '10000000' },
      });
      req.on('error', () => undefined);
      req.write(head);
      req.write(Buffer.alloc(200_000, 9));
      // The part is being stored: its temporary file exists.
      await expect.poll(() => filesOnDisk().some((file) => file.startsWith('.tmp')), { timeout: 5000 }).toBe(true);
      req.destroy();
      // The temporary file goes once the server sees the connection close.
      await expect.poll(() => filesOnDisk(), { timeout: 5000 }).toEqual(filesBefore);
      expect(count('shares')).toBe(sharesBefore);
      // And the server keeps answering.
      expect((await request(app).get('/api/v1/shares')).status).toBe(200);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('refuses a body declared larger than the real limit before reading it', async () => {
    const server = http.createServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const started = Date.now();
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/api/v1/shares/upload',
          headers: {
            Cookie: user.cookie,
            'Content-Type': 'multipart/form-data; boundary=b',
            'Content-Length': String(SHARE_UPLOAD_LIMITS.maxTotalBytes * 2),
          },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.write('--b\r\n');
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({ error: 'The upload is larger than 1 GiB in total.' });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
    nothingLeft();
  });
});
