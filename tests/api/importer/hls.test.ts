/**
 * HLS videos archived as one MP4 (api/importer/hls.ts), over a real temp SQLite + data dir and a real
 * local server serving playlists and the MPEG-TS segments of a real 3-second clip: the best rendition
 * is chosen, MPEG-TS is transmuxed to fragmented MP4, fMP4 and AES-128 segments are joined and
 * decrypted, and what cannot be archived is logged and skipped.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import muxjs from 'mux.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfig } from '@api/config.ts';
import { getFileByHash } from '@api/data/files.ts';
import { createPaysiteClient } from '@api/importer/fetch.ts';
import { archiveHls, masterVariants, mediaPlaylist } from '@api/importer/hls.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';
import { closeAll, startServer, type LocalServer } from './local-server.ts';

const ASSETS = path.resolve('tests/fakes/assets');
const SEGMENTS = [0, 1, 2].map((i) => fs.readFileSync(path.join(ASSETS, `timelapse-${i}.mpegts`)));
const KEY = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
const IV = Buffer.from('0f0e0d0c0b0a09080706050403020100', 'hex');

let t: TempDb;
let lines: string[];
let server: LocalServer;

/** fMP4 made from the same clip, as a CMAF stream serves it: an init section, then one fragment a segment. */
function fmp4(): { init: Buffer; fragments: Buffer[] } {
  const transmuxer = new muxjs.mp4.Transmuxer({ remux: true });
  const out: { init: Buffer; fragments: Buffer[] } = { init: Buffer.alloc(0), fragments: [] };
  transmuxer.on('data', (segment) => {
    if (out.init.length === 0) out.init = Buffer.from(segment.initSegment);
    out.fragments.push(Buffer.from(segment.data));
  });
  for (const segment of SEGMENTS) {
    transmuxer.push(new Uint8Array(segment));
    transmuxer.flush();
  }
  return out;
}
const CMAF = fmp4();

const encrypt = (bytes: Buffer, iv: Buffer) => {
  const cipher = crypto.createCipheriv('aes-128-cbc', KEY, iv);
  return Buffer.concat([cipher.update(bytes), cipher.final()]);
};
const sequenceIv = (n: number) => {
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(n, 12);
  return iv;
};

const media = (lines: string[]) => ['#EXTM3U', '#EXT-X-VERSION:6', '#EXT-X-TARGETDURATION:2', ...lines, '#EXT-X-ENDLIST'].join('\n');
const tsList = (prefix: string) => SEGMENTS.flatMap((_, i) => ['#EXTINF:1.0,', `${prefix}${i}.ts`]);

const PLAYLISTS: Record<string, string> = {
  '/master.m3u8': [
    '#EXTM3U',
    '#EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=160x90',
    'low/index.m3u8',
    '#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=320x180',
    'high/index.m3u8?token=abc',
  ].join('\n'),
  '/low/index.m3u8': media(tsList('/low/seg')),
  '/high/index.m3u8': media(tsList('seg')),
  '/cmaf/index.m3u8': media(['#EXT-X-MAP:URI="init.mp4"', ...CMAF.fragments.flatMap((_, i) => ['#EXTINF:1.0,', `frag${i}.m4s`])]),
  '/aes/index.m3u8': media([
    '#EXT-X-MEDIA-SEQUENCE:7',
    '#EXT-X-KEY:METHOD=AES-128,URI="/key.bin"',
    '#EXTINF:1.0,',
    'seg0.ts',
    `#EXT-X-KEY:METHOD=AES-128,URI="/key.bin",IV=0x${IV.toString('hex')}`,
    '#EXTINF:1.0,',
    'seg1.ts',
    '#EXT-X-KEY:METHOD=NONE',
    '#EXTINF:1.0,',
    'seg2.ts',
  ]),
  '/sample-aes/index.m3u8': media(['#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://drm"', ...tsList('seg')]),
  '/missing/index.m3u8': media(tsList('seg')),
  '/empty/index.m3u8': media([]),
};

beforeEach(async () => {
  t = tempDb();
  lines = [];
  server = await startServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const playlist = PLAYLISTS[url.pathname];
    if (playlist) return res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' }).end(playlist);
    if (url.pathname === '/key.bin') return res.writeHead(200).end(KEY);
    const segment = /\/(seg|frag)(\d)\.(ts|m4s)$/.exec(url.pathname);
    const folder = url.pathname.split('/')[1];
    if (url.pathname === '/cmaf/init.mp4') return res.writeHead(200).end(CMAF.init);
    if (!segment || folder === 'missing') return res.writeHead(404).end();
    const index = Number(segment[2]);
    if (segment[1] === 'frag') return res.writeHead(200).end(CMAF.fragments[index]);
    if (folder === 'aes' && index < 2) return res.writeHead(200).end(encrypt(SEGMENTS[index], index === 0 ? sequenceIv(7) : IV));
    res.writeHead(200, { 'content-type': 'video/mp2t' }).end(SEGMENTS[index]);
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
    importId: 'imp-hls',
    service: 'candfans',
    accountId: null,
    key: 'session-key',
    channelIds: [],
    saveDms: false,
    cursor: async () => undefined,
    async step<T>(fn: () => T): Promise<Awaited<T>> {
      return await fn();
    },
    log: async (line) => {
      lines.push(line);
    },
    setSubCount: async () => undefined,
    signal: new AbortController().signal,
  };
}

