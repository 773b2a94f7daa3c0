/**
 * Media paths (SPEC.md section 2): /data/ab/cd/<sha256>.<ext> and the bare /ab/cd/<sha256>.<ext>,
 * served from the content-addressed store; `?f=name` only sets the download name.
 * Thumbnails, icons and banners arrive with the media issue.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { sendFile } from './send-file.ts';

const FILE_PATH = /^\/(?:data\/)?([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})\.([a-z0-9]{1,10})$/;

export function serveMedia(req: IncomingMessage, res: ServerResponse, url: URL, filesDir: string): boolean {
  const match = FILE_PATH.exec(url.pathname);
  if (!match) return false;
  const [, first, second, hash, ext] = match;
  if (!hash.startsWith(first + second)) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.statusCode = 405;
    res.setHeader('Allow', 'GET, HEAD');
    res.end();
    return true;
  }
  const file = path.join(filesDir, first, second, `${hash}.${ext}`);
  const downloadName = url.searchParams.get('f') ?? undefined;
  if (sendFile(req, res, file, { cacheControl: 'public, max-age=31536000, immutable', downloadName })) return true;
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end('File not found.');
  return true;
}
