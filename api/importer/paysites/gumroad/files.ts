/**
 * Gumroad's files into the store. Public images (covers, thumbnails, images in descriptions and rich
 * pages) live on public-files.gumroad.com under names without an extension, so they are fetched into
 * memory and stored with the extension of their type (the post page shows images by extension).
 * Purchased content files go through /r/{token}/product_files, whose 302 to a signed CDN URL is
 * followed by hand (the cookie never goes to the CDN; a redirect back to the download page means Gumroad
 * is still stamping the file); stream-only videos are archived from their HLS playlist.
 */
import { imageExtension } from '@api/media/image-type.ts';
import path from 'node:path';
import { dataPaths } from '@api/config.ts';
import { registerFile } from '@api/data/files.ts';
import { extensionOf } from '@api/data/util.ts';
import { archiveFile, skipLine, type ArchivedFile } from '@api/importer/content.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { archiveHls } from '@api/importer/hls.ts';
import { storeFile } from '@api/media/store.ts';
import type { GumroadApi } from './api.ts';
import type { FilePlan, PostPlan } from './map.ts';

/** Stores a public image under `name` (its extension added from its type when the name has none). */
export async function archiveImage(ctx: ImportContext, api: GumroadApi, url: string, name: string): Promise<ArchivedFile | undefined> {
  try {
    const answer = await api.client.requestBytes(url, { allowStatuses: [403, 404, 410] });
    if (answer.status !== 200 || answer.body.length === 0) {
      await ctx.log(`Skipped ${name}: the paysite answered ${answer.status}.`);
      return undefined;
    }
    const ext = extensionOf(name) || imageExtension(answer.headers['content-type'], answer.body);
    const stored = await storeFile(dataPaths(ctx.config.dataDir).files, answer.body, ext);
    const type = answer.headers['content-type']?.split(';')[0].trim().toLowerCase() || null;
    await registerFile(ctx.db, { hash: stored.sha256, size: stored.size, ext: path.extname(stored.path), mime: type });
    return { name: extensionOf(name) ? name : `${name}${ext}`, path: stored.path, hash: stored.sha256 };
  } catch (error) {
    const line = skipLine(name, error);
    if (!line) throw error;
    await ctx.log(line);
    return undefined;
  }
}

/** One content file: downloaded, or its HLS stream stored as MP4, or skipped with a log line. */
async function archiveContentFile(ctx: ImportContext, api: GumroadApi, file: FilePlan): Promise<ArchivedFile | undefined> {
  if (file.action === 'skip') {
    await ctx.log(`Skipped ${file.name}: ${file.reason}.`);
    return undefined;
  }
  if (file.action === 'hls') return archiveHls(ctx, api.client, file.url, file.name);
  const hop = await api.fileUrl(file.url);
  if ('reason' in hop) {
    await ctx.log(`Skipped ${file.name}: ${hop.reason}.`);
    return undefined;
  }
  return archiveFile(ctx, api.client, hop.url, file.name);
}

/** Everything a plan names, archived: covers, content files (by id) and images (URL -> '/data/...'). */
export async function archivePlan(ctx: ImportContext, api: GumroadApi, plan: PostPlan) {
  const covers: ArchivedFile[] = [];
  for (const cover of plan.covers) {
    const saved = await archiveImage(ctx, api, cover.url, cover.name);
    if (saved) covers.push(saved);
  }
  const files = new Map<string, ArchivedFile>();
  for (const file of plan.files) {
    const saved = await archiveContentFile(ctx, api, file);
    if (saved) files.set(file.id, saved);
  }
  const images = new Map<string, string>();
  for (const [index, url] of plan.images.entries()) {
    const saved = await archiveImage(ctx, api, url, `image-${index + 1}`);
    if (saved) images.set(url, `/data${saved.path}`);
  }
  return { covers, files, images };
}
