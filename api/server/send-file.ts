/**
 * Sends one file from disk the fast way (node:http, no framework): ETag and Last-Modified with 304,
 * HEAD, single byte ranges (with If-Range), and precompressed .br/.gz siblings chosen by Accept-Encoding.
 */
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { mimeForExt } from '@shared/mime.ts';
import { unlessAbsent } from './fs-errors.ts';

const SMALL_FILE_BYTES = 256 * 1024;
/**
 * Read size for streamed answers. Measured on a 1 MiB file (docs/benchmarks.md): the default 64 KiB
 * chunks served about 840 requests/s, 512 KiB chunks about 1,360; each download holds one chunk.
 */
const STREAM_CHUNK_BYTES = 512 * 1024;

export function contentTypeFor(file: string): string {
  return mimeForExt(path.extname(file));
}

/** Types worth keeping precompressed next to the file. */
export function isCompressible(file: string): boolean {
  return /\.(html|css|js|mjs|json|txt|xml|svg)$/i.test(file);
}

export interface SendFileOptions {
  cacheControl?: string;
  /** Look for `<file>.br` and `<file>.gz` and send the one the client accepts. */
  precompressed?: boolean;
  contentType?: string;
  /** Sets Content-Disposition with this name (see contentDisposition). */
  downloadName?: string;
  /** 'attachment' (the default) makes browsers download; 'inline' only names a save. */
  disposition?: 'attachment' | 'inline';
  /** A strong validator to use instead of the size-and-mtime one (e.g. a content hash). */
  etag?: string;
  extraHeaders?: Record<string, string>;
  /** Called when the client accepts compression but no sibling exists yet; may write them. */
  compressMissing?: (file: string) => boolean;
  /**
   * nginx in front sends the bytes: the answer carries the headers decided here and `X-Accel-Redirect`
   * to this internal URI instead of a body (nginx then does Range itself). Conditional requests are
   * still answered here.
   */
  accelRedirect?: string;
}

/**
 * The precompressed siblings in order of preference, each with the Accept-Encoding token that allows it
 * (not q=0). nginx's configuration (api/cluster/nginx.ts) tests the same patterns.
 */
export const ENCODINGS = [
  { encoding: 'br', suffix: '.br', accepted: /(^|[ ,])br(?!;q=0(?:[^.]|$))/ },
  { encoding: 'gzip', suffix: '.gz', accepted: /(^|[ ,])gzip(?!;q=0(?:[^.]|$))/ },
] as const;

function pickEncoding(req: IncomingMessage, file: string): { encoding?: 'br' | 'gzip'; stat?: fs.Stats; path: string } {
  const accept = String(req.headers['accept-encoding'] ?? '');
  for (const { encoding, suffix, accepted } of ENCODINGS) {
    if (!accepted.test(accept)) continue;
    const candidate = file + suffix;
    // No precompressed sibling: try the next encoding.
    const stat = unlessAbsent(() => fs.statSync(candidate), undefined);
    if (stat) return { encoding, stat, path: candidate };
  }
  return { path: file };
}

/**
 * What a download name loses: control characters (no header injection), invisible format characters
 * (Unicode Cf), among them the bidi controls U+202A-U+202E, U+2066-U+2069, U+200E/U+200F and U+061C
 * that would show 'x\u202Egnp.html' as 'xlmth.png', and line or paragraph separators. Zero-width
 * joiners and non-joiners stay: emoji sequences and several scripts need them and they reorder nothing.
 */
const HIDDEN_IN_NAMES = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * A download name as shown: without the characters of HIDDEN_IN_NAMES, trimmed, at most 255 code
 * points (cut between code points: half a surrogate pair would make encodeURIComponent throw).
 */
export function cleanDownloadName(name: string): string {
  return Array.from(name.toWellFormed().replace(HIDDEN_IN_NAMES, '').trim()).slice(0, 255).join('');
}

/**
 * A Content-Disposition value safe for any name: the name is cleaned (cleanDownloadName), `filename`
 * is a quoted ASCII fallback and `filename*` the UTF-8 name (RFC 6266, 5987).
 */
export function contentDisposition(kind: 'attachment' | 'inline', name?: string): string {
  const clean = cleanDownloadName(name ?? '');
  if (!clean) return kind;
  const ascii = clean
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const extended = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${extended}`;
}

function etagOf(stat: fs.Stats, encoding?: string): string {
  return `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}${encoding ? `-${encoding}` : ''}"`;
}

/** If-Range: the range applies only while the client's validator still names this file. */
function rangeStillValid(req: IncomingMessage, etag: string, mtime: Date): boolean {
  const ifRange = req.headers['if-range'];
  if (typeof ifRange !== 'string') return true;
  if (ifRange.startsWith('"')) return ifRange === etag;
  if (ifRange.startsWith('W/')) return false;
  const date = Date.parse(ifRange);
  return Number.isFinite(date) && Math.floor(mtime.getTime() / 1000) === Math.floor(date / 1000);
}

