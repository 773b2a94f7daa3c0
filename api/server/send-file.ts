/**
 * Sends one file from disk the fast way (node:http, no framework): ETag and Last-Modified with 304,
 * HEAD, single byte ranges, and precompressed .br/.gz siblings chosen by Accept-Encoding.
 */
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { mimeForExt } from '../../src/lib/mime.ts';


const SMALL_FILE_BYTES = 256 * 1024;

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
  /** Sets Content-Disposition: attachment with this name. */
  downloadName?: string;
  extraHeaders?: Record<string, string>;
  /** Called when the client accepts compression but no sibling exists yet; may write them. */
  compressMissing?: (file: string) => boolean;
}

function pickEncoding(req: IncomingMessage, file: string): { encoding?: 'br' | 'gzip'; stat?: fs.Stats; path: string } {
  const accept = String(req.headers['accept-encoding'] ?? '');
  for (const [token, encoding, suffix] of [['br', 'br', '.br'], ['gzip', 'gzip', '.gz']] as const) {
    if (!new RegExp(`(^|[ ,])${token}(?!;q=0(?:[^.]|$))`).test(accept)) continue;
    const candidate = file + suffix;
    try {
      return { encoding, stat: fs.statSync(candidate), path: candidate };
    } catch {
      // no precompressed sibling: try the next encoding
    }
  }
  return { path: file };
}

function etagOf(stat: fs.Stats, encoding?: string): string {
  return `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}${encoding ? `-${encoding}` : ''}"`;
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
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return false;
  }
  if (!stat.isFile()) return false;

  const range = req.headers.range;
  let chosen = options.precompressed && !range ? pickEncoding(req, file) : { path: file };
  if (options.precompressed && !range && !chosen.encoding && /\b(br|gzip)\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    if (options.compressMissing?.(file)) chosen = pickEncoding(req, file);
  }
  const sendStat = chosen.stat ?? stat;
  const etag = etagOf(sendStat, chosen.encoding);

  res.setHeader('Content-Type', options.contentType ?? contentTypeFor(file));
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', stat.mtime.toUTCString());
  res.setHeader('Accept-Ranges', 'bytes');
  if (options.precompressed) res.setHeader('Vary', 'Accept-Encoding');
  if (options.cacheControl) res.setHeader('Cache-Control', options.cacheControl);
  if (options.downloadName) {
    res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(options.downloadName)}`);
  }
  for (const [name, value] of Object.entries(options.extraHeaders ?? {})) res.setHeader(name, value);

  if (notModified(req, etag, stat.mtime)) {
    res.statusCode = 304;
    res.end();
    return true;
  }

  let start = 0;
  let end = sendStat.size - 1;
  if (range && !chosen.encoding) {
    const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    const size = stat.size;
    if (match && (match[1] || match[2])) {
      if (match[1]) {
        start = Number(match[1]);
        end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
      } else {
        start = Math.max(0, size - Number(match[2]));
      }
      if (start > end || start >= size) {
        res.statusCode = 416;
        res.setHeader('Content-Range', `bytes */${size}`);
        res.end();
        return true;
      }
      res.statusCode = 206;
      res.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
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
  // Small files (pages, most assets) are read whole: cheaper than a stream per request.
  if (end - start < SMALL_FILE_BYTES) {
    let body: Buffer;
    try {
      body = fs.readFileSync(chosen.path);
    } catch {
      res.destroy();
      return true;
    }
    res.end(start === 0 && end === body.length - 1 ? body : body.subarray(start, end + 1));
    return true;
  }
  const stream = fs.createReadStream(chosen.path, { start, end });
  stream.on('error', () => res.destroy());
  stream.pipe(res);
  return true;
}
