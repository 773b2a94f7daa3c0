/**
 * Shared pieces of the fake Boosty, Afdian and DLsite servers (tests/fakes/boosty.ts, afdian.ts, dlsite.ts):
 * real media bytes (PNG/JPEG drawn with sharp, the seed clip of scripts/seed/assets, a silent MP3 made of
 * real MPEG-1 Layer III frames, zips from yazl and a stored zip with Shift-JIS names as DLsite's archives
 * have), an HTTP server wrapper that logs every request (method, host role, path, status, the headers that
 * matter to that site) and waits `delayMs`, the rate-limit / 5xx knobs, and byte answers with Range.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import zlib from 'node:zlib';
import sharp from 'sharp';
import yazl from 'yazl';

export interface FakeRequestLog {
  method: string;
  /** Which real host the request stood for ('api', 'cdn', 'www', 'play', ...). */
  host: string;
  /** Path with the query string. */
  path: string;
  status: number;
  /** Only the headers that matter to the site (auth, cookies, Origin/Referer, Range, ...). */
  headers: Record<string, string>;
}

const images = new Map<string, Promise<Buffer>>();

/** A small real image whose colour comes from its name, so every name has its own bytes (and hash). */
export function imageFor(name: string, format: 'png' | 'jpeg' = 'png', width = 16, height = 12): Promise<Buffer> {
  const cacheKey = `${format}:${width}x${height}:${name}`;
  let image = images.get(cacheKey);
  if (!image) {
    const d = createHash('sha256').update(name).digest();
    const base = sharp({ create: { width, height, channels: 3, background: { r: d[0], g: d[1], b: d[2] } } });
    image = (format === 'png' ? base.png() : base.jpeg({ quality: 80 })).toBuffer();
    images.set(cacheKey, image);
  }
  return image;
}

const SEED_ASSETS = new URL('../../scripts/seed/assets/', import.meta.url);
/** The 3 s 320x180 H.264 clip of the demo seed (9 KB, +faststart). */
export const demoMp4 = (): Buffer => fs.readFileSync(new URL('timelapse.mp4', SEED_ASSETS));
/** Its poster frame (WebP). */
export const demoPoster = (): Buffer => fs.readFileSync(new URL('timelapse.poster.webp', SEED_ASSETS));

/**
 * About `seconds` of silence as a real MP3: MPEG-1 Layer III frames, 128 kbit/s, 44.1 kHz, mono
 * (header FF FB 90 C4, 417 bytes a frame); all-zero side information decodes as silence.
 */
export function silentMp3(seconds = 1): Buffer {
  const frames = Math.max(1, Math.round((seconds * 44100) / 1152));
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0xc4]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

export interface ZipEntry {
  name: string;
  data: Buffer | string;
}

/** A real zip (yazl, deflated, UTF-8 names with the language-encoding flag). */
export async function zipOf(entries: ZipEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addBuffer(Buffer.from(e.data), e.name, { mtime: new Date('2024-05-01T12:00:00Z') });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

let sjisTable: Map<string, number[]> | null = null;
/** Shift-JIS (cp932) bytes of a string, from the reverse of the runtime's own shift_jis decoder. */
export function shiftJis(text: string): Buffer {
  if (!sjisTable) {
    sjisTable = new Map();
    const decoder = new TextDecoder('shift_jis');
    for (let lead = 0x81; lead <= 0xfc; lead++) {
      if (lead > 0x9f && lead < 0xe0) continue;
      for (let trail = 0x40; trail <= 0xfc; trail++) {
        const ch = decoder.decode(Uint8Array.of(lead, trail));
        if (ch.length === 1 && ch !== '\ufffd' && !sjisTable.has(ch)) sjisTable.set(ch, [lead, trail]);
      }
    }
  }
  const bytes: number[] = [];
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) bytes.push(ch.charCodeAt(0));
    else {
      const pair = sjisTable.get(ch);
      if (!pair) throw new Error(`no Shift-JIS code for ${ch}`);
      bytes.push(...pair);
    }
  }
  return Buffer.from(bytes);
}

/**
 * A stored zip whose entry names are cp932 bytes WITHOUT the UTF-8 flag, as the Windows tools of DLsite's
 * circles write them (a lister must guess the encoding to show 日本語 names).
 */