/** One `bytes=` range against `size`: the span, 'unsatisfiable', or undefined to send the whole file. */
export function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (!match[1] && !match[2])) return undefined;
  let start: number;
  let end: number;
  if (match[1]) {
    start = Number(match[1]);
    // A last position before the first is not a valid range: the header is ignored (RFC 9110 14.1.1).
    if (match[2] && Number(match[2]) < start) return undefined;
    end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  } else {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  }
  return start >= size ? 'unsatisfiable' : { start, end };
}

/** Reads `length` bytes at `start` without reading the rest of the file. */
function readSpan(file: string, start: number, length: number): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const body = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const read = fs.readSync(fd, body, done, length - done, start + done);
      if (read === 0) break;
      done += read;
    }
    return done === length ? body : body.subarray(0, done);
  } finally {
    fs.closeSync(fd);
  }
}

function notModified(req: IncomingMessage, etag: string, mtime: Date): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch) return ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*');
  const since = req.headers['if-modified-since'];
  if (!since) return false;
  const sinceMs = Date.parse(since);
  return Number.isFinite(sinceMs) && Math.floor(mtime.getTime() / 1000) <= Math.floor(sinceMs / 1000);
}

/**
 * Sends `file` (already resolved inside a trusted root). Returns false when it does not exist,
 * so the caller can fall through to the next handler.
 */
export function sendFile(req: IncomingMessage, res: ServerResponse, file: string, options: SendFileOptions = {}): boolean {
  const stat = unlessAbsent(() => fs.statSync(file), undefined);
  if (!stat?.isFile()) return false;

  const range = req.headers.range;
  let chosen = options.precompressed && !range ? pickEncoding(req, file) : { path: file };
  if (options.precompressed && !range && !chosen.encoding && /\b(br|gzip)\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    if (options.compressMissing?.(file)) chosen = pickEncoding(req, file);
  }
  const sendStat = chosen.stat ?? stat;
  const etag = options.etag ?? etagOf(sendStat, chosen.encoding);

  res.setHeader('Content-Type', options.contentType ?? contentTypeFor(file));
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', stat.mtime.toUTCString());
  res.setHeader('Accept-Ranges', 'bytes');
  if (options.precompressed) res.setHeader('Vary', 'Accept-Encoding');
  if (options.cacheControl) res.setHeader('Cache-Control', options.cacheControl);
  if (options.downloadName !== undefined) {
    res.setHeader('Content-Disposition', contentDisposition(options.disposition ?? 'attachment', options.downloadName));
  }
  for (const [name, value] of Object.entries(options.extraHeaders ?? {})) res.setHeader(name, value);

  if (notModified(req, etag, stat.mtime)) {
    res.statusCode = 304;
    res.end();
    return true;
  }
  if (options.accelRedirect) {
    res.setHeader('X-Accel-Redirect', options.accelRedirect);
    res.end();
    return true;
  }

  let start = 0;
  let end = sendStat.size - 1;
  if (range && !chosen.encoding && rangeStillValid(req, etag, stat.mtime)) {
    const span = parseRange(range, stat.size);
    if (span === 'unsatisfiable') {
      res.statusCode = 416;
      res.setHeader('Content-Range', `bytes */${stat.size}`);
      res.end();
      return true;
    }
    if (span) {
      ({ start, end } = span);
      res.statusCode = 206;
      res.setHeader('Content-Range', `bytes ${start}-${end}/${stat.size}`);
    }
  }
  if (chosen.encoding) res.setHeader('Content-Encoding', chosen.encoding);
  res.setHeader('Content-Length', end - start + 1);

  if (req.method === 'HEAD') {
    res.end();
    return true;
  }
  if (sendStat.size === 0) {
    res.end();
    return true;
  }
  // Small files (pages, most assets) are read in one blocking call: cheaper than a stream. A range of
  // a large file is streamed like the whole file: blocking reads of a busy file server's ranges kept
  // the event loop waiting on the disk (measured: 64 KiB ranges at half a bare server's rate).
  if (sendStat.size < SMALL_FILE_BYTES) {
    let body: Buffer;
    try {
      body = start === 0 && end === sendStat.size - 1 ? fs.readFileSync(chosen.path) : readSpan(chosen.path, start, end - start + 1);
    } catch (error) {
      // The file went away or became unreadable after it was chosen: end the answer as a failed one.
      res.destroy(error as Error);
      return true;
    }
    res.end(body);
    return true;
  }
  const stream = fs.createReadStream(chosen.path, { start, end, highWaterMark: STREAM_CHUNK_BYTES });
  stream.on('error', () => res.destroy());
  stream.pipe(res);
  return true;
}
