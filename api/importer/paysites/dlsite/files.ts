/**
 * A work's files: the original archives the key may download (direct, split in parts, or behind a
 * serial page, whose serial numbers are never read), or, for a work with no download (browser-only),
 * the web versions of its files from DLsite Play. Real names come from the file server's URL, else
 * product.json's `contents`. DRM files (only DLsite's viewer opens them) and scrambled Play images are
 * skipped with a log line. Nothing is written here but the file store (content-addressed, idempotent).
 */
import path from 'node:path';
import { dataPaths } from '@api/config.ts';
import { registerFile } from '@api/data/files.ts';
import { archiveFile, progressLogger, skipLine, type ArchivedFile } from '@api/importer/content.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { TransientError } from '@api/importer/errors.ts';
import { PaysiteRequestError } from '@api/importer/fetch.ts';
import { countLabel } from '@shared/format.ts';
import type { DlsiteApi, PlayWork, Product } from './api.ts';
import { directLink, downloadKind, fileServerName, isDrmFile, partLinks } from './map.ts';

/** The most parts a split work is walked to when its single URL answers `Location: Array`. */
const MAX_PARTS = 200;

/** The store download URLs of a work, from where Play's download redirect pointed. */
async function downloadUrls(api: DlsiteApi, workno: string, target: string): Promise<string[]> {
  const kind = downloadKind(target);
  if (kind === 'direct') return [target];
  const page = await api.page(target);
  if (page.status !== 200) return [];
  const base = page.url;
  if (kind === 'split') return partLinks(page.body, workno).map((href) => new URL(href, base).toString());
  const direct = directLink(page.body, workno);
  const parts = partLinks(page.body, workno);
  return parts.length ? parts.map((href) => new URL(href, base).toString()) : direct ? [new URL(direct, base).toString()] : [];
}

const numbered = (url: string, n: number) => url.replace('/download/=/product_id/', `/download/=/number/${n}/product_id/`);

/** Downloads one store download URL's file (or, for `Location: Array`, every numbered part). */
async function archiveDownload(
  ctx: ImportContext,
  api: DlsiteApi,
  url: string,
  names: string[],
  index: number,
  out: ArchivedFile[],
  skipped: string[],
): Promise<void> {
  const resolved = await api.resolve(url);
  if (resolved.kind === 'array') {
    // A split work asked for as one file: walk /number/1/, /number/2/ ... until a part is missing.
    for (let n = 1; n <= MAX_PARTS; n++) {
      const part = await api.resolve(numbered(url, n));
      if (part.kind !== 'file') break;
      await archiveResolved(ctx, api, part.url, names[n - 1], out, skipped);
    }
    return;
  }
  if (resolved.kind === 'gone') {
    skipped.push(`${names[index] || `file ${index + 1}`} (DLsite answered ${resolved.status})`);
    return;
  }
  await archiveResolved(ctx, api, resolved.url, names[index], out, skipped);
}

async function archiveResolved(
  ctx: ImportContext,
  api: DlsiteApi,
  fileUrl: string,
  listedName: string | undefined,
  out: ArchivedFile[],
  skipped: string[],
): Promise<void> {
  const name = fileServerName(fileUrl) || listedName || `file${out.length + 1}`;
  if (isDrmFile(name)) {
    skipped.push(`${name} (DRM: it opens only in DLsite's viewer)`);
    return;
  }
  const file = await archiveFromFileServer(ctx, api, fileUrl, name);
  if (file) out.push(file);
}

/**
 * archiveFile for the file server, except that its 403 (the download cookie the store's redirect set was
 * refused) is not a skipped file but a change on DLsite's side: a clear line and a retry later.
 */
async function archiveFromFileServer(ctx: ImportContext, api: DlsiteApi, url: string, name: string): Promise<ArchivedFile | undefined> {
  const ext = path.extname(name).toLowerCase();
  try {
    const stored = await api.client.download(url, dataPaths(ctx.config.dataDir).files, /^\.[a-z0-9]{1,10}$/.test(ext) ? ext : '', {
      onProgress: progressLogger(ctx, name),
    });
    await registerFile(ctx.db, { hash: stored.sha256, size: stored.size, ext: path.extname(stored.path), mime: stored.mime });
    return { name: name.slice(0, 255), path: stored.path, hash: stored.sha256 };
  } catch (error) {
    if (error instanceof PaysiteRequestError && error.status === 403)
      throw new TransientError(`DLsite's file server refused the download of ${name} (403): the importer may need an update`);
    const line = skipLine(name, error);
    if (!line) throw error;
    await ctx.log(line);
    return undefined;
  }
}

/** The web versions of a browser-only work's files, from DLsite Play. */
async function archivePlayFiles(ctx: ImportContext, api: DlsiteApi, work: PlayWork, skipped: string[]): Promise<ArchivedFile[]> {
  const files = await api.playFiles(work.workno);
  if (!files) return [];
  const out: ArchivedFile[] = [];
  let scrambled = 0;
  let unreadable = 0;
  for (const file of files) {
    if (file.crypt) scrambled++;
    else if (!file.url) unreadable++;
    else {
      const saved = await archiveFile(ctx, api.client, file.url, file.name);
      if (saved) out.push(saved);
    }
  }
  if (scrambled) skipped.push(`${countLabel(scrambled, 'scrambled DLsite Play page')}`);
  if (unreadable) skipped.push(`${countLabel(unreadable, 'DLsite Play file')} without a web version`);
  return out;
}

/**
 * Archives a work's files. @returns the archived files in order and lines for the import log naming
 * what was skipped.
 */
export async function archiveWorkFiles(
  ctx: ImportContext,
  api: DlsiteApi,
  work: PlayWork,
  info: Product | undefined,
): Promise<{ files: ArchivedFile[]; log: string[] }> {
  const skipped: string[] = [];
  const names = (info?.contents ?? []).map((c) => c.file_name);
  const target = await api.downloadTarget(work.workno);
  let files: ArchivedFile[] = [];
  if (target) {
    const urls = await downloadUrls(api, work.workno, target);
    for (const [index, url] of urls.entries()) await archiveDownload(ctx, api, url, names, index, files, skipped);
  } else {
    // No download (browser-only, or DLsite Play only): what DLsite Play streams is what the key can have.
    files = await archivePlayFiles(ctx, api, work, skipped);
    if (files.length === 0 && skipped.length === 0) skipped.push('its files (DLsite offers no download for it)');
  }
  return { files, log: skipped.map((what) => `Work ${work.workno}: skipped ${what}.`) };
}
