/**
 * Downloading a Boosty post's media: images (images.boosty.to, no signature; their URLs carry no file
 * name or extension, so the type comes from the answer), files and audio (cdn.boosty.to, signed with
 * the post's signedQuery), OK videos (the best progressive MP4 of playerUrls, else its HLS playlist as
 * one MP4). Nothing here sends the token: media hosts get none. A file that cannot be had is logged and
 * left out; a 401 from the CDN is a stale signature, not the key.
 */
import { imageExtension } from '@api/media/image-type.ts';
import path from 'node:path';
import { dataPaths } from '@api/config.ts';
import { registerFile } from '@api/data/files.ts';
import { extensionOf } from '@api/data/util.ts';
import { storeStream } from '@api/media/store.ts';
import { archiveFile, skipLine, type ArchivedFile } from '@api/importer/content.ts';
import type { ImportContext } from '@api/importer/context.ts';
import type { PaysiteClient } from '@api/importer/fetch.ts';
import { archiveHls } from '@api/importer/hls.ts';
import type { ArchivedMedia, MediaItem } from './map.ts';

/** An image's extension from its answer's type, else its first bytes, else its URL. */
export function boostyImageExtension(mime: string | undefined, bytes: Buffer, url: string): string {
  const known = imageExtension(mime, bytes);
  if (known) return known;
  const fromUrl = extensionOf(new URL(url).pathname);
  return /^\.[a-z0-9]{1,10}$/.test(fromUrl) ? fromUrl : '';
}

/** Downloads an image named `{base}{ext}` with the extension its bytes call for. */
async function archiveImage(ctx: ImportContext, client: PaysiteClient, url: string, base: string): Promise<ArchivedFile | undefined> {
  try {
    const answer = await client.requestBytes(url);
    const ext = boostyImageExtension(answer.headers['content-type'], answer.body, url);
    const stored = await storeStream(dataPaths(ctx.config.dataDir).files, [answer.body], ext, {
      maxBytes: ctx.config.importer.maxFileBytes,
    });
    const mime = answer.headers['content-type']?.split(';')[0].trim().toLowerCase() || null;
    await registerFile(ctx.db, { hash: stored.sha256, size: stored.size, ext: path.extname(stored.path), mime });
    return { name: `${base}${ext}`, path: stored.path, hash: stored.sha256 };
  } catch (error) {
    const line = skipLine(`${base} (image)`, error);
    if (!line) throw error;
    await ctx.log(line);
    return undefined;
  }
}

interface PostFiles {
  /** The post's thumbnail: its first image, else its first video's preview. */
  file: ArchivedFile | null;
  /** Images (but the one that is the file), files, audio and videos, in block order. */
  attachments: ArchivedFile[];
  /** Where the HTML finds them. */
  archived: ArchivedMedia;
  /** Lines for what was left out on purpose (a video still processing, an incomplete upload). */
  notes: string[];
}

/** Downloads every media item of a post (files are content-addressed: a repeat stores nothing twice). */
export async function archivePostMedia(ctx: ImportContext, media: PaysiteClient, items: readonly MediaItem[]): Promise<PostFiles> {
  const images = new Map<string, ArchivedFile>();
  const files = new Map<string, ArchivedFile>();
  const attachments: ArchivedFile[] = [];
  const notes: string[] = [];
  let firstImage: ArchivedFile | undefined;
  let firstPreview: ArchivedFile | undefined;
  for (const item of items) {
    if (ctx.signal.aborted) break;
    if (item.kind === 'image') {
      const saved = await archiveImage(ctx, media, item.url, item.id || 'image');
      if (!saved) continue;
      images.set(item.id, saved);
      if (firstImage) attachments.push(saved);
      else firstImage = saved;
      continue;
    }
    if (!item.complete) {
      notes.push(`Skipped ${item.name}: Boosty has not finished processing it.`);
      continue;
    }
    let saved: ArchivedFile | undefined;
    if (item.kind === 'video') {
      saved = item.mp4 ? await archiveFile(ctx, media, item.mp4, item.name) : await archiveHls(ctx, media, item.hls!, item.name);
      if (item.preview && !firstPreview) firstPreview = await archiveImage(ctx, media, item.preview, `${item.id || 'video'}-preview`);
    } else {
      saved = await archiveFile(ctx, media, item.url, item.name);
    }
    if (!saved) continue;
    files.set(item.id, saved);
    attachments.push(saved);
  }
  const file = firstImage ?? firstPreview ?? null;
  return {
    file,
    attachments,
    notes,
    archived: {
      image: (id) => {
        const saved = images.get(id);
        return saved && `/data${saved.path}`;
      },
      file: (id) => {
        const saved = files.get(id);
        return saved && { path: `/data${saved.path}`, name: saved.name };
      },
    },
  };
}
