/**
 * What every importer does with a paysite's files: downloads them into the content-addressed store
 * (registered in `files`, which is idempotent, so a step repeated after a crash stores nothing twice),
 * saves creator icons and banners where /icons and /banners serve them, and replaces the paysite's
 * image URLs inside post HTML with the archive's own copies (the sanitizer drops any other image).
 * A file that cannot be had (too big, gone) is logged and skipped; it never fails the import.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import sanitizeHtml from 'sanitize-html';
import { dataPaths } from '../config.ts';
import { sanitizePostHtml } from '../content/sanitize.ts';
import { registerFile } from '../data/files.ts';
import { extensionOf } from '../data/util.ts';
import { FileTooLargeError } from '../media/store.ts';
import { writeAtomic } from '../server/atomic-write.ts';
import { ForbiddenHostError, PaysiteRequestError, type PaysiteClient } from './fetch.ts';
import type { ImportContext } from './context.ts';
import { decodeComponent, parseUrl } from '@shared/parse.ts';

export interface ArchivedFile {
  name: string;
  /** '/ab/cd/<sha256>.<ext>' */
  path: string;
  hash: string;
}

/** The file's name from a URL's last path segment, decoded; '' when it has none. */
export function nameFromUrl(url: string): string {
  const last = parseUrl(url)?.pathname.split('/').filter(Boolean).pop() ?? '';
  return decodeComponent(last) ?? '';
}

/** How often a long download says in the import log that it is still going. */
export const PROGRESS_EVERY_MS = 5_000;

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A progress reporter for one download: a log line at most every PROGRESS_EVERY_MS, so the status page
 * shows a large video is still arriving (none for a file that arrives sooner).
 */
export function progressLogger(ctx: Pick<ImportContext, 'log'>, name: string, everyMs = PROGRESS_EVERY_MS) {
  const started = Date.now();
  let last = started;
  // Called from inside a download's byte stream, which does not wait: a line that fails to be written
  // (the import stopped meanwhile) is only progress, and is dropped.
  return (received: number, total: number) => {
    const now = Date.now();
    if (now - last < everyMs) return;
    last = now;
    const seconds = Math.max(0.001, (now - started) / 1000);
    const of = Number.isFinite(total) && total > 0 ? ` of ${megabytes(total)}` : '';
    ctx.log(`Downloading ${name}: ${megabytes(received)}${of} (${megabytes(received / seconds)}/s).`).catch(() => undefined);
  };
}

/** IMPORTER_MAX_FILE_MB may be a fraction: below 1 MB the cap reads in KB rather than '0 MB'. */
function capLabel(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Why a file was skipped, for the import log (never with the URL, whose query may carry a token). */
export function skipLine(name: string, error: unknown): string | undefined {
  if (error instanceof FileTooLargeError) return `Skipped ${name}: larger than ${capLabel(error.maxBytes)}.`;
  if (error instanceof PaysiteRequestError) return `Skipped ${name}: the paysite answered ${error.status}.`;
  if (error instanceof ForbiddenHostError) return `Skipped ${name}: ${error.message}`;
  return undefined;
}

/**
 * Downloads a file into the store and registers it. @returns the archived file, or undefined (with a
 * log line) when it is too big, gone or on a host outside the allowlist. Transient errors propagate so
 * the worker retries the import.
 */
export async function archiveFile(
  ctx: ImportContext,
  client: PaysiteClient,
  url: string,
  name?: string | null,
  headers?: Record<string, string>,
): Promise<ArchivedFile | undefined> {
  const fileName = (name || nameFromUrl(url) || 'file').slice(0, 255);
  // The name's extension when the store takes it, else the URL's (a title like 'notes.v2!' is no extension).
  const ext = [extensionOf(fileName), extensionOf(nameFromUrl(url))].find((candidate) => /^\.[a-z0-9]{1,10}$/.test(candidate)) ?? '';
  try {
    const stored = await client.download(url, dataPaths(ctx.config.dataDir).files, ext, {
      headers,
      onProgress: progressLogger(ctx, fileName),
    });
    await registerFile(ctx.db, { hash: stored.sha256, size: stored.size, ext: path.extname(stored.path), mime: stored.mime });
    return { name: fileName, path: stored.path, hash: stored.sha256 };
  } catch (error) {
    const line = skipLine(fileName, error);
    if (!line) throw error;
    await ctx.log(line);
    return undefined;
  }
}

/** Archives files in order; those that could not be had are left out (archiveFile logged why). */
export async function archiveFiles(
  ctx: ImportContext,
  client: PaysiteClient,
  items: readonly { url: string; name?: string | null }[],
): Promise<ArchivedFile[]> {
  const files: ArchivedFile[] = [];
  for (const item of items) {
    const file = await archiveFile(ctx, client, item.url, item.name);
    if (file) files.push(file);
  }
  return files;
}

/** Saves a creator's icon or banner (served by /icons/{service}/{id} and /banners/{service}/{id}). */
export async function archiveCreatorImage(
  ctx: ImportContext,
  client: PaysiteClient,
  kind: 'icons' | 'banners',
  service: string,
  creatorId: string,
  url: string | null | undefined,
): Promise<boolean> {
  if (!url) return false;
  const file = await archiveFile(ctx, client, url, `${kind === 'icons' ? 'icon' : 'banner'}${extensionOf(nameFromUrl(url))}`);
  if (!file) return false;
  const paths = dataPaths(ctx.config.dataDir);
  const target = path.join(paths[kind], service, creatorId);
  if (path.dirname(target) !== path.join(paths[kind], service) || !/^[\w.-]+$/.test(creatorId)) return false;
  await fsp.mkdir(path.dirname(target), { recursive: true });
  await writeAtomic(target, await fsp.readFile(path.join(paths.files, file.path)), { durable: true });
  return true;
}

/** The src of every <img> in an HTML fragment, in order, without repeats. */
export function imageSources(html: string): string[] {
  const found = new Set<string>();
  sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    // Only reads the sources (the output is thrown away); without it sanitize-html warns on stderr each call.
    allowVulnerableTags: true,
    transformTags: {
      img: (tagName, attribs) => {
        if (attribs.src) found.add(attribs.src);
        return { tagName, attribs };
      },
    },
  });
  return [...found];
}

/**
 * Downloads the images an HTML fragment shows, points them at the archive's copies and sanitizes the
 * result (the post HTML to store). Images that could not be archived are dropped by the sanitizer.
 */
export async function archiveInlineImages(ctx: ImportContext, client: PaysiteClient, html: string): Promise<string> {
  const sources = imageSources(html);
  if (sources.length === 0) return sanitizePostHtml(html);
  const replaced = new Map<string, string>();
  for (const src of sources) {
    const absolute = parseUrl(src, client.url('/'));
    // Not a URL at all, or data:, blob: and the like are nothing to download (the sanitizer drops them); no log line either.
    if (!absolute || (absolute.protocol !== 'https:' && absolute.protocol !== 'http:')) continue;
    const file = await archiveFile(ctx, client, absolute.toString());
    if (file) replaced.set(src, `/data${file.path}`);
  }
  const localized = sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    transformTags: {
      img: (tagName, attribs) => ({
        tagName,
        attribs: replaced.has(attribs.src) ? { ...attribs, src: replaced.get(attribs.src)! } : attribs,
      }),
    },
  });
  return sanitizePostHtml(localized);
}
