/**
 * Conditional answers for outside clients (docs/product.md#api-conventions): Last-Modified with If-Modified-Since, and
 * large cached JSON bodies with an ETag and gzip.
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { Request, Response } from 'express';

/**
 * Sets Last-Modified; answers 304 and returns true when the client's If-Modified-Since is not older.
 * HTTP dates have whole seconds, so the comparison is in seconds.
 */
export function answeredNotModified(req: Request, res: Response, lastModified: Date): boolean {
  const seconds = Math.floor(lastModified.getTime() / 1000);
  if (!Number.isFinite(seconds)) return false;
  res.set('Last-Modified', new Date(seconds * 1000).toUTCString());
  const since = Date.parse(req.get('if-modified-since') ?? '');
  if (Number.isNaN(since) || Math.floor(since / 1000) < seconds) return false;
  res.status(304).end();
  return true;
}

/** An ISO date without a zone, as the data modules store them, read as UTC. */
export function isoUtc(iso: string | null | undefined): Date {
  return new Date(iso ? `${iso.replace(/Z$/, '')}Z` : 0);
}

export interface CachedJson {
  body: Buffer;
  gzip: Buffer;
  etag: string;
}

export function cacheJson(value: unknown): CachedJson {
  const body = Buffer.from(JSON.stringify(value));
  return {
    body,
    gzip: zlib.gzipSync(body, { level: 6 }),
    etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
  };
}

/** Sends a cached body: 304 on a matching If-None-Match, gzip when accepted, the plain bytes otherwise. */
export function sendCachedJson(req: Request, res: Response, cached: CachedJson, maxAgeSeconds: number): void {
  res.set({ ETag: cached.etag, Vary: 'Accept-Encoding', 'Cache-Control': `public, max-age=${maxAgeSeconds}` });
  const inm = req.get('if-none-match');
  if (inm?.split(',').some((tag) => tag.trim() === cached.etag || tag.trim() === '*')) {
    res.status(304).end();
    return;
  }
  res.type('application/json');
  if (req.acceptsEncodings('gzip', 'identity') === 'gzip') {
    res.set('Content-Encoding', 'gzip').send(cached.gzip);
    return;
  }
  res.send(cached.body);
}
