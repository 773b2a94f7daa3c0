/**
 * Real media bytes and small server helpers shared by the fakes of Fantia, SubscribeStar and Gumroad:
 * PNG/JPEG images drawn by sharp (colour from the name, so each name has its own bytes and hash), the
 * demo seed's real MP4/WebM clips (scripts/seed/assets), a real MP3 (silent MPEG-1 Layer III frames), a
 * real PDF and real zips (yazl), all chosen by the file name's extension; CDN-style URL signatures (an
 * HMAC the fake checks, with an expiry against the fake's own clock); the request log; and the
 * rateLimit/fail/delay knobs every fake has.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { zipBuffer } from '../../scripts/seed/archives.ts';

const ASSETS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/seed/assets');

const cache = new Map<string, Promise<Buffer>>();
const memo = (key: string, make: () => Promise<Buffer>) => {
  let value = cache.get(key);
  if (!value) cache.set(key, (value = make()));
  return value;
};

function colour(name: string) {
  let h = 2166136261;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return { r: h & 255, g: (h >>> 8) & 255, b: (h >>> 16) & 255 };
}

/** A small real PNG whose colour comes from `name`. */
export const pngFor = (name: string, width = 16, height = 12) =>
  memo(`png:${name}:${width}x${height}`, () => sharp({ create: { width, height, channels: 3, background: colour(name) } }).png().toBuffer());

/** A small real JPEG whose colour comes from `name`. */
export const jpegFor = (name: string, width = 16, height = 12) =>
  memo(`jpeg:${name}:${width}x${height}`, () => sharp({ create: { width, height, channels: 3, background: colour(name) } }).jpeg().toBuffer());

/** The demo seed's 3 s H.264 MP4 (320x180, ~9 KB). */
export const mp4Bytes = () => memo('mp4', async () => fs.readFileSync(path.join(ASSETS, 'timelapse.mp4')));
/** The demo seed's 3 s VP9 WebM. */
export const webmBytes = () => memo('webm', async () => fs.readFileSync(path.join(ASSETS, 'preview.webm')));
/** The MP4's poster frame (WebP). */
export const posterBytes = () => memo('poster', async () => fs.readFileSync(path.join(ASSETS, 'timelapse.poster.webp')));

/**
 * A real MP3: an ID3v2.3 tag with the title, then 20 silent MPEG-1 Layer III frames (128 kbit/s,
 * 44.1 kHz, mono; all-zero side information decodes as silence), about half a second.
 */
export function mp3Bytes(title = 'Fake audio'): Buffer {
  const text = Buffer.from(`\u0000${title}`, 'latin1');
  const frame = Buffer.concat([Buffer.from('TIT2'), u32(text.length), Buffer.from([0, 0]), text]);
  const size = frame.length;
  const id3 = Buffer.concat([Buffer.from('ID3\u0003\u0000\u0000', 'latin1'), Buffer.from([(size >> 21) & 127, (size >> 14) & 127, (size >> 7) & 127, size & 127]), frame]);
  const mpeg = Buffer.alloc(417);
  mpeg.set([0xff, 0xfb, 0x90, 0xc4]);
  return Buffer.concat([id3, ...Array.from({ length: 20 }, () => mpeg)]);
}

