/**
 * Media paths (docs/product.md#media-paths, docs/product.md#files-api): /data/ab/cd/<sha256>.<ext> and the bare
 * /ab/cd/<sha256>.<ext> from the content-addressed store (`?f=name` only names the download),
 * /thumbnail/data/ab/cd/<sha256>.<ext>, and creator icons and banners (a default image when the creator has
 * none).
 *
 * Paths are matched on the request's raw path, before any decoding or dot-segment removal, and only
 * that exact shape is answered: anything else under a media prefix is a 404, so no encoding of `..`
 * can reach another folder of DATA_DIR.
 */
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mimeForExt } from '@shared/mime.ts';
import { isPaysite } from '@shared/paysites/index.ts';
import { Thumbnailer, type ThumbnailerOptions } from '../media/thumbnails.ts';
import { sendFile } from './send-file.ts';
import { unlessAbsent } from './fs-errors.ts';
import { sniffImageType } from '../media/image-type.ts';
import { decodeComponent } from '@shared/parse.ts';
import { ACCEL_FILES_HEADER, IMMUTABLE } from './response-headers.ts';

export interface MediaOptions {
  files: string;
  icons: string;
  banners: string;
  /** Thumbnail cache; defaults to `thumbnails` beside `files` (dataPaths). */
  thumbnails?: string;
  /** The media type recorded for a stored file (api/data/files.ts), when there is a record. */
  mimeOf?: (sha256: string) => Promise<string | null | undefined>;
  /** ICONS_PATH / BANNERS_PATH when they are paths on this server other than /icons and /banners. */
  iconsPath?: string;
  bannersPath?: string;
  thumbnailer?: Partial<Omit<ThumbnailerOptions, 'filesDir' | 'thumbnailsDir'>>;
  log?: (line: string) => void;
}

export type MediaHandler = ((req: IncomingMessage, res: ServerResponse) => boolean) & { thumbnailer: Thumbnailer };

const PORTRAIT_CACHE = 'public, max-age=86400';
/** Defaults and placeholders stand in until the real image exists: keep them briefly. */
const STAND_IN_CACHE = 'public, max-age=600';
const SANDBOX = "sandbox; default-src 'none'";
/** The internal location ACCEL_FILES_HEADER may name: one plain folder. */
const ACCEL_PREFIX = /^\/[a-z_]+\/$/;
const TYPE_CACHE_ENTRIES = 50_000;

const PUBLIC_MEDIA = fileURLToPath(new URL('../../public/media/', import.meta.url));
export const DEFAULT_ICON = path.join(PUBLIC_MEDIA, 'default-icon.webp');
export const DEFAULT_BANNER = path.join(PUBLIC_MEDIA, 'default-banner.webp');
export const THUMBNAIL_PLACEHOLDER = path.join(PUBLIC_MEDIA, 'thumbnail-placeholder.webp');

const FILE_PATH = /^\/(thumbnail\/data\/|data\/)?([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})\.([a-z0-9]{1,16})$/;
/** Everything these prefixes start is ours to answer (or refuse), never the pages'. */
const MEDIA_PREFIX = /^\/(?:(?:data|thumbnail|icons|banners)(?:[/\\]|%2f|%5c|$)|[0-9a-f]{2}\/[0-9a-f]{2}\/)/i;

/**
 * Types a browser shows without running anything. Every other type (HTML, SVG, XML, PDF, scripts,
 * unknown ones) is sent as a download under a sandboxing CSP.
 */
const INLINE_SAFE =
  /^(?:image\/(?:png|jpeg|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon|tiff|apng|vnd\.adobe\.photoshop)|(?:video|audio)\/[a-z0-9.+-]+|text\/plain|application\/(?:octet-stream|zip|x-zip-compressed|x-7z-compressed|vnd\.rar|x-rar-compressed|x-tar|gzip|x-gzip))$/;

