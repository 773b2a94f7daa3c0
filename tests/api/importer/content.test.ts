/**
 * What importers do with a paysite's files (api/importer/content.ts), over a real temp SQLite + data dir
 * and a real local server: files archived and registered, the unobtainable ones logged and skipped,
 * creator icons and banners written where /icons and /banners serve them, and post HTML whose images
 * point at the archive's copies with everything else sanitized away.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getFileByHash } from '@api/data/files.ts';
import { archiveCreatorImage, archiveFile, archiveInlineImages, imageSources, nameFromUrl, progressLogger } from '@api/importer/content.ts';
import { TransientError } from '@api/importer/errors.ts';
import { createPaysiteClient } from '@api/importer/fetch.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { readConfig } from '@api/config.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';
import { closeAll, startServer, startTcpCounter, type LocalServer } from './local-server.ts';

const KEY = 'session-key-SECRET-123';
let t: TempDb;
let lines: string[];
let png: Buffer;
let jpeg: Buffer;
let server: LocalServer;

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const stored = (bytes: Buffer, ext: string) => `/${sha(bytes).slice(0, 2)}/${sha(bytes).slice(2, 4)}/${sha(bytes)}${ext}`;

beforeAll(async () => {
  png = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#c0ffee' } })
    .png()
    .toBuffer();
  jpeg = await sharp({ create: { width: 5, height: 5, channels: 3, background: '#336699' } })
    .jpeg()
    .toBuffer();
});

beforeEach(async () => {
  t = tempDb();
  lines = [];
  server = await startServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname.startsWith('/gone/')) return res.writeHead(404).end();
    if (url.pathname === '/busy.png') return res.writeHead(503).end();
    if (url.pathname === '/big.bin') return res.writeHead(200, { 'content-length': 9000 }).end(Buffer.alloc(9000));
    // No Content-Length: the cap is only found while streaming.
    if (url.pathname === '/chunked.bin') return res.writeHead(200).end(Buffer.alloc(9000));
    if (url.pathname.endsWith('.jpg')) return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    res.writeHead(200, { 'content-type': 'image/png' }).end(png);
  });
});
afterEach(async () => {
  await closeAll();
  t.cleanup();
});

function context(env: Record<string, string> = {}): ImportContext {
  const config = readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test', IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1', ...env });
  return {
    db: t.db,
    config,
    importId: 'imp-content',
    service: 'patreon',
    accountId: null,
    key: KEY,
    channelIds: [],
    saveDms: false,
    cursor: async () => undefined,
    async step<T>(fn: () => T, commit: { log?: string[] }): Promise<Awaited<T>> {
      const result = await fn();
      lines.push(...(commit.log ?? []));
      return result;
    },
    log: async (line) => {
      lines.push(line);
    },
    setSubCount: async () => undefined,
    signal: new AbortController().signal,
  };
}

function clientFor(ctx: ImportContext) {
  return createPaysiteClient({
    label: 'Patreon',
    endpoint: { baseUrl: server.url, hosts: [] },
    importer: ctx.config.importer,
    headers: { authorization: `Bearer ${ctx.key}` },
    signal: ctx.signal,
  });
}

const onDisk = (publicPath: string) => path.join(t.dir, 'files', ...publicPath.split('/').filter(Boolean));

describe('archiveFile', () => {
  it('stores the bytes, registers the file row and names it after the URL', async () => {
    const ctx = context();
    const file = await archiveFile(ctx, clientFor(ctx), `${server.url}/media/My%20Picture.png?token-hash=abc&token-time=1`);
    expect(file).toEqual({ name: 'My Picture.png', path: stored(png, '.png'), hash: sha(png) });
    expect(fs.readFileSync(onDisk(file!.path))).toEqual(png);
    expect(await getFileByHash(t.db, sha(png))).toMatchObject({ size: png.length, ext: '.png', mime: 'image/png' });
    // Again (a step repeated after a crash): same row, nothing new.
    await archiveFile(ctx, clientFor(ctx), `${server.url}/media/other-name.png`);
    expect(t.db.prepare('SELECT COUNT(*) AS n FROM files').get()).toEqual({ n: 1 });
    expect(lines).toEqual([]);
  });

  it('takes the extension from the given name, else from the URL, and stores none that is not plain', async () => {
    const ctx = context();
    const named = await archiveFile(ctx, clientFor(ctx), `${server.url}/download/7781?x=1`, 'Cover.JPG');
    expect(named).toMatchObject({ name: 'Cover.JPG', path: stored(png, '.jpg') });
    const odd = await archiveFile(ctx, clientFor(ctx), `${server.url}/x/photo.jpg`, 'notes.t@xt!');
    // '.t@xt!' is no extension the store takes; the URL's '.jpg' is used instead.
    expect(odd).toMatchObject({ name: 'notes.t@xt!', path: stored(jpeg, '.jpg') });
    const bare = await archiveFile(ctx, clientFor(ctx), `${server.url}/`);
    expect(bare).toMatchObject({ name: 'file', path: stored(png, '') });
  });

  it('logs and skips a file over the size cap, a missing file and a foreign host', async () => {
    const ctx = context({ IMPORTER_MAX_FILE_MB: '0.004' });
    const foreign = await startTcpCounter();
    expect(await archiveFile(ctx, clientFor(ctx), `${server.url}/big.bin?token=SECRETTOKEN`)).toBeUndefined();
    expect(await archiveFile(ctx, clientFor(ctx), `${server.url}/chunked.bin`)).toBeUndefined();
    expect(await archiveFile(ctx, clientFor(ctx), `${server.url}/gone/old.png?token=SECRETTOKEN`, 'Old image.png')).toBeUndefined();
    expect(await archiveFile(ctx, clientFor(ctx), `http://localhost:${foreign.port}/evil.png?token=SECRETTOKEN`)).toBeUndefined();
    expect(lines).toEqual([
      'Skipped big.bin: larger than 4 KB.',
      'Skipped chunked.bin: larger than 4 KB.',
      'Skipped Old image.png: the paysite answered 404.',
      'Skipped evil.png: Patreon pointed at localhost, which is not one of its hosts.',
    ]);
    expect(foreign.connections()).toBe(0);
    expect(t.db.prepare('SELECT COUNT(*) AS n FROM files').get()).toEqual({ n: 0 });
  });

  it('lets a transient failure through so the worker retries the import', async () => {
    const ctx = context();
    await expect(archiveFile(ctx, clientFor(ctx), `${server.url}/busy.png`)).rejects.toBeInstanceOf(TransientError);
    expect(lines).toEqual([]);
  });

  it('names files from URLs', () => {
    expect(nameFromUrl('https://c10.patreonusercontent.com/4/patreon-media/p/post/1/abc/eyJ3Ijo2MjB9/1.png?token-time=1')).toBe('1.png');
    expect(nameFromUrl('https://x.test/a/%E7%94%BB%E5%83%8F.jpg')).toBe('画像.jpg');
    expect(nameFromUrl('https://x.test/a/%E0%A4%A.jpg')).toBe('');
    expect(nameFromUrl('not a url')).toBe('');
  });
});

describe('archiveCreatorImage', () => {
  it('writes the icon and banner where /icons and /banners serve them', async () => {
    const ctx = context();
    expect(await archiveCreatorImage(ctx, clientFor(ctx), 'icons', 'patreon', '12345', `${server.url}/avatar.png?token=1`)).toBe(true);
    expect(await archiveCreatorImage(ctx, clientFor(ctx), 'banners', 'patreon', '12345', `${server.url}/cover.jpg`)).toBe(true);
    expect(fs.readFileSync(path.join(t.dir, 'icons', 'patreon', '12345'))).toEqual(png);
    expect(fs.readFileSync(path.join(t.dir, 'banners', 'patreon', '12345'))).toEqual(jpeg);
    // Replaced on the next import when the creator changes it.
    expect(await archiveCreatorImage(ctx, clientFor(ctx), 'icons', 'patreon', '12345', `${server.url}/new.jpg`)).toBe(true);
    expect(fs.readFileSync(path.join(t.dir, 'icons', 'patreon', '12345'))).toEqual(jpeg);
  });

  it('does nothing without a URL, for an unsafe id, or when the image cannot be had', async () => {
    const ctx = context();
    expect(await archiveCreatorImage(ctx, clientFor(ctx), 'icons', 'patreon', '1', null)).toBe(false);
    expect(await archiveCreatorImage(ctx, clientFor(ctx), 'icons', 'patreon', '1', '')).toBe(false);
    expect(server.requests).toHaveLength(0);
    expect(await archiveCreatorImage(ctx, clientFor(ctx), 'icons', 'patreon', '../../escape', `${server.url}/a.png`)).toBe(false);
    expect(await archiveCreatorImage(ctx, clientFor(ctx), 'icons', 'patreon', 'a/b', `${server.url}/a.png`)).toBe(false);
    expect(await archiveCreatorImage(ctx, clientFor(ctx), 'icons', 'patreon', '2', `${server.url}/gone/a.png`)).toBe(false);
    expect(fs.existsSync(path.join(t.dir, 'escape'))).toBe(false);
    expect(fs.existsSync(path.join(t.dir, 'icons', 'patreon', 'a'))).toBe(false);
    expect(fs.existsSync(path.join(t.dir, 'icons', 'patreon', '2'))).toBe(false);
    expect(lines).toEqual(['Skipped icon.png: the paysite answered 404.']);
  });
});

describe('archiveInlineImages', () => {
  it('points archived images at /data, drops the rest, sanitizes and never logs a token', async () => {
    const ctx = context();
    const foreign = await startTcpCounter();
    const html = [
      `<p onclick="steal()">Hello <b>patrons</b></p>`,
      `<img src="${server.url}/media/pic.png?token-hash=SECRETTOKEN&amp;token-time=9" alt="first" onerror="alert(1)">`,
      `<img src="/media/relative.jpg" width="5">`,
      `<img src="${server.url}/media/pic.png?token-hash=SECRETTOKEN&amp;token-time=9">`,
      `<img src="http://localhost:${foreign.port}/tracker.gif?token=SECRETTOKEN">`,
      `<img src="${server.url}/gone/deleted.png?token=SECRETTOKEN">`,
      `<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk">`,
      `<script>document.cookie</script>`,
      `<a href="javascript:alert(1)">link</a> <a href="https://patreon.com/x">ok</a>`,
    ].join('\n');
    const out = await archiveInlineImages(ctx, clientFor(ctx), html);
    expect(out).toContain(`<img src="/data${stored(png, '.png')}" alt="first" loading="lazy" />`);
    expect(out).toContain(`<img src="/data${stored(jpeg, '.jpg')}" width="5" loading="lazy" />`);
    expect(out.match(/<img /g)).toHaveLength(3);
    expect(out).toContain('<p>Hello <b>patrons</b></p>');
    expect(out).toContain('<a href="https://patreon.com/x" rel="noopener noreferrer nofollow" target="_blank">ok</a>');
    for (const gone of [
      'script',
      'onerror',
      'onclick',
      'javascript:',
      'tracker',
      'deleted',
      'data:',
      'SECRETTOKEN',
      server.url,
      'localhost',
    ]) {
      expect([gone, out.includes(gone)]).toEqual([gone, false]);
    }
    // The repeated image was fetched once; the data: image and the foreign one not at all.
    expect(server.requests.map((r) => new URL(r.url, 'http://x').pathname)).toEqual([
      '/media/pic.png',
      '/media/relative.jpg',
      '/gone/deleted.png',
    ]);
    expect(foreign.connections()).toBe(0);
    expect(lines).toEqual([
      'Skipped tracker.gif: Patreon pointed at localhost, which is not one of its hosts.',
      'Skipped deleted.png: the paysite answered 404.',
    ]);
    expect(lines.join('\n')).not.toMatch(/SECRET|token/);
  });

  it('sanitizes HTML without images and lists image sources once', async () => {
    const ctx = context();
    expect(await archiveInlineImages(ctx, clientFor(ctx), '<p>Hi<script>x()</script><iframe src="https://evil.test"></iframe></p>')).toBe(
      '<p>Hi</p>',
    );
    expect(imageSources('<img src="a.png"><p><img src="b.png"><img src="a.png"><img alt="none"></p>')).toEqual(['a.png', 'b.png']);
    expect(server.requests).toHaveLength(0);
  });
});

describe('progressLogger', () => {
  it('says how far a long download got, at most once per interval, with its size and speed', async () => {
    const said: string[] = [];
    const report = progressLogger(
      {
        log: async (line) => {
          said.push(line);
        },
      },
      'Timelapse.mp4',
      20,
    );
    await report(1024 * 1024, 8 * 1024 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await report(3 * 1024 * 1024, 8 * 1024 * 1024);
    await report(4 * 1024 * 1024, 8 * 1024 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await report(5 * 1024 * 1024, Number.NaN);
    expect(said).toHaveLength(2);
    expect(said[0]).toMatch(/^Downloading Timelapse\.mp4: 3\.0 MB of 8\.0 MB \(\d+\.\d MB\/s\)\.$/);
    expect(said[1]).toMatch(/^Downloading Timelapse\.mp4: 5\.0 MB \(\d+\.\d MB\/s\)\.$/);
  });
});