const clientFor = (ctx: ImportContext) =>
  createPaysiteClient({
    label: 'CandFans',
    endpoint: { baseUrl: server.url, hosts: [] },
    importer: ctx.config.importer,
    headers: {},
    signal: ctx.signal,
  });

const stored = (file: { path: string }) => fs.readFileSync(path.join(t.dir, 'files', ...file.path.split('/').filter(Boolean)));

/** The top-level MP4 boxes of a file: ['ftyp', 'moov', 'moof', 'mdat', ...]. */
function boxes(bytes: Buffer): string[] {
  const found: string[] = [];
  for (let offset = 0; offset + 8 <= bytes.length; ) {
    const size = bytes.readUInt32BE(offset);
    found.push(bytes.toString('latin1', offset + 4, offset + 8));
    if (size < 8) break;
    offset += size;
  }
  return found;
}

describe('playlists', () => {
  it('lists the renditions of a master playlist, best first, and the segments of a media playlist', () => {
    const variants = masterVariants(PLAYLISTS['/master.m3u8'], 'https://cdn.example/v/master.m3u8');
    expect(variants.map((variant) => variant.url)).toEqual([
      'https://cdn.example/v/high/index.m3u8?token=abc',
      'https://cdn.example/v/low/index.m3u8',
    ]);
    expect(masterVariants(PLAYLISTS['/high/index.m3u8'], 'https://cdn.example/')).toEqual([]);
    const aes = mediaPlaylist(PLAYLISTS['/aes/index.m3u8'], 'https://cdn.example/aes/index.m3u8');
    expect(aes.segments.map((segment) => [segment.url, segment.sequence, segment.key?.method ?? 'NONE'])).toEqual([
      ['https://cdn.example/aes/seg0.ts', 7, 'AES-128'],
      ['https://cdn.example/aes/seg1.ts', 8, 'AES-128'],
      ['https://cdn.example/aes/seg2.ts', 9, 'NONE'],
    ]);
    expect(aes.segments[1].key?.iv).toEqual(IV);
    expect(mediaPlaylist(PLAYLISTS['/cmaf/index.m3u8'], 'https://cdn.example/cmaf/x.m3u8').initUrl).toBe(
      'https://cdn.example/cmaf/init.mp4',
    );
  });
});

describe('archiveHls', () => {
  it('stores the best rendition of MPEG-TS segments as one fragmented MP4 with its video track', async () => {
    const ctx = context();
    const file = await archiveHls(ctx, clientFor(ctx), `${server.url}/master.m3u8`, 'Process video.m3u8');
    expect(file?.name).toBe('Process video.mp4');
    const bytes = stored(file!);
    expect(boxes(bytes).slice(0, 2)).toEqual(['ftyp', 'moov']);
    expect(boxes(bytes).filter((box) => box === 'moof')).toHaveLength(3);
    expect(bytes.includes(Buffer.from('avc1'))).toBe(true);
    expect(await getFileByHash(t.db, file!.hash)).toMatchObject({ ext: '.mp4', mime: 'video/mp4', size: bytes.length });
    // Only the high rendition was fetched.
    expect(server.requests.some((request) => request.url.startsWith('/low/seg'))).toBe(false);
    expect(server.requests.filter((request) => request.url.startsWith('/high/seg'))).toHaveLength(3);
    expect(lines).toEqual([]);
  });

  it('joins fMP4 segments after their initialization section, byte for byte', async () => {
    const ctx = context();
    const file = await archiveHls(ctx, clientFor(ctx), `${server.url}/cmaf/index.m3u8`, 'clip');
    expect(stored(file!)).toEqual(Buffer.concat([CMAF.init, ...CMAF.fragments]));
  });

  it('decrypts AES-128 segments (IV from the playlist or the media sequence) to the same video as the clear stream', async () => {
    const ctx = context();
    const clear = await archiveHls(ctx, clientFor(ctx), `${server.url}/high/index.m3u8`, 'clear');
    const decrypted = await archiveHls(ctx, clientFor(ctx), `${server.url}/aes/index.m3u8`, 'aes');
    expect(decrypted?.hash).toBe(clear?.hash);
    expect(server.requests.filter((request) => request.url === '/key.bin')).toHaveLength(1);
  });

  it('logs and skips what cannot be archived: DRM, a missing segment, an empty playlist, a video over the cap', async () => {
    const ctx = context();
    expect(await archiveHls(ctx, clientFor(ctx), `${server.url}/sample-aes/index.m3u8`, 'drm')).toBeUndefined();
    expect(await archiveHls(ctx, clientFor(ctx), `${server.url}/missing/index.m3u8`, 'gone')).toBeUndefined();
    expect(await archiveHls(ctx, clientFor(ctx), `${server.url}/empty/index.m3u8`, 'empty')).toBeUndefined();
    const small = context({ IMPORTER_MAX_FILE_MB: '0.004' });
    expect(await archiveHls(small, clientFor(small), `${server.url}/high/index.m3u8`, 'big')).toBeUndefined();
    expect(lines).toEqual([
      'Skipped drm.mp4: encrypted with SAMPLE-AES.',
      'Skipped gone.mp4: the paysite answered 404.',
      'Skipped empty.mp4: its playlist has no segments.',
      'Skipped big.mp4: larger than 4 KB.',
    ]);
    expect(fs.readdirSync(path.join(t.dir, 'files', '.tmp'))).toEqual([]);
  });
});