/** The bare type of a recorded media type, or undefined when it is not a well-formed type. */
function recordedType(value: string | null | undefined): string | undefined {
  const bare = value?.split(';')[0].trim().toLowerCase();
  return bare && /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(bare) ? bare : undefined;
}

export function isInlineSafe(type: string): boolean {
  return INLINE_SAFE.test(type) && !/xml|html|script/.test(type);
}

function notFound(res: ServerResponse): true {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end('File not found.');
  return true;
}

/** Image type from the first bytes (icons and banners are stored without an extension). */
function sniffFileImageType(file: string): string | undefined {
  const head = Buffer.alloc(12);
  const fd = unlessAbsent(() => fs.openSync(file, 'r'), undefined);
  if (fd === undefined) return undefined;
  try {
    fs.readSync(fd, head, 0, 12, 0);
  } finally {
    fs.closeSync(fd);
  }
  return sniffImageType(head);
}

/** A creator id as one plain file name: decoded once, no separators, control characters, `%` or dot names. */
function portraitId(raw: string): string | undefined {
  const id = decodeComponent(raw);
  if (!id || id.length > 200 || /[\u0000-\u001f\u007f/\\%]/.test(id) || /^\.+$/.test(id)) return undefined;
  return id;
}

/** The raw request path: no percent-decoding, no dot-segment removal (WHATWG URL does both). */
function rawPath(req: IncomingMessage): string {
  const target = req.url ?? '/';
  const pathPart = target.split('?')[0];
  return pathPart.startsWith('/') ? pathPart : new URL(target, 'http://internal').pathname;
}

