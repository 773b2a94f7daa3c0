/**
 * OnlyFans shapes into Trove's (research notes section 3): which posts are stored, their title, text,
 * tags and dates, and which media URL each file comes from. Pure functions; the importer downloads and
 * writes.
 *
 * - OnlyFans posts have no title: the first 60 characters of the plain text (MaxSignal/Kitsune did the
 *   same), 'Untitled' when there is none.
 * - No tags field: the #hashtags of the text (OnlyFans links them to its search) become the tags.
 * - Media: the original (files.full.url, else files.source.url, source.source or the older string
 *   `full`), else the best of videoSources (OF-Scraper's quality picker). DRM video (files.drm with no
 *   plain URL) cannot be archived; media on the upload/convert hosts are still processing.
 * - The post's file (its thumbnail) is its first photo, else the first video's preview image; the other
 *   media are its attachments, in OnlyFans' order.
 */
import type { PostInput } from '@api/data/posts.ts';
import { nameFromUrl, type ArchivedFile } from '@api/importer/content.ts';
import { archiveTime, escapeHtml } from '@api/importer/text.ts';
import type { OnlyfansMedia, OnlyfansPost } from './api.ts';
import { parseUrl } from '@shared/parse.ts';

/** Why a listed post is not stored, or undefined when it is. */
export function skipReason(post: OnlyfansPost): 'deleted' | 'locked' | undefined {
  if (post.isDeleted) return 'deleted';
  // Pay-per-view not bought, or a subscription that no longer covers it: the media have null URLs.
  if (post.canViewMedia === false || (post.media ?? []).some((m) => m.canView === false)) return 'locked';
  return undefined;
}

const TITLE_LENGTH = 60;

export function postTitle(post: Pick<OnlyfansPost, 'rawText' | 'text'>): string {
  const plain = (post.rawText ?? htmlToText(post.text ?? '')).replace(/\s+/g, ' ').trim();
  const chars = [...plain];
  return chars.length === 0 ? 'Untitled' : chars.slice(0, TITLE_LENGTH).join('').trim();
}

function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#039;', "'")
    .replaceAll('&amp;', '&');
}

/** The post's text as HTML (OnlyFans' `text` is HTML already; rawText is escaped when it is all there is). */
export function postHtml(post: Pick<OnlyfansPost, 'rawText' | 'text'>): string {
  if (post.text) return post.text;
  return post.rawText ? escapeHtml(post.rawText).replaceAll('\n', '<br />') : '';
}

