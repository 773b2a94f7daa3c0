/**
 * Downloads what a post or message plan names, before the step that writes it: direct files from the
 * CDN (CloudFront-signed URLs, no token), HLS-only videos as one MP4 (the manifest's policy as query
 * parameters and as CloudFront-* cookies on the manifest, playlist and segments). What cannot be had is
 * logged and left out by archiveFile / archiveHls.
 */
import { archiveFile, type ArchivedFile } from '@api/importer/content.ts';
import { archiveHls } from '@api/importer/hls.ts';
import type { PaysiteClient } from '@api/importer/fetch.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { escapeHtml } from '@api/importer/text.ts';
import { TransientError } from '@api/importer/errors.ts';
import { fetchAccountMedia, type FanslyApi } from './api.ts';
import { mediaIds, missingMediaIds, type ItemPlan, type MediaIndex, type Source } from './map.ts';

/** Completes a page's media index from /account/media; a page whose media all went missing is retried. */
export async function completeMedia(api: FanslyApi, index: MediaIndex, lists: Parameters<typeof missingMediaIds>[0]): Promise<void> {
  const missing = missingMediaIds(lists, index);
  if (missing.length > 0) for (const item of await fetchAccountMedia(api, missing)) index.media.set(item.id, item);
  const named = lists.flatMap((a) => mediaIds(a, index));
  // PR's note: a page with posts but no media at all is how Fansly's rate limit can look.
  if (named.length > 0 && !named.some((id) => index.media.has(id)))
    throw new TransientError('Fansly answered without the media of a page (a sign of its rate limit)');
}

export function archiveSource(ctx: ImportContext, files: PaysiteClient, source: Source): Promise<ArchivedFile | undefined> {
  return source.kind === 'hls'
    ? archiveHls(ctx, files, source.url, source.name, source.headers)
    : archiveFile(ctx, files, source.url, source.name);
}

/**
 * A post's files: the first image is the post's file; a post starting with a video gets the video's
 * poster as its file (its cover) and keeps the video among the attachments; everything else, in order,
 * is an attachment, each file once.
 */
export async function archivePostFiles(
  ctx: ImportContext,
  files: PaysiteClient,
  plan: ItemPlan,
): Promise<{ file: ArchivedFile | null; attachments: ArchivedFile[] }> {
  const [first] = plan.media;
  let file: ArchivedFile | null = null;
  let rest = plan.media;
  if (first?.kind === 'image') {
    file = (await archiveSource(ctx, files, first.source)) ?? null;
    rest = plan.media.slice(1);
  } else if (first?.poster) {
    file = (await archiveSource(ctx, files, first.poster)) ?? null;
  }
  const seen = new Set(file ? [file.hash] : []);
  const attachments: ArchivedFile[] = [];
  for (const item of rest) {
    const archived = await archiveSource(ctx, files, item.source);
    if (archived && !seen.has(archived.hash)) {
      seen.add(archived.hash);
      attachments.push(archived);
    }
  }
  return { file, attachments };
}

/** A message's files, in order. */
export async function archiveMessageFiles(ctx: ImportContext, files: PaysiteClient, plan: ItemPlan): Promise<ArchivedFile[]> {
  const out: ArchivedFile[] = [];
  for (const item of plan.media) {
    const archived = await archiveSource(ctx, files, item.source);
    if (archived) out.push(archived);
  }
  return out;
}

const IMAGE = /\.(jpe?g|png|gif|webp)$/i;

/** A DM's HTML: its text, then its images shown from the archive and its other files as links. */
export function messageHtml(text: string, archived: readonly ArchivedFile[]): string {
  const media = archived.map((file) => {
    const src = `/data${file.path}`;
    return IMAGE.test(file.path)
      ? `<p><img src="${src}" alt="${escapeHtml(file.name)}"></p>`
      : `<p><a href="${src}?f=${encodeURIComponent(file.name)}">${escapeHtml(file.name)}</a></p>`;
  });
  return [text, ...media].join('');
}
