/**
 * Afdian shapes into Trove's: the body as HTML (before its images are archived), which media become the
 * post's file and attachments (with their names), the embed, the title and the date. Pure functions; the
 * importer does the fetching and the writing.
 */
import { nowIso } from '@api/data/util.ts';
import { paragraphsHtml } from '@api/importer/text.ts';
import { nameFromUrl } from '@api/importer/content.ts';
import type { PostEmbed } from '@shared/shapes/posts.ts';
import { isOn, type AfdianPost } from './api.ts';

export interface MediaItem {
  url: string;
  name: string;
}

/** The post's file (its cover or thumbnail) and its attachments (pictures, video, audio, files), in that order. */
export interface PostMedia {
  main: MediaItem | null;
  attachments: MediaItem[];
}

const HTML_TAG = /<\/?(?:p|br|div|span|img|a|b|strong|i|em|u|s|h[1-6]|ul|ol|li|blockquote|figure|pre|code|hr|table)\b[^>]*>/i;

/** The body as HTML: Afdian's `content` is HTML for articles and may be plain text for short posts. */
export function bodyHtml(post: Pick<AfdianPost, 'content'>): string {
  const content = post.content ?? '';
  return HTML_TAG.test(content) ? content : paragraphsHtml(content);
}

function plain(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The title, or (as Afdian shows untitled posts) the first 60 characters of the text. */
export function postTitle(post: Pick<AfdianPost, 'title' | 'content' | 'preview_text'>): string {
  const title = (post.title ?? '').trim();
  if (title) return title;
  return [...plain(post.preview_text || post.content || '')].slice(0, 60).join('');
}

/** publish_time (epoch seconds, UTC) as the archive's date. */
export function publishedOf(post: Pick<AfdianPost, 'publish_time'>): string | null {
  const seconds = post.publish_time;
  return seconds && Number.isFinite(seconds) && seconds > 0 ? nowIso(new Date(seconds * 1000)) : null;
}

/** A pic1.afdiancdn.com thumbnail (`?imageView2/...`) as its original; other URLs as they are. */
export function originalPic(url: string): string {
  return url.replace(/\?imageView2\/.*$/, '');
}

const URL_KEYS = ['url', 'file', 'path', 'link', 'href', 'src', 'download_url', 'download', 'pic'] as const;
const NAME_KEYS = ['name', 'filename', 'file_name', 'title', 'origin_name', 'original_name'] as const;

/** A URL from a string or an object holding one under a usual key. */
function urlOf(value: unknown): string | undefined {
  if (typeof value === 'string') return /^https?:\/\//i.test(value.trim()) ? value.trim() : undefined;
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  for (const key of URL_KEYS) {
    const found = record[key];
    if (typeof found === 'string' && /^https?:\/\//i.test(found.trim())) return found.trim();
  }
  return undefined;
}

function nameOf(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  for (const key of NAME_KEYS) {
    const found = record[key];
    if (typeof found === 'string' && found.trim()) return found.trim();
  }
  return undefined;
}

/** A name that is safe as a file name (no separators or control characters), at most 120 characters. */
export function safeName(name: string): string {
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_').trim();
  return [...cleaned].slice(0, 120).join('');
}

/**
 * The post's attachments (`attachment`): Afdian's shape is not pinned by any source, so as QW reads it:
 * one URL, a list of URLs, or objects with the URL and the name under one of the usual keys.
 */
export function attachmentsOf(value: unknown): MediaItem[] {
  const items = Array.isArray(value) ? value : value ? [value] : [];
  const out: MediaItem[] = [];
  for (const item of items) {
    const url = urlOf(item);
    if (!url) continue;
    out.push({ url, name: safeName(nameOf(item) ?? '') || nameFromUrl(url) || 'file' });
  }
  return out;
}

/** The pictures (`pics`, URLs or objects holding one) as originals. */
export function picsOf(post: Pick<AfdianPost, 'pics'>): MediaItem[] {
  return (post.pics ?? []).flatMap((value) => {
    const url = urlOf(value);
    return url ? [{ url: originalPic(url), name: nameFromUrl(originalPic(url)) || 'image.jpg' }] : [];
  });
}

/** The audio or video: Afdian gives its file no name, so the post's title with the link's extension. */
function mediaItem(url: string | null | undefined, title: string, postId: string): MediaItem | null {
  if (!url) return null;
  const ext = /\.([a-z0-9]{2,5})$/i.exec(nameFromUrl(url))?.[0] ?? '';
  return { url, name: `${safeName(title) || postId}${ext}` };
}

/** Which media are the post's file and which its attachments. */
export function postMedia(post: AfdianPost): PostMedia {
  const title = postTitle(post);
  const pics = picsOf(post);
  const thumb = [post.cover, post.video_thumb, post.audio_thumb].find((url) => !!url);
  let main: MediaItem | null = thumb ? { url: originalPic(thumb), name: nameFromUrl(originalPic(thumb)) || 'cover.jpg' } : null;
  let rest = pics;
  if (!main && pics.length > 0) [main, ...rest] = pics;
  const attachments = [
    ...rest.filter((pic) => pic.url !== main?.url),
    mediaItem(post.video, title, post.post_id),
    mediaItem(post.audio, title, post.post_id),
    ...attachmentsOf(post.attachment),
  ].filter((item): item is MediaItem => item !== null);
  return { main, attachments };
}

const VIDEO_SITES =
  /^https?:\/\/(?:[\w-]+\.)*(?:bilibili\.com|b23\.tv|youtube\.com|youtu\.be|vimeo\.com|nicovideo\.jp|nico\.ms|douyin\.com|v\.qq\.com)\//i;

/** The first link to a video site in the body (Afdian has no embed blocks: links live in the HTML). */
export function postEmbed(html: string): PostEmbed | null {
  for (const match of html.matchAll(/<a\b[^>]*\bhref\s*=\s*["']([^"']+)["']/gi)) {
    const url = match[1].replace(/&amp;/g, '&');
    if (VIDEO_SITES.test(url)) return { url, subject: null, description: null };
  }
  return null;
}

/** A post detail as Trove's post, before its files are archived; `locked` when the key may not see it. */
export interface MappedPost {
  locked: boolean;
  title: string;
  /** The body, its images still on Afdian's CDN (archiveInlineImages replaces them). */
  html: string;
  published: string | null;
  embed: PostEmbed | null;
  media: PostMedia;
}

export function mapPost(detail: AfdianPost): MappedPost {
  const html = bodyHtml(detail);
  return {
    locked: detail.has_right !== undefined && detail.has_right !== null && !isOn(detail.has_right),
    title: postTitle(detail),
    html,
    published: publishedOf(detail),
    embed: postEmbed(html),
    media: postMedia(detail),
  };
}
