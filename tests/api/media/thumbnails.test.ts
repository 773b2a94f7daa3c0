/**
 * Thumbnails with real images made by sharp, real files on disk and real HTTP through the media
 * handler: size and format, first frame of a GIF, corrupt files and decompression bombs, single
 * flight, the bounded queue.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest, listen } from '../../helpers/http.ts';
import { storeFile, storeLocation, type StoredFile } from '@api/media/store.ts';
import { makeThumbnail, Thumbnailer } from '@api/media/thumbnails.ts';
import { createMediaHandler, THUMBNAIL_PLACEHOLDER, type MediaHandler } from '@api/server/media.ts';

let dir: string;
let files: string;

/** A noisy photo-like JPEG: noise keeps it from compressing to nothing, as real photos do. */
function photo(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#6a8', noise: { type: 'gaussian', mean: 120, sigma: 40 } } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** A PNG that declares width x height but carries almost no data: the shape of a decompression bomb. */
function bombPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  // The first rows, deflated: a real bomb would carry all of them (about 3.6 GB of pixels here).
  const rows = zlib.deflateSync(Buffer.alloc((width * 4 + 1) * 16));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const hashOf = (stored: StoredFile) => stored.sha256;
const extOf = (stored: StoredFile) => stored.path.split('.').pop()!;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-thumbs-'));
  files = path.join(dir, 'files');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('makeThumbnail', () => {
  it('makes a WebP with the longest side bounded and the aspect kept, never enlarging', async () => {
    const wide = await storeFile(files, await photo(1600, 1200), 'jpg');
    const target = path.join(dir, 'out', 'wide.webp');
    await makeThumbnail(storeLocation(files, wide.path), target);
    expect(await sharp(target).metadata()).toMatchObject({ format: 'webp', width: 600, height: 450 });
    const tall = await storeFile(
      files,
      await sharp({ create: { width: 300, height: 1500, channels: 4, background: '#123a' } })
        .png()
        .toBuffer(),
      'png',
    );
    await makeThumbnail(storeLocation(files, tall.path), path.join(dir, 'out', 'tall.webp'));
    expect(await sharp(path.join(dir, 'out', 'tall.webp')).metadata()).toMatchObject({ width: 120, height: 600 });
    const small = await storeFile(
      files,
      await sharp({ create: { width: 100, height: 50, channels: 3, background: '#fff' } })
        .webp()
        .toBuffer(),
      'webp',
    );
    await makeThumbnail(storeLocation(files, small.path), path.join(dir, 'out', 'small.webp'));
    expect(await sharp(path.join(dir, 'out', 'small.webp')).metadata()).toMatchObject({ width: 100, height: 50 });
    expect(fs.readdirSync(path.join(dir, 'out')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('takes the first frame of an animated GIF', async () => {
    const frame = (colour: string) =>
      sharp({ create: { width: 40, height: 30, channels: 3, background: colour } })
        .png()
        .toBuffer();
    const gif = await sharp([await frame('#f00'), await frame('#00f')], { join: { animated: true } })
      .gif()
      .toBuffer();
    const stored = await storeFile(files, gif, 'gif');
    const target = path.join(dir, 'out', 'gif.webp');
    await makeThumbnail(storeLocation(files, stored.path), target);
    const meta = await sharp(target).metadata();
    expect([meta.width, meta.height, meta.pages ?? 1]).toEqual([40, 30, 1]);
    const { data } = await sharp(target).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200); // red
    expect(data[2]).toBeLessThan(50);
  });
});

describe('Thumbnailer', () => {
  it('answers a stored image with its cached thumbnail, and nothing for other files', async () => {
    const thumbs = new Thumbnailer({ filesDir: files, thumbnailsDir: path.join(dir, 'cache-a') });
    const image = await storeFile(files, await photo(800, 600), 'jpeg');
    const first = await thumbs.thumbnail(hashOf(image), 'jpeg');
    expect(first).toEqual({ kind: 'thumbnail', file: thumbs.thumbnailFile(image.sha256) });
    expect(thumbs.thumbnailFile(image.sha256)).toBe(
      path.join(dir, 'cache-a', image.sha256.slice(0, 2), image.sha256.slice(2, 4), `${image.sha256}.webp`),
    );
    expect(await thumbs.thumbnail(hashOf(image), 'jpeg')).toEqual(first);
    expect(thumbs.generated).toBe(1);
    const zip = await storeFile(files, Buffer.from('PK not an image'), 'zip');
    expect(await thumbs.thumbnail(hashOf(zip), 'zip')).toEqual({ kind: 'missing' });
    expect(await thumbs.thumbnail('f'.repeat(64), 'png')).toEqual({ kind: 'missing' });
    // Same hash, an extension the store does not hold.
    expect(await thumbs.thumbnail(hashOf(image), 'png')).toEqual({ kind: 'missing' });
  });

  it("answers a video's stored poster frame as its thumbnail, and nothing (never an attempt to decode) without one", async () => {
    const thumbs = new Thumbnailer({ filesDir: files, thumbnailsDir: path.join(dir, 'cache-video') });
    const video = await storeFile(files, fs.readFileSync('scripts/seed/assets/preview.webm'), 'webm');
    expect(await thumbs.thumbnail(hashOf(video), 'webm')).toEqual({ kind: 'missing' });
    const poster = thumbs.thumbnailFile(video.sha256);
    fs.mkdirSync(path.dirname(poster), { recursive: true });
    fs.copyFileSync('scripts/seed/assets/preview.poster.webp', poster);
    expect(await thumbs.thumbnail(hashOf(video), 'webm')).toEqual({ kind: 'thumbnail', file: poster });
    expect(thumbs.generated).toBe(0);
    // A poster without the video itself is not served.
    expect(await thumbs.thumbnail(hashOf(video), 'mp4')).toEqual({ kind: 'missing' });
  });

  it('gives the placeholder for a corrupt image or a decompression bomb, quickly, and does not retry', async () => {
    const logged: string[] = [];
    const thumbs = new Thumbnailer({ filesDir: files, thumbnailsDir: path.join(dir, 'cache-b'), log: (line) => logged.push(line) });
    const corrupt = await storeFile(
      files,
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from('garbage'.repeat(100))]),
      'png',
    );
    const truncated = await storeFile(files, (await photo(400, 300)).subarray(0, 200), 'jpg');
    const bomb = await storeFile(files, bombPng(30000, 30000), 'png');
    const started = Date.now();
    for (const stored of [corrupt, truncated, bomb]) {
      expect(await thumbs.thumbnail(hashOf(stored), extOf(stored))).toEqual({ kind: 'placeholder' });
    }
    expect(Date.now() - started).toBeLessThan(3000);
    expect(thumbs.generated).toBe(0);
    expect(fs.existsSync(thumbs.thumbnailFile(bomb.sha256))).toBe(false);
    // Refused for its declared size, before any pixel was decoded.
    expect(logged.find((line) => line.includes(bomb.sha256))).toMatch(/pixel limit/);
    expect(await thumbs.thumbnail(hashOf(bomb), 'png')).toEqual({ kind: 'placeholder' });
  });

  it('generates once for many concurrent requests for one file', async () => {
    const thumbs = new Thumbnailer({ filesDir: files, thumbnailsDir: path.join(dir, 'cache-c') });
    const image = await storeFile(files, await photo(1600, 1200), 'jpg');
    const answers = await Promise.all(Array.from({ length: 12 }, () => thumbs.thumbnail(hashOf(image), 'jpg')));
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0].kind).toBe('thumbnail');
    expect(thumbs.generated).toBe(1);
  });

  it('keeps a bounded number in flight and refuses work past the queue', async () => {
    const thumbs = new Thumbnailer({ filesDir: files, thumbnailsDir: path.join(dir, 'cache-d'), concurrency: 1, queueLimit: 2 });
    const images = await Promise.all(Array.from({ length: 5 }, async (_, i) => storeFile(files, await photo(1200 + i, 900), 'jpg')));
    const answers = await Promise.all(images.map((image) => thumbs.thumbnail(hashOf(image), 'jpg')));
    // One runs, two wait, the other two are told to come back.
    expect(answers.map((answer) => answer.kind)).toEqual(['thumbnail', 'thumbnail', 'thumbnail', 'busy', 'busy']);
    expect(thumbs.generated).toBe(3);
    expect((await thumbs.thumbnail(hashOf(images[4]), 'jpg')).kind).toBe('thumbnail');
  });
});