/** The #hashtags of the text, without '#', in order, each once (at least one letter, so '#1' is not a tag). */
export function postTags(post: Pick<OnlyfansPost, 'rawText' | 'text'>): string[] {
  const text = post.rawText ?? htmlToText(post.text ?? '');
  const tags = new Set<string>();
  for (const match of text.matchAll(/(?:^|[^\p{L}\p{N}_&/])#([\p{L}\p{N}_]{1,64})/gu)) if (/\p{L}/u.test(match[1])) tags.add(match[1]);
  return [...tags];
}

/** The archive's UTC time of the post: postedAt, else postedAtPrecise (epoch seconds). */
export function postPublished(post: Pick<OnlyfansPost, 'postedAt' | 'postedAtPrecise'>): string | null {
  const fromIso = archiveTime(post.postedAt);
  if (fromIso) return fromIso;
  const seconds = Number(post.postedAtPrecise);
  return post.postedAtPrecise && Number.isFinite(seconds) ? archiveTime(new Date(seconds * 1000).toISOString()) : null;
}

/** The paging cursor of a post (its postedAtPrecise, passed back verbatim), else one made from postedAt. */
export function postCursor(post: Pick<OnlyfansPost, 'postedAt' | 'postedAtPrecise'>): string | undefined {
  if (post.postedAtPrecise) return post.postedAtPrecise;
  const time = Date.parse(post.postedAt ?? '');
  return Number.isFinite(time) ? `${Math.floor(time / 1000)}.000000` : undefined;
}

/** Hosts that hand out files still being uploaded or converted (OF-Scraper's BAD_URL_HOST). */
function processing(url: string): boolean {
  const host = parseUrl(url)?.hostname;
  // A URL that does not parse is no file either.
  if (host === undefined) return true;
  return host.endsWith('.upload.onlyfans.com') || host.endsWith('.convert.onlyfans.com') || host.includes('transcoder');
}

/** The best URL of a media item: the original, else the highest of videoSources. */
export function bestUrl(media: OnlyfansMedia): string | undefined {
  const sources = Object.entries(media.videoSources ?? {})
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '')
    .sort((a, b) => Number(b[0]) - Number(a[0]))
    .map(([, u]) => u);
  const candidates = [media.files?.full?.url, media.files?.source?.url, media.source?.source, media.full, ...sources];
  return candidates.find((u): u is string => !!u && !processing(u));
}

/** A still image of a media item (a video's poster), largest first. */
export function previewUrl(media: OnlyfansMedia): string | undefined {
  const candidates = [
    media.files?.preview?.url,
    media.preview,
    media.files?.squarePreview?.url,
    media.squarePreview,
    media.files?.thumb?.url,
    media.thumb,
  ];
  return candidates.find((u): u is string => !!u && !processing(u));
}

export interface PlannedFile {
  url: string;
  name: string;
  /** The media item it comes from (for log lines). */
  mediaId: string;
}

export interface MediaPlan {
  file?: PlannedFile;
  attachments: PlannedFile[];
  /** Log lines for media that cannot be archived. */
  skipped: string[];
}

const KIND: Record<string, string> = { photo: 'photo', video: 'video', gif: 'GIF', audio: 'audio' };

function planned(url: string, media: OnlyfansMedia, fallbackExt: string): PlannedFile {
  return { url, name: nameFromUrl(url) || `${media.id}.${fallbackExt}`, mediaId: media.id };
}

/** Which files a post gets: the thumbnail as its file, the media as attachments, and what is skipped. */
export function mediaPlan(post: OnlyfansPost): MediaPlan {
  const attachments: PlannedFile[] = [];
  const skipped: string[] = [];
  let poster: PlannedFile | undefined;
  for (const media of post.media ?? []) {
    const kind = KIND[media.type] ?? media.type;
    const url = bestUrl(media);
    if (!url) {
      const drm = !!media.files?.drm;
      skipped.push(
        `Post ${post.id}: ${kind} ${media.id} skipped (${drm ? 'DRM-protected video, which cannot be archived' : 'OnlyFans gave no file for it'}).`,
      );
      const still = drm ? previewUrl(media) : undefined;
      if (still && !poster) poster = planned(still, media, 'jpg');
      continue;
    }
    const ext = media.type === 'audio' ? 'mp3' : media.type === 'photo' ? 'jpg' : 'mp4';
    attachments.push(planned(url, media, ext));
    if (!poster && media.type === 'video') {
      const still = previewUrl(media);
      if (still) poster = planned(still, media, 'jpg');
    }
  }
  const photo = (post.media ?? []).find((m) => m.type === 'photo' && attachments.some((a) => a.mediaId === m.id));
  if (photo) {
    const index = attachments.findIndex((a) => a.mediaId === photo.id);
    const [file] = attachments.splice(index, 1);
    return { file, attachments, skipped };
  }
  return { file: poster, attachments, skipped };
}

/** The post to store: `content` is postHtml's result after archiveInlineImages (sanitized), the files as archived. */
export function toPostInput(
  user: string,
  post: OnlyfansPost,
  content: string,
  files: { file?: ArchivedFile; attachments: ArchivedFile[] },
): PostInput {
  return {
    service: 'onlyfans',
    user,
    id: post.id,
    title: postTitle(post),
    content,
    published: postPublished(post),
    // OnlyFans gives no edit time.
    edited: null,
    file: files.file ?? null,
    attachments: files.attachments,
    // No embeds: links stay links in the text.
    embed: null,
    tags: postTags(post),
  };
}
