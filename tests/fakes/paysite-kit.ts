/**
 * What the fake Fansly, OnlyFans and CandFans (tests/fakes/<site>.ts) share: real node:http hosts on
 * 127.0.0.1 that log every request, the fault knobs (429 / 5xx for the next N requests, a delay, a
 * clock that can be moved on), real media bytes (images made with sharp, the seed's small MP4, an HLS
 * split of it, short audio clips), HLS playlists, and CloudFront-style signed URLs that the CDN hosts
 * check (Policy + Signature + Key-Pair-Id, in the query or as CloudFront-* cookies, as CloudFront takes
 * them). CloudFront signs with RSA-SHA1; the fakes use HMAC-SHA256 under a secret of their own, since
 * only the fake has to verify them. Policy, Signature and Key-Pair-Id keep CloudFront's URL-safe base64
 * ('+' to '-', '=' to '_', '/' to '~').
 *
 * Media assets in tests/fakes/assets, made once with ffmpeg 5.1 (Debian 12) and committed:
 * - timelapse-{0,1,2}.mpegts: scripts/seed/assets/timelapse.mp4 re-encoded with a keyframe every
 *   second and split into three 1 s MPEG-TS segments (named .mpegts so no TypeScript tool reads them;
 *   the fakes serve them as .ts):
 *     ffmpeg -i scripts/seed/assets/timelapse.mp4 -c:v libx264 -profile:v baseline -pix_fmt yuv420p \
 *       -crf 34 -preset veryslow -g 12 -keyint_min 12 -sc_threshold 0 -an -f hls -hls_time 1 \
 *       -hls_playlist_type vod -hls_segment_filename 'timelapse-%d.mpegts' timelapse.m3u8
 * - tone.m4a (AAC in MP4, 1.5 s) and tone.mp3 (MP3, 1.5 s):
 *     ffmpeg -f lavfi -i "sine=frequency=440:duration=1.5:sample_rate=22050" -ac 1 -c:a aac -b:a 24k -movflags +faststart tone.m4a
 *     ffmpeg -f lavfi -i "sine=frequency=660:duration=1.5:sample_rate=22050" -ac 1 -c:a libmp3lame -b:a 24k tone.mp3
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';

export interface LoggedRequest {
  /** Which host of the fake answered: 'api', 'cdn', 'image', ... */
  host: string;
  method: string;
  /** Path and query as sent. */
  path: string;
  status: number;
  /** The request headers that matter to the site (auth, signing, CSRF), as sent. */
  headers: Record<string, string>;
}