function u32(n: number) {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

/** A real one-page PDF showing `text`, with a correct cross-reference table. */
export function pdfBytes(text: string): Buffer {
  const safe = text.replace(/[^\x20-\x7e]/g, '?').replace(/[()\\]/g, '\\$&');
  const stream = `BT /F1 12 Tf 20 60 Td (${safe}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 120] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A real zip holding a readme and a small PNG, named after the archive. */
export const zipFor = (name: string) =>
  memo(`zip:${name}`, async () =>
    zipBuffer([
      { name: 'readme.txt', data: Buffer.from(`${name}: files from the fake paysite.\n`) },
      { name: 'images/preview.png', data: await pngFor(`${name}/preview`) },
    ]),
  );

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  pdf: 'application/pdf',
  zip: 'application/zip',
  txt: 'text/plain; charset=utf-8',
};

export const extensionOf = (name: string) => /\.([a-z0-9]+)$/i.exec(name)?.[1].toLowerCase() ?? '';
export const mimeOf = (name: string) => TYPES[extensionOf(name)] ?? 'application/octet-stream';

/** Bytes and Content-Type for a file name, by its extension (unknown extensions get a PNG's bytes). */
export async function bytesFor(name: string): Promise<{ bytes: Buffer; type: string }> {
  const ext = extensionOf(name);
  const bytes =
    ext === 'jpg' || ext === 'jpeg'
      ? await jpegFor(name)
      : ext === 'mp4'
        ? await mp4Bytes()
        : ext === 'webm'
          ? await webmBytes()
          : ext === 'webp'
            ? await posterBytes()
            : ext === 'mp3'
              ? mp3Bytes(name)
              : ext === 'pdf'
                ? pdfBytes(name)
                : ext === 'zip'
                  ? await zipFor(name)
                  : ext === 'txt'
                    ? Buffer.from(`${name}\n`)
                    : await pngFor(name);
  return { bytes, type: mimeOf(name) };
}

/** HMAC signatures over a text (a path and an expiry), with a secret of this fake only. */
export class Signer {
  private secret = randomBytes(32);
  sign(text: string): string {
    return createHmac('sha256', this.secret).update(text).digest('base64url');
  }
  check(text: string, signature: string | null): boolean {
    if (!signature) return false;
    const want = Buffer.from(this.sign(text));
    const got = Buffer.from(signature);
    return want.length === got.length && timingSafeEqual(want, got);
  }
}

/** One logged request, as the fakes record them. */
export interface FakeRequestLog {
  method: string;
  /** Which of the fake's servers answered ('site', 'cdn', or a site's own name for the host). */
  host: string;
  /** Path with query. */
  path: string;
  status: number;
  /** The request headers that matter to the site (cookie, CSRF token, X-Requested-With, Referer...). */
  headers: Record<string, string>;
}

/** Records every request's status as the handler writes its head. */
export function logRequest(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  host: string,
  log: FakeRequestLog[],
  names: string[],
): void {
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = req.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const record: FakeRequestLog = { method: req.method ?? 'GET', host, path: req.url ?? '/', status: 0, headers };
  log.push(record);
  const writeHead = res.writeHead.bind(res);
  res.writeHead = ((status: number, ...rest: never[]) => {
    record.status = status;
    return writeHead(status, ...rest);
  }) as typeof res.writeHead;
}

/** The knobs of trouble every fake has: the next n requests answer 429 or a 5xx; a delay. */
export class Trouble {
  limited = { n: 0, retryAfter: 0 };
  failing = { n: 0, status: 503 };
  delayMs = 0;
  async wait() {
    if (this.delayMs > 0) await sleep(this.delayMs);
  }
  /** 'limit' or 'fail' when this request is the one to refuse (and counts it), else null. */
  take(): { kind: 'limit'; retryAfter: number } | { kind: 'fail'; status: number } | null {
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
}

export function send(res: http.ServerResponse, status: number, body: string | Buffer, type: string, headers: Record<string, string> = {}) {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'content-type': type, 'content-length': String(bytes.length), ...headers });
  res.end(bytes);
}

export const sendJson = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  send(res, status, JSON.stringify(body), 'application/json; charset=utf-8', headers);

export const sendHtml = (res: http.ServerResponse, status: number, html: string, headers: Record<string, string> = {}) =>
  send(res, status, html, 'text/html; charset=utf-8', headers);

/** A Rails redirect: the status, Location, and Rails' own small "You are being redirected." body. */
export function railsRedirect(res: http.ServerResponse, location: string, status = 302, headers: Record<string, string> = {}) {
  sendHtml(res, status, `<html><body>You are being <a href="${escapeHtml(location)}">redirected</a>.</body></html>`, { location, ...headers });
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The cookies of a request, by name (values as sent, not decoded). */
export function cookiesOf(req: http.IncomingMessage): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(/;\s*/)) {
    const at = part.indexOf('=');
    if (at > 0) out.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return out;
}

/** Reads a small request body (forms). */
export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function closeServer(server: http.Server) {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