export function createMediaHandler(options: MediaOptions): MediaHandler {
  const thumbnailsDir = options.thumbnails ?? path.join(path.dirname(options.files), 'thumbnails');
  const thumbnailer = new Thumbnailer({ log: options.log, ...options.thumbnailer, filesDir: options.files, thumbnailsDir });
  const portraitRoots = new Map<string, string>([
    ['/icons', options.icons],
    ['/banners', options.banners],
  ]);
  if (options.iconsPath?.startsWith('/')) portraitRoots.set(options.iconsPath, options.icons);
  if (options.bannersPath?.startsWith('/')) portraitRoots.set(options.bannersPath, options.banners);
  const extraPrefixes = [...portraitRoots.keys()].filter((prefix) => prefix !== '/icons' && prefix !== '/banners');

  /**
   * Recorded types by hash. A record's type never changes once written (registerFile keeps the first),
   * and the lookup was a fifth of a file answer's CPU time; only found types are kept, so a file
   * recorded after its first request still gets its recorded type.
   */
  const recordedTypes = new Map<string, string>();
  async function typeOf(hash: string, ext: string): Promise<string> {
    let type = recordedTypes.get(hash);
    if (type) return type;
    type = recordedType(await options.mimeOf?.(hash));
    if (!type) return recordedType(mimeForExt(ext))!;
    if (recordedTypes.size >= TYPE_CACHE_ENTRIES) recordedTypes.delete(recordedTypes.keys().next().value!);
    recordedTypes.set(hash, type);
    return type;
  }

  async function serveFile(
    req: IncomingMessage,
    res: ServerResponse,
    raw: string,
    first: string,
    second: string,
    hash: string,
    ext: string,
  ): Promise<void> {
    const onDisk = path.join(options.files, first, second, `${hash}.${ext}`);
    const type = await typeOf(hash, ext);
    const safe = isInlineSafe(type);
    // Most requests carry no query: the URL is parsed only when there is more than the raw path.
    const name = raw === req.url ? undefined : (new URL(req.url ?? '/', 'http://internal').searchParams.get('f') ?? undefined);
    const accel = req.headers[ACCEL_FILES_HEADER];
    const sent = sendFile(req, res, onDisk, {
      accelRedirect: typeof accel === 'string' && ACCEL_PREFIX.test(accel) ? `${accel}${first}/${second}/${hash}.${ext}` : undefined,
      cacheControl: IMMUTABLE,
      contentType: type === 'text/plain' ? 'text/plain; charset=utf-8' : type,
      etag: `"${hash}"`,
      // ?f= names the file; a type a browser could run is always a download, named or not.
      downloadName: name ?? (safe ? undefined : `${hash}.${ext}`),
      disposition: safe ? 'inline' : 'attachment',
      extraHeaders: safe
        ? { 'X-Content-Type-Options': 'nosniff' }
        : { 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': SANDBOX },
    });
    if (!sent) notFound(res);
  }

  async function serveThumbnail(req: IncomingMessage, res: ServerResponse, hash: string, ext: string): Promise<void> {
    const answer = await thumbnailer.thumbnail(hash, ext);
    const headers = { 'X-Content-Type-Options': 'nosniff' };
    if (answer.kind === 'missing') {
      notFound(res);
    } else if (answer.kind === 'busy') {
      // Serving the original instead could mean megabytes per card exactly when the server is busiest.
      res.statusCode = 503;
      res.setHeader('Retry-After', '2');
      res.setHeader('Cache-Control', 'no-store');
      res.end();
    } else if (
      answer.kind === 'thumbnail' &&
      sendFile(req, res, answer.file, { cacheControl: IMMUTABLE, contentType: 'image/webp', extraHeaders: headers })
    ) {
      // sent
    } else {
      sendFile(req, res, THUMBNAIL_PLACEHOLDER, { cacheControl: STAND_IN_CACHE, contentType: 'image/webp', extraHeaders: headers }) ||
        notFound(res);
    }
  }

  function servePortrait(
    req: IncomingMessage,
    res: ServerResponse,
    root: string,
    isIcon: boolean,
    service: string,
    rawId: string,
  ): boolean {
    const id = portraitId(rawId);
    if (!id || !isPaysite(service)) return notFound(res);
    const onDisk = path.join(root, service, id);
    const contentType = path.dirname(onDisk) === path.join(root, service) ? sniffFileImageType(onDisk) : undefined;
    if (contentType && sendFile(req, res, onDisk, { cacheControl: PORTRAIT_CACHE, contentType })) return true;
    return (
      sendFile(req, res, isIcon ? DEFAULT_ICON : DEFAULT_BANNER, { cacheControl: STAND_IN_CACHE, contentType: 'image/webp' }) ||
      notFound(res)
    );
  }

  function handle(req: IncomingMessage, res: ServerResponse): boolean {
    const raw = rawPath(req);
    const extra = extraPrefixes.find((prefix) => raw.startsWith(`${prefix}/`));
    if (!extra && !MEDIA_PREFIX.test(raw)) {
      // Dot segments (plain or encoded) or backslashes could still normalise into a media path.
      if (!/[.%\\]/.test(raw)) return false;
      const normalised = new URL(raw, 'http://internal').pathname;
      if (normalised === raw || !MEDIA_PREFIX.test(normalised)) return false;
      return notFound(res);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.statusCode = 405;
      res.setHeader('Allow', 'GET, HEAD');
      res.end();
      return true;
    }
    const file = FILE_PATH.exec(raw);
    if (file) {
      const [, prefix, first, second, hash, ext] = file;
      if (!hash.startsWith(first + second)) return notFound(res);
      const serve = prefix === 'thumbnail/data/' ? serveThumbnail(req, res, hash, ext) : serveFile(req, res, raw, first, second, hash, ext);
      serve.catch((error: unknown) => {
        options.log?.(`media ${raw} failed: ${(error as Error).message}`);
        if (!res.headersSent) notFound(res);
        else res.destroy();
      });
      return true;
    }
    for (const [prefix, root] of portraitRoots) {
      if (!raw.startsWith(`${prefix}/`)) continue;
      const match = /^([a-z]+)\/([^/]+)$/.exec(raw.slice(prefix.length + 1));
      if (match) return servePortrait(req, res, root, root === options.icons, match[1], match[2]);
    }
    return notFound(res);
  }

  return Object.assign(handle, { thumbnailer });
}
