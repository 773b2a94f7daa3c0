/**
 * File serving through the real front server (real build, SQLite file and files on disk): stored
 * bytes, ranges, download names, types a browser could run, icons and banners, and traversal.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest, type RawAnswer } from '../../helpers/http.ts';
import type { Db } from '@api/data/db.ts';
import { registerFile } from '@api/data/files.ts';
import { storeFile, type StoredFile } from '@api/media/store.ts';
import { DEFAULT_BANNER, DEFAULT_ICON } from '@api/server/media.ts';

const SECRET = 'TOP-SECRET-MARKER';
let site: TestSite;
let dataDir: string;
let db: Db;
let base: string;
const stored: Record<string, StoredFile> = {};
let bigBytes: Buffer;

/** Sends `target` exactly as written: a URL-parsing client would resolve the dot segments itself. */
function request(target: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return httpRequest(base, { path: target, headers, method });
}

async function store(name: string, data: Buffer, ext: string, mime?: string) {
  stored[name] = await storeFile(site.paths.files, data, ext);
  if (mime !== undefined) await registerFile(db, { hash: stored[name].sha256, size: data.length, ext, mime });
}

beforeAll(async () => {
  site = await createTestSite('media');
  ({ dataDir, db } = site);
  const paths = site.paths;
  fs.writeFileSync(path.join(dataDir, 'secret.txt'), SECRET);
  bigBytes = crypto.randomBytes(1024 * 1024 + 123);
  await store('big', bigBytes, 'bin');
  await store(
    'png',
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c33' } })
      .png()
      .toBuffer(),
    'png',
    'image/png',
  );
  await store('typed', Buffer.from('bytes whose record says png'), 'bin', 'image/png');
  await store('html', Buffer.from('<script>alert(1)</script>page'), 'html');
  await store('svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'svg', 'image/svg+xml');
  await store('disguised', Buffer.from('<html><script>alert(1)</script></html>'), 'png', 'text/html');
  await store('pdf', Buffer.from('%PDF-1.4 not much of a pdf'), 'pdf', 'application/pdf');
  await store('js', Buffer.from('alert(1)'), 'js');
  await store('text', Buffer.from('plain notes'), 'txt');
  await store('empty', Buffer.alloc(0), 'dat');
  for (const [dir, bytes] of [
    [
      paths.icons,
      await sharp({ create: { width: 4, height: 4, channels: 3, background: '#00f' } })
        .png()
        .toBuffer(),
    ],
    [
      paths.banners,
      await sharp({ create: { width: 8, height: 2, channels: 3, background: '#0f0' } })
        .jpeg()
        .toBuffer(),
    ],
  ] as const) {
    fs.mkdirSync(path.join(dir, 'fanbox'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'fanbox', 'artist1'), bytes);
    fs.writeFileSync(path.join(dir, 'fanbox', 'not-an-image'), SECRET);
  }

  base = await site.start({ iconsPath: '/media/icons', bannersPath: 'https://img.example.org/banners' });
}, 300_000);

afterAll(() => site?.close());

const sha = (body: Buffer) => crypto.createHash('sha256').update(body).digest('hex');

describe('stored files', () => {
  it('serves the stored bytes at /data and the bare path, uncompressed, with a strong ETag and immutable caching', async () => {
    const big = stored.big;
    for (const target of [`/data${big.path}`, big.path, `/data${big.path}?f=x.bin&other=1`]) {
      const answer = await request(target, { 'accept-encoding': 'gzip, deflate, br' });
      expect(answer.status).toBe(200);
      expect(sha(answer.body)).toBe(big.sha256);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers['content-length']).toBe(String(bigBytes.length));
      expect(answer.headers.etag).toBe(`"${big.sha256}"`);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(answer.headers['accept-ranges']).toBe('bytes');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
    expect((await request(`/data${big.path}`, { 'accept-encoding': 'identity' })).body.length).toBe(bigBytes.length);
    const again = await request(big.path, { 'if-none-match': `"${big.sha256}"` });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('answers HEAD with the length and no body', async () => {
    const head = await request(`/data${stored.big.path}`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(bigBytes.length));
    expect(head.body.length).toBe(0);
    const empty = await request(`/data${stored.empty.path}`);
    expect([empty.status, empty.headers['content-length'], empty.body.length]).toEqual([200, '0', 0]);
  });

  it('answers byte ranges with 206 and Content-Range, 416 when unsatisfiable', async () => {
    const size = bigBytes.length;
    const target = `/data${stored.big.path}`;
    const head = await request(target, { range: 'bytes=0-65535' });
    expect(head.status).toBe(206);
    expect(head.headers['content-range']).toBe(`bytes 0-65535/${size}`);
    expect(head.headers['content-length']).toBe('65536');
    expect(head.body.equals(bigBytes.subarray(0, 65536))).toBe(true);
    const middle = await request(target, { range: 'bytes=500000-900000' });
    expect(middle.body.equals(bigBytes.subarray(500000, 900001))).toBe(true);
    const tail = await request(target, { range: 'bytes=1000000-' });
    expect(tail.headers['content-range']).toBe(`bytes 1000000-${size - 1}/${size}`);
    expect(tail.body.equals(bigBytes.subarray(1000000))).toBe(true);
    const suffix = await request(target, { range: 'bytes=-100' });
    expect(suffix.body.equals(bigBytes.subarray(size - 100))).toBe(true);
    const past = await request(target, { range: 'bytes=0-99999999' });
    expect([past.status, past.body.length]).toEqual([206, size]);
    for (const range of [`bytes=${size}-`, 'bytes=99999999999999999999-', 'bytes=-0']) {
      const refused = await request(target, { range });
      expect(refused.status).toBe(416);
      expect(refused.headers['content-range']).toBe(`bytes */${size}`);
    }
    // Not a valid single range: the whole file, as RFC 9110 says to ignore it.
    for (const range of ['bytes=5-2', 'items=0-5', 'bytes=0-1,5-6']) {
      const whole = await request(target, { range });
      expect([whole.status, whole.body.length]).toEqual([200, size]);
    }
    expect((await request(target, { range: 'bytes=10-19', 'if-range': `"${stored.big.sha256}"` })).status).toBe(206);
    const changed = await request(target, { range: 'bytes=10-19', 'if-range': '"something-else"' });
    expect([changed.status, changed.body.length]).toEqual([200, size]);
    expect((await request(stored.empty.path, { range: 'bytes=0-' })).status).toBe(416);
  });

  it('takes the type from the stored record, else from the extension', async () => {
    expect((await request(`/data${stored.typed.path}`)).headers['content-type']).toBe('image/png');
    expect((await request(`/data${stored.big.path}`)).headers['content-type']).toBe('application/octet-stream');
    const text = await request(`/data${stored.text.path}`);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.headers['content-security-policy']).toBeUndefined();
  });

  it('names downloads with ?f= safely for any name', async () => {
    const png = stored.png.path;
    const plain = await request(`/data${png}?f=${encodeURIComponent('cover art.png')}`);
    expect(plain.headers['content-disposition']).toBe(`inline; filename="cover art.png"; filename*=UTF-8''cover%20art.png`);
    expect(plain.headers['content-type']).toBe('image/png');
    expect(plain.headers['content-security-policy']).toBeUndefined();
    const unicode = await request(`/data${png}?f=${encodeURIComponent("日本語 (イラスト)'s café.png")}`);
    expect(unicode.headers['content-disposition']).toBe(
      `inline; filename="___ (____)'s cafe.png"; filename*=UTF-8''${encodeURIComponent('日本語 ')}%28${encodeURIComponent('イラスト')}%29%27s%20caf%C3%A9.png`,
    );
    const hostile = await request(`/data${png}?f=${encodeURIComponent('a"b\\c%41.png\r\nSet-Cookie: stolen=1\u0000')}`);
    expect(hostile.status).toBe(200);
    expect(hostile.headers['set-cookie']).toBeUndefined();
    expect(hostile.headers['content-disposition']).toBe(
      `inline; filename="a_b_c_41.pngSet-Cookie: stolen=1"; filename*=UTF-8''a%22b%5Cc%2541.pngSet-Cookie%3A%20stolen%3D1`,
    );
    // Without ?f= a safe type has no Content-Disposition at all.
    expect((await request(`/data${png}`)).headers['content-disposition']).toBeUndefined();
    // Invalid UTF-8 in ?f= must not break the answer.
    expect((await request(`/data${png}?f=%ED%A0%80%FF.png`)).status).toBe(200);
  });

  it('drops bidi and other invisible controls from ?f= names, so no name shows another extension', async () => {
    const png = stored.png.path;
    const reversed = await request(`/data${png}?f=${encodeURIComponent('\u202Egnp.html')}`);
    expect(reversed.status).toBe(200);
    expect(reversed.headers['content-disposition']).toBe(`inline; filename="gnp.html"; filename*=UTF-8''gnp.html`);
    const bidi = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'];
    for (const mark of bidi) {
      const answer = await request(`/data${png}?f=${encodeURIComponent(`photo${mark}lmth.png`)}`);
      expect(answer.headers['content-disposition'], `U+${mark.codePointAt(0)!.toString(16)}`).toBe(
        `inline; filename="photolmth.png"; filename*=UTF-8''photolmth.png`,
      );
    }
    const others = await request(`/data${stored.html.path}?f=${encodeURIComponent('a\u2028b\u2029c\uFEFF\u00AD\u0085\u009Bd.html')}`);
    expect(others.headers['content-disposition']).toBe(`attachment; filename="abcd.html"; filename*=UTF-8''abcd.html`);
    // A name cut at 255 characters never ends in half an emoji (that used to break the header).
    const long = await request(`/data${png}?f=${encodeURIComponent(`${'x'.repeat(254)}😀😀`)}`);
    expect(long.status).toBe(200);
    expect(long.headers['content-disposition']).toMatch(/filename\*=UTF-8''x{254}%F0%9F%98%80$/);
  });

  it('sends types a browser could run as sandboxed downloads', async () => {
    for (const [name, type] of [
      ['html', 'text/html'],
      ['svg', 'image/svg+xml'],
      ['disguised', 'text/html'],
      ['pdf', 'application/pdf'],
      ['js', 'text/javascript'],
    ]) {
      const file = stored[name];
      const answer = await request(`/data${file.path}`);
      expect(answer.status, name).toBe(200);
      expect(answer.headers['content-type'], name).toBe(type);
      expect(answer.headers['content-disposition'], name).toMatch(new RegExp(`^attachment; filename="${file.sha256}\\.`));
      expect(answer.headers['content-security-policy'], name).toBe("sandbox; default-src 'none'");
      expect(answer.headers['x-content-type-options'], name).toBe('nosniff');
      const named = await request(`${file.path}?f=page.html`);
      expect(named.headers['content-disposition'], name).toMatch(/^attachment; filename="page\.html"/);
    }
  });

  it('answers 404 for a missing file, another extension of a stored hash, or a hash in the wrong folder', async () => {
    const { sha256, path: stored1 } = stored.png;
    expect((await request(`/data${stored1.replace(/\.png$/, '.jpg')}`)).status).toBe(404);
    expect((await request(`/data/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${'0'.repeat(64)}.png`)).status).toBe(404);
    expect((await request(`/data/00/00/${sha256}.png`)).status).toBe(404);
    expect((await request(`/data/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256.toUpperCase()}.png`)).status).toBe(404);
    expect((await request(`/data${stored1}`, {}, 'POST')).status).toBe(405);
    expect((await request(`/data${stored1}`, {}, 'DELETE')).headers.allow).toBe('GET, HEAD');
  });
});

describe('icons and banners', () => {
  it('serves the creator image with its sniffed type, or the default image briefly cached', async () => {
    const icon = await request('/icons/fanbox/artist1');
    expect([icon.status, icon.headers['content-type'], icon.headers['cache-control']]).toEqual([200, 'image/png', 'public, max-age=86400']);
    const banner = await request('/banners/fanbox/artist1');
    expect(banner.headers['content-type']).toBe('image/jpeg');
    for (const [target, file] of [
      ['/icons/fanbox/nobody', DEFAULT_ICON],
      ['/banners/patreon/12345', DEFAULT_BANNER],
      // A stored file that is not an image is never sent as what it is.
      ['/icons/fanbox/not-an-image', DEFAULT_ICON],
    ]) {
      const fallback = await request(target);
      expect(fallback.status, target).toBe(200);
      expect(fallback.headers['content-type'], target).toBe('image/webp');
      expect(fallback.headers['cache-control'], target).toBe('public, max-age=600');
      expect(fallback.body.equals(fs.readFileSync(file)), target).toBe(true);
    }
    expect((await request('/icons/myspace/artist1')).status).toBe(404);
    expect((await request('/icons/fanbox/')).status).toBe(404);
    expect((await request('/icons/fanbox/artist1', {}, 'PUT')).status).toBe(405);
  });

  it('also answers at a configured ICONS_PATH on this server (a BANNERS_PATH on another host changes nothing here)', async () => {
    const icon = await request('/media/icons/fanbox/artist1');
    expect([icon.status, icon.headers['content-type']]).toEqual([200, 'image/png']);
    expect((await request('/media/icons/fanbox/..%2F..%2Fsecret.txt')).status).toBe(404);
    expect((await request('/banners/fanbox/artist1')).status).toBe(200);
  });
});

describe('traversal', () => {
  const payloads = [
    '../secret.txt',
    '../../secret.txt',
    '../../../secret.txt',
    'ab/cd/../../../secret.txt',
    '%2e%2e/secret.txt',
    '%2E%2E%2Fsecret.txt',
    '..%2f..%2fsecret.txt',
    '..%2F..%2F..%2Fsecret.txt',
    '%2e%2e%2f%2e%2e%2fsecret.txt',
    '%252e%252e%252f%252e%252e%252fsecret.txt',
    '..%252f..%252fsecret.txt',
    '..\\..\\secret.txt',
    '..%5c..%5csecret.txt',
    '%2e%2e%5c%2e%2e%5csecret.txt',
    '%255c..%255csecret.txt',
    '%c0%ae%c0%ae/%c0%ae%c0%ae/secret.txt',
    '..%c0%af..%c0%afsecret.txt',
    '%e0%80%ae%e0%80%ae/secret.txt',
    '....//....//secret.txt',
    '.%2e/.%2e/secret.txt',
    'secret.txt%00.png',
    '..%00/secret.txt',
    '../trove.sqlite',
    '../../trove.sqlite',
    '%2e%2e%2ftrove.sqlite',
    '../icons/fanbox/not-an-image',
    '../../icons/fanbox/not-an-image',
    '/etc/passwd',
    '%2fetc%2fpasswd',
  ];
  const prefixes = [
    '/data/',
    '/',
    '/thumbnail/data/',
    '/thumbnail/',
    '/icons/fanbox/',
    '/banners/fanbox/',
    '/icons/',
    '/media/icons/fanbox/',
  ];

  it('answers 404 or 400 for every payload under every media prefix, and never the bytes', async () => {
    const hash = stored.png.sha256;
    const shaped = [`${hash.slice(0, 2)}/${hash.slice(2, 4)}/`, `${hash.slice(0, 2)}/`];
    const failures: string[] = [];
    for (const prefix of prefixes) {
      for (const middle of ['', ...shaped]) {
        for (const payload of payloads) {
          const target = `${prefix}${middle}${payload}`;
          const answer = await request(target);
          const text = answer.body.toString('latin1');
          if (![400, 404].includes(answer.status) || text.includes(SECRET) || text.includes('SQLite format 3') || text.includes('root:')) {
            failures.push(`${target} -> ${answer.status}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('does not let dot segments turn one media path into another', async () => {
    const { path: png } = stored.png;
    for (const target of [
      `/thumbnail/data/../..${png}`,
      `/data/..${png}`,
      `/icons/..${png}`,
      `/x/..${png}`,
      `/data/%2e%2e${png}`,
      `/data/.${png}`,
    ]) {
      expect((await request(target)).status, target).toBe(404);
    }
  });
});