describe('/thumbnail/data over HTTP', () => {
  let server: http.Server;
  let base: string;
  let media: MediaHandler;
  let image: StoredFile;

  beforeAll(async () => {
    const root = path.join(dir, 'http');
    media = createMediaHandler({ files: path.join(root, 'files'), icons: path.join(root, 'icons'), banners: path.join(root, 'banners') });
    image = await storeFile(path.join(root, 'files'), await photo(1600, 1200), 'jpg');
    server = http.createServer((req, res) => {
      if (!media(req, res)) {
        res.statusCode = 418;
        res.end();
      }
    });
    base = await listen(server);
  });
  afterAll(() => server.close());

  it('generates on first request (once for concurrent requests), then serves the cached file as immutable', async () => {
    const url = `${base}/thumbnail/data${image.path}`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => httpRequest(url)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(media.thumbnailer.generated).toBe(1);
    const answer = answers[0];
    expect(answer.headers['content-type']).toBe('image/webp');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(await sharp(answer.body).metadata()).toMatchObject({ format: 'webp', width: 600, height: 450 });
    expect(answer.body.equals(fs.readFileSync(media.thumbnailer.thumbnailFile(image.sha256)))).toBe(true);
    const head = await httpRequest(url, { method: 'HEAD' });
    expect([head.status, head.headers['content-length'], head.body.length]).toEqual([200, String(answer.body.length), 0]);
    expect((await httpRequest(url, { headers: { 'if-none-match': String(answer.headers.etag) } })).status).toBe(304);
    expect(media.thumbnailer.generated).toBe(1);
  });

  it('answers the placeholder for a corrupt image and 404 for other files and non-image extensions', async () => {
    const root = path.join(dir, 'http', 'files');
    const corrupt = await storeFile(root, Buffer.from('not a gif at all'), 'gif');
    const placeholder = await httpRequest(`${base}/thumbnail/data${corrupt.path}`);
    expect([placeholder.status, placeholder.headers['content-type'], placeholder.headers['cache-control']]).toEqual([
      200,
      'image/webp',
      'public, max-age=600',
    ]);
    expect(placeholder.body.equals(fs.readFileSync(THUMBNAIL_PLACEHOLDER))).toBe(true);
    const video = await storeFile(root, Buffer.from('not really a video'), 'mp4');
    expect((await httpRequest(`${base}/thumbnail/data${video.path}`)).status).toBe(404);
    expect((await httpRequest(`${base}/thumbnail/data${image.path.replace('.jpg', '.png')}`)).status).toBe(404);
    expect((await httpRequest(`${base}/thumbnail${image.path}`)).status).toBe(404);
    expect((await httpRequest(`${base}/thumbnail/data${image.path}`, { method: 'POST' })).status).toBe(405);
  });

  it('answers 503 with Retry-After when the queue is full', async () => {
    const root = path.join(dir, 'busy');
    const busy = createMediaHandler({
      files: path.join(root, 'files'),
      icons: root,
      banners: root,
      thumbnailer: { concurrency: 1, queueLimit: 0 },
    });
    const busyServer = http.createServer((req, res) => void busy(req, res));
    const busyBase = await listen(busyServer);
    try {
      const images = await Promise.all([0, 1].map(async (i) => storeFile(path.join(root, 'files'), await photo(1600 + i, 1200), 'jpg')));
      const [first, second] = await Promise.all(images.map((stored) => httpRequest(`${busyBase}/thumbnail/data${stored.path}`)));
      expect(first.status).toBe(200);
      expect([second.status, second.headers['retry-after'], second.headers['cache-control']]).toEqual([503, '2', 'no-store']);
    } finally {
      busyServer.close();
    }
  });
});
