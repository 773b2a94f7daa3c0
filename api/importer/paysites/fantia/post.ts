/**
 * One Fantia post made ready to store: fetched from the post API, its visible contents' files archived
 * (the thumbnail as the post's file, gallery photos and files as attachments under their real names,
 * a stream-only video through HLS, blog images inline), its HTML built. Writes nothing: the importer's
 * step does, with the log lines gathered here.
 */
import { archiveFile, archiveInlineImages, nameFromUrl, type ArchivedFile } from '@api/importer/content.ts';
import { skipListedPost } from '@api/importer/do-not-post.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { isAllowedHost } from '@api/importer/fetch.ts';
import { archiveHls } from '@api/importer/hls.ts';
import type { PostInput } from '@api/data/posts.ts';
import { paysiteEndpoint } from '@api/config.ts';
import { countLabel } from '@shared/format.ts';
import type { FantiaApi, FantiaContent, FantiaPost } from './api.ts';
import { KNOWN_CATEGORIES, imageKey, isLocked, mapPost, photoName, postImages, splitContents } from './map.ts';
import { parseUrl } from '@shared/parse.ts';

export type Prepared =
  | { kind: 'post'; post: PostInput; lines: string[] }
  | { kind: 'locked'; lines: string[] }
  | { kind: 'gone'; lines: string[] }
  | { kind: 'listed'; lines: string[] };

const label = (post: FantiaPost) => `Post ${post.id}${post.title ? ` (${post.title})` : ''}`;

/** A `file` content: the download link's signed target, else its HLS stream; undefined (logged) when neither. */
async function archiveContentFile(ctx: ImportContext, api: FantiaApi, content: FantiaContent): Promise<ArchivedFile | undefined> {
  const name = content.filename || `${content.id}`;
  if (content.download_uri) {
    const target = await api.signedLocation(content.download_uri);
    if ('url' in target) return archiveFile(ctx, api.client, target.url, name);
    await ctx.log(`Skipped ${name}: ${target.refused}.`);
    return undefined;
  }
  if (content.hls_uri) return archiveHls(ctx, api.client, api.client.url(content.hls_uri), name);
  await ctx.log(`Skipped ${name}: Fantia gave no link to it.`);
  return undefined;
}

/** Signed URLs for the blog images (their full-size album_image link, else the direct URL). */
async function resolveImages(ctx: ImportContext, api: FantiaApi, post: FantiaPost, visible: FantiaContent[]): Promise<Map<string, string>> {
  const resolved = new Map<string, string>();
  for (const image of postImages(post, visible)) {
    const key = imageKey(image);
    if (!key || resolved.has(key)) continue;
    let url: string | undefined;
    if (image.original_url) {
      const target = await api.signedLocation(image.original_url);
      if ('url' in target) url = target.url;
    }
    url ??= image.url ?? undefined;
    if (url) resolved.set(key, url);
    else await ctx.log(`${label(post)}: a blog image could not be had.`);
  }
  return resolved;
}

/** Fetches a post with its files; writes nothing (the caller's step does). */
export async function preparePost(
  ctx: ImportContext,
  api: FantiaApi,
  fanclubId: string,
  postId: string,
  token: string | undefined,
): Promise<Prepared> {
  const post = await api.post(postId, token);
  if (!post) return { kind: 'gone', lines: [`Post ${postId}: gone from Fantia; skipped.`] };
  // Only the post's own JSON is read (for its title) before the do-not-post list is asked; none of its files.
  const listed = await skipListedPost(ctx, fanclubId, postId, post.title);
  if (listed) return { kind: 'listed', lines: [listed] };
  const split = splitContents(post);
  if (isLocked(split)) {
    const why = split.locked.length > 0 ? 'above your plan' : "adult, hidden by the account's settings";
    return { kind: 'locked', lines: [`${label(post)}: ${why}; skipped.`] };
  }
  const lines: string[] = [];
  if (split.locked.length > 0) lines.push(`${label(post)}: ${countLabel(split.locked.length, 'content')} for a higher plan skipped.`);
  if (split.adultOnly.length > 0)
    lines.push(`${label(post)}: ${countLabel(split.adultOnly.length, 'adult content')} hidden by the account's settings skipped.`);
  for (const content of split.visible) {
    if (!KNOWN_CATEGORIES.has(content.category))
      lines.push(`${label(post)}: a content of kind '${content.category}' skipped (unknown to this importer).`);
  }

  const thumb = post.thumb?.original
    ? await archiveFile(ctx, api.client, post.thumb.original, nameFromUrl(post.thumb.original))
    : undefined;
  const attachments: ArchivedFile[] = [];
  let firstPhoto: ArchivedFile | undefined;
  for (const content of split.visible) {
    if (content.category === 'photo_gallery') {
      for (const photo of content.post_content_photos ?? []) {
        const saved = await archiveFile(ctx, api.client, photo.url.original, photoName(photo.url.original, photo.id));
        if (saved) attachments.push(saved);
        firstPhoto ??= saved;
      }
    } else if (content.category === 'file') {
      const saved = await archiveContentFile(ctx, api, content);
      if (saved) attachments.push(saved);
    }
  }

  const endpoint = paysiteEndpoint(ctx.config.importer, 'fantia');
  const resolved = await resolveImages(ctx, api, post, split.visible);
  const mapped = mapPost(post, fanclubId, {
    fantia: (image) => resolved.get(imageKey(image)),
    archivable: (url) => {
      const parsed = parseUrl(url);
      return !!parsed && isAllowedHost(endpoint, parsed.hostname);
    },
  });
  if (mapped.locked) return { kind: 'locked', lines };
  const content = await archiveInlineImages(ctx, api.client, mapped.post.content ?? '');

  // The thumbnail is the post's file; without one, the first gallery photo is.
  const file = thumb ?? firstPhoto;
  const seen = new Set(file ? [file.hash] : []);
  const unique = attachments.filter((a) => !seen.has(a.hash) && !!seen.add(a.hash));
  return {
    kind: 'post',
    lines,
    post: { ...mapped.post, content, file: file ?? null, attachments: unique },
  };
}
