/**
 * Media paths (SPEC.md section 2): /data/ab/cd/<sha256>.<ext> and the bare /ab/cd/<sha256>.<ext> from
 * the content-addressed store (`?f=name` only sets the download name), /thumbnail/data/... (the original
 * image until the media work generates real thumbnails), and creator icons and banners.
 */
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { isPaysite } from '../../src/lib/paysites.ts';
import { sendFile } from './send-file.ts';

const FILE_PATH = /^\/(thumbnail\/data\/|data\/)?([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})\.([a-z0-9]{1,10})$/;
const PORTRAIT_PATH = /^\/(icons|banners)\/([a-z]+)\/([^/]{1,200})$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface MediaDirs {
  files: string;
  icons: string;
  banners: string;
}

function notFound(res: ServerResponse): true {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end('File not found.');
  return true;
}

/** Image type from the first bytes (icons and banners are stored without an extension). */
function sniffImageType(file: string): string | undefined {
  let head: Buffer;
  try {
    const fd = fs.openSync(file, 'r');
    head = Buffer.alloc(12);
    fs.readSync(fd, head, 0, 12, 0);
    fs.closeSync(fd);
  } catch {
    return undefined;
  }
  if (head[0] === 0x89 && head.toString('latin1', 1, 4) === 'PNG') return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8) return 'image/jpeg';
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (head.toString('latin1', 0, 3) === 'GIF') return 'image/gif';
  return undefined;
}

export function serveMedia(req: IncomingMessage, res: ServerResponse, url: URL, dirs: MediaDirs): boolean {
  const file = FILE_PATH.exec(url.pathname);
  const portrait = file ? undefined : PORTRAIT_PATH.exec(url.pathname);
  if (!file && !portrait) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.statusCode = 405;
    res.setHeader('Allow', 'GET, HEAD');
    res.end();
    return true;
  }
  if (file) {
    const [, , first, second, hash, ext] = file;
    if (!hash.startsWith(first + second)) return notFound(res);
    const onDisk = path.join(dirs.files, first, second, `${hash}.${ext}`);
    const downloadName = url.searchParams.get('f') ?? undefined;
    return sendFile(req, res, onDisk, { cacheControl: IMMUTABLE, downloadName }) || notFound(res);
  }
  const [, kind, service, rawId] = portrait!;
  let id: string;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    return notFound(res);
  }
  if (!isPaysite(service) || id.includes('/') || id.includes('\\') || id === '.' || id === '..') return notFound(res);
  const onDisk = path.join(kind === 'icons' ? dirs.icons : dirs.banners, service, id);
  const contentType = sniffImageType(onDisk);
  if (!contentType) return notFound(res);
  return sendFile(req, res, onDisk, { cacheControl: 'public, max-age=86400', contentType }) || notFound(res);
}