export interface FakeHost {
  origin: string;
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => unknown;

/**
 * A host on 127.0.0.1 (port 0: any free one). Every request is logged with the status it got and the
 * `relevant` headers; `delayMs()` is waited before each answer.
 */
export async function startHost(name: string, port: number, log: LoggedRequest[], relevant: string[], delayMs: () => number, handler: Handler): Promise<FakeHost> {
  const server = http.createServer();
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const headers: Record<string, string> = {};
    for (const h of relevant) {
      const value = req.headers[h];
      if (value !== undefined) headers[h] = Array.isArray(value) ? value.join(', ') : value;
    }
    const record: LoggedRequest = { host: name, method: req.method ?? 'GET', path: url.pathname + url.search, status: 0, headers };
    log.push(record);
    const writeHead = res.writeHead.bind(res);
    res.writeHead = ((status: number, ...rest: never[]) => {
      record.status = status;
      return writeHead(status, ...rest);
    }) as typeof res.writeHead;
    const run = async () => {
      const delay = delayMs();
      if (delay > 0) await sleep(delay);
      await handler(req, res, url);
    };
    run().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fake ${name} crashed: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The knobs every fake has: 429 or a 5xx for the next N API requests, and a clock tests can move (the delay is the fake's own delayMs). */
export class Faults {
  private limited = { n: 0, retryAfter: 0 };
  private failing = { n: 0, status: 503 };
  private shiftMs = 0;

  rateLimit(n: number, retryAfterSeconds: number): void {
    this.limited = { n, retryAfter: retryAfterSeconds };
  }

  fail(n: number, status = 503): void {
    this.failing = { n, status };
  }

  /** The fault this request gets, if any (rate limits first), counted down. */
  next(): { kind: 'limit'; retryAfter: number } | { kind: 'fail'; status: number } | null {
    if (this.limited.n > 0) {
      this.limited.n--;
      return { kind: 'limit', retryAfter: this.limited.retryAfter };
    }
    if (this.failing.n > 0) {
      this.failing.n--;
      return { kind: 'fail', status: this.failing.status };
    }
    return null;
  }

  /** Moves the fake's clock on (signed URLs and signatures age with it). */
  advanceClock(seconds: number): void {
    this.shiftMs += seconds * 1000;
  }

  now(): number {
    return Date.now() + this.shiftMs;
  }
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendBytes(res: http.ServerResponse, type: string, bytes: Buffer | string, headers: Record<string, string> = {}): void {
  const body = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  res.writeHead(200, { 'content-type': type, 'content-length': body.length, ...headers });
  res.end(body);
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) cookies.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return cookies;
}

export function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

// ---------------------------------------------------------------------------------------------
// Media bytes

const imageCache = new Map<string, Promise<Buffer>>();

/** A real image whose colour comes from `seed`, so each seed has its own bytes. */
export function imageBytes(seed: string, format: 'png' | 'jpeg' | 'webp', width = 32, height = 24): Promise<Buffer> {
  const key = `${seed}|${format}|${width}x${height}`;
  let image = imageCache.get(key);
  if (!image) {
    const d = createHash('sha256').update(seed).digest();
    const base = sharp({ create: { width, height, channels: 3, background: { r: d[0], g: d[1], b: d[2] } } })
      .composite([{ input: { create: { width: Math.max(1, width >> 2), height: Math.max(1, height >> 2), channels: 3, background: { r: 255 - d[0], g: 255 - d[1], b: 255 - d[2] } } }, left: 1, top: 1 }]);
    image = (format === 'png' ? base.png() : format === 'jpeg' ? base.jpeg({ quality: 80 }) : base.webp()).toBuffer();
    imageCache.set(key, image);
  }
  return image;
}

const assetCache = new Map<string, Buffer>();
function asset(relative: string): Buffer {
  let bytes = assetCache.get(relative);
  if (!bytes) {
    bytes = fs.readFileSync(new URL(relative, import.meta.url));
    assetCache.set(relative, bytes);
  }
  return bytes;
}

/** The real media the fakes serve. */
export const media = {
  /** 3 s, 320x180, H.264 (scripts/seed/assets/timelapse.mp4). */
  mp4: () => asset('../../scripts/seed/assets/timelapse.mp4'),
  /** Its poster frame (WebP). */
  poster: () => asset('../../scripts/seed/assets/timelapse.poster.webp'),
  /** The same clip as three 1 s MPEG-TS segments. */
  segments: () => [0, 1, 2].map((n) => asset(`./assets/timelapse-${n}.mpegts`)),
  segmentSeconds: [1, 1, 1],
  m4a: () => asset('./assets/tone.m4a'),
  mp3: () => asset('./assets/tone.mp3'),
};

/** A master playlist naming its renditions (relative URIs, as the sites write them). */
export function hlsMaster(variants: { uri: string; width: number; height: number; bandwidth: number }[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3'];
  for (const v of variants) lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=${v.bandwidth},RESOLUTION=${v.width}x${v.height},CODECS="avc1.42c00d"`, v.uri);
  return `${lines.join('\n')}\n`;
}

/** A VOD media playlist of the clip's segments under these URIs. */
export function hlsMedia(uris: string[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:1', '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD'];
  uris.forEach((uri, i) => lines.push(`#EXTINF:${media.segmentSeconds[i].toFixed(6)},`, uri));
  lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

export const HLS_TYPE = 'application/vnd.apple.mpegurl';

// ---------------------------------------------------------------------------------------------
// CloudFront-style signed URLs

const cfEncode = (b64: string) => b64.replaceAll('+', '-').replaceAll('=', '_').replaceAll('/', '~');
const cfDecode = (text: string) => text.replaceAll('-', '+').replaceAll('_', '=').replaceAll('~', '/');

export interface CloudFrontParams {
  Policy: string;
  Signature: string;
  'Key-Pair-Id': string;
}

export type SignCheck = 'ok' | 'missing' | 'bad' | 'expired';

/** CloudFront's 403 bodies for each refusal. */
export const CLOUDFRONT_ERRORS: Record<Exclude<SignCheck, 'ok'>, string> = {
  missing: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>MissingKey</Code><Message>Missing Key-Pair-Id query parameter or cookie value</Message></Error>',
  bad: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access denied</Message></Error>',
  expired: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access denied</Message></Error>',
};

export class UrlSigner {
  constructor(
    private readonly secret: string,
    readonly keyPairId: string,
    private readonly now: () => number,
  ) {}

  private mac(policy: string): string {
    return cfEncode(createHmac('sha256', this.secret).update(policy).digest('base64'));
  }

  /** Signing parameters for `resource` (a URL, '*' allowed), valid for `ttlSeconds` from now. */
  params(resource: string, ttlSeconds: number): CloudFrontParams {
    const expires = Math.floor(this.now() / 1000) + ttlSeconds;
    const policy = cfEncode(Buffer.from(JSON.stringify({ Statement: [{ Resource: resource, Condition: { DateLessThan: { 'AWS:EpochTime': expires } } }] })).toString('base64'));
    return { Policy: policy, Signature: this.mac(policy), 'Key-Pair-Id': this.keyPairId };
  }

  /** `url` (without a query) with the signature of itself in its query. */
  sign(url: string, ttlSeconds: number, resource = url): string {
    const p = this.params(resource, ttlSeconds);
    const sep = url.includes('?') ? '&' : '?';
    return `${url}${sep}Policy=${p.Policy}&Signature=${p.Signature}&Key-Pair-Id=${p['Key-Pair-Id']}`;
  }

  /** Checks the signature of a request for `fullUrl` (origin + path), from the query or the CloudFront-* cookies. */
  check(fullUrl: string, query: URLSearchParams, cookies: Map<string, string>): SignCheck {
    const policy = query.get('Policy') ?? cookies.get('CloudFront-Policy');
    const signature = query.get('Signature') ?? cookies.get('CloudFront-Signature');
    const keyPair = query.get('Key-Pair-Id') ?? cookies.get('CloudFront-Key-Pair-Id');
    if (!policy || !signature || !keyPair) return 'missing';
    const expected = Buffer.from(this.mac(policy));
    const given = Buffer.from(signature);
    if (keyPair !== this.keyPairId || expected.length !== given.length || !timingSafeEqual(expected, given)) return 'bad';
    let statement: { Resource: string; Condition: { DateLessThan: { 'AWS:EpochTime': number } } };
    try {
      statement = JSON.parse(Buffer.from(cfDecode(policy), 'base64').toString()).Statement[0];
    } catch {
      return 'bad';
    }
    const pattern = new RegExp(`^${statement.Resource.split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    if (!pattern.test(fullUrl)) return 'bad';
    return statement.Condition.DateLessThan['AWS:EpochTime'] * 1000 > this.now() ? 'ok' : 'expired';
  }
}