export function cp932Zip(entries: ZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = shiftJis(e.name);
    const data = Buffer.from(e.data);
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x58a1, 12); // DOS date 2024-05-01, time 00:00
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    parts.push(local, name, data);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x58a1, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(data.length, 20);
    header.writeUInt32LE(data.length, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

export const hmacHex = (secret: string, ...parts: (string | number)[]) => createHmac('sha256', secret).update(parts.join('\n')).digest('hex');
export const md5Hex = (text: string) => createHash('md5').update(text).digest('hex');
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function cookiesOf(req: http.IncomingMessage): Map<string, string> {
  const jar = new Map<string, string>();
  for (const pair of (req.headers.cookie ?? '').split(/;\s*/)) {
    const i = pair.indexOf('=');
    if (i > 0) jar.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
  }
  return jar;
}

export async function readBody(req: http.IncomingMessage, limit = 1 << 20): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendText(res: http.ServerResponse, status: number, type: string, body: string, headers: Record<string, string | string[]> = {}) {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export const htmlPage = (title: string, body: string) =>
  `<!DOCTYPE html>\n<html lang="ja"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

/** Bytes with Range support: 206 with Content-Range for `bytes=a-b` / `a-` / `-n`, 416 past the end. */
export function sendBytes(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, type: string, headers: Record<string, string> = {}) {
  const common = { 'content-type': type, 'accept-ranges': 'bytes', ...headers };
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (req.headers.range && range && (range[1] || range[2])) {
    let start = range[1] ? Number(range[1]) : Math.max(0, body.length - Number(range[2]));
    let end = range[1] && range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
    if (!range[1]) end = body.length - 1;
    if (start >= body.length || start > end) {
      res.writeHead(416, { ...common, 'content-range': `bytes */${body.length}`, 'content-length': 0 });
      return res.end();
    }
    start = Math.max(0, start);
    res.writeHead(206, { ...common, 'content-range': `bytes ${start}-${end}/${body.length}`, 'content-length': end - start + 1 });
    return res.end(req.method === 'HEAD' ? undefined : body.subarray(start, end + 1));
  }
  res.writeHead(200, { ...common, 'content-length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The "next n requests answer 429 / 5xx" knobs. */
export class Trouble {
  private limited = { n: 0, retryAfter: 0 };
  private failing = { n: 0, status: 503 };
  rateLimit(n: number, retryAfterSeconds: number) {
    this.limited = { n, retryAfter: retryAfterSeconds };
  }
  fail(n: number, status = 503) {
    this.failing = { n, status };
  }
  /** Takes one from the counters: a 429 first, then a failure, else null. */
  take(): { status: 429; retryAfter: number } | { status: number; retryAfter?: undefined } | null {
    if (this.limited.n > 0) {
      this.limited.n--;
      return { status: 429, retryAfter: this.limited.retryAfter };
    }
    if (this.failing.n > 0) {
      this.failing.n--;
      return { status: this.failing.status };
    }
    return null;
  }
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => Promise<unknown> | unknown;

export interface FakeHttp {
  origin: string;
  server: http.Server;
  close(): Promise<void>;
}

/**
 * A node:http server on 127.0.0.1 that logs each request into `log` (with the given header names), waits
 * `delay()` ms first, and answers 500 when the handler throws.
 */
export async function listen(options: {
  port?: number;
  host: string | ((url: URL) => string);
  log: FakeRequestLog[];
  headers: string[];
  delay: () => number;
  handler: Handler;
}): Promise<FakeHttp> {
  const server = http.createServer();
  let origin = '';
  server.on('request', async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const headers: Record<string, string> = {};
    for (const name of options.headers) {
      const value = req.headers[name];
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const host = typeof options.host === 'string' ? options.host : options.host(url);
    const entry: FakeRequestLog = { method: req.method ?? 'GET', host, path: url.pathname + url.search, status: 0, headers };
    options.log.push(entry);
    const writeHead = res.writeHead.bind(res);
    res.writeHead = ((status: number, ...rest: never[]) => {
      entry.status = status;
      return writeHead(status, ...rest);
    }) as typeof res.writeHead;
    try {
      const delay = options.delay();
      if (delay > 0) await sleep(delay);
      await options.handler(req, res, url);
    } catch (error) {
      if (!res.headersSent) sendText(res, 500, 'text/plain', `fake server error: ${(error as Error).message}`);
      else res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Opens a zip the way an unzipper does (end record, central directory, local headers, inflate, CRC check)
 * and returns its entries; names without the UTF-8 flag are decoded as cp932. Throws on a broken zip.
 */
export function readZip(zip: Buffer): { name: string; data: Buffer }[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip: no end of central directory');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries: { name: string; data: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('broken central directory');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const packed = zip.readUInt32LE(at + 20);
    const [nameLength, extraLength, commentLength] = [28, 30, 32].map((o) => zip.readUInt16LE(at + o));
    const local = zip.readUInt32LE(at + 42);
    const rawName = zip.subarray(at + 46, at + 46 + nameLength);
    const name = flags & 0x0800 ? rawName.toString('utf8') : new TextDecoder('shift_jis').decode(rawName);
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error('broken local header');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const body = zip.subarray(start, start + packed);
    const data = method === 8 ? zlib.inflateRawSync(body) : Buffer.from(body);
    if (zlib.crc32(data) !== crc) throw new Error(`bad CRC for ${name}`);
    entries.push({ name, data });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
