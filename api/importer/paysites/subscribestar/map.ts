/**
 * SubscribeStar's HTML into Trove's shapes: the `div.post` blocks of a star page, the feed and the
 * "load more" fragments; the profile header; the next-page link; dates. Pure functions: the importer
 * does the fetching, archiving and writing. The markers are those of gallery-dl, Kitsune, hoordu and
 * GalleryManager (docs/importing.md, SubscribeStar section).
 */
import { z } from 'zod';
import type { PostEmbed } from '@shared/shapes/posts.ts';
import type { PostInput } from '@api/data/posts.ts';
import type { ArchivedFile } from '@api/importer/content.ts';
import { escapeHtml } from '@api/importer/text.ts';
import { nowIso } from '@api/data/util.ts';
import {
  closest,
  decodeEntities,
  find,
  findAll,
  hasClass,
  innerHtml,
  outerHtml,
  parseHtml,
  textOf,
  type HtmlDocument,
  type HtmlElement,
} from './html.ts';
import { decodeComponent, parseJsonText, parseUrl } from '@shared/parse.ts';

/** An upload of a post: a gallery image or video, a document, an audio file. */
export interface SsUploadRef {
  id: string;
  /** As the page gives it: absolute (CDN) or site-relative (/uploads?payload=...). */
  url: string;
  name: string;
  kind: 'image' | 'video' | 'doc' | 'audio';
}

export interface SsPostData {
  id: string;
  /** The star's handle from the post's avatar link, and its display name. */
  slug: string | null;
  creatorName: string | null;
  /** Above the key's tier (`.post-body.is-locked`, or nothing but blurred previews). */
  locked: boolean;
  /** The content's first <h1>; '' when the post has none. */
  title: string;
  /** The content HTML without the title, links unwrapped from /away; not sanitized yet. */
  body: string;
  /** UTC 'YYYY-MM-DDTHH:MM:SS' of the shown date, and whether it is an "Updated on" date. */
  date: string | null;
  updated: boolean;
  uploads: SsUploadRef[];
  /** Gallery items that were only blurred previews (/previews/ URLs). */
  previews: number;
  tags: string[];
  embed: PostEmbed | null;
}

export interface SsProfile {
  name: string;
  starId: string | null;
  avatar: string | null;
  cover: string | null;
}

/** A page that could not be read as SubscribeStar's: the importer turns it into a clear retryable error. */
export class SsShapeError extends Error {
  override name = 'SsShapeError';
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DATE = /^(Updated on\s+)?([A-Za-z]+)\.?\s+(\d{1,2}),\s+(\d{4})\s+(\d{1,2}):(\d{2})\s*([ap])\.?m\.?$/i;

/**
 * 'Sep 30, 2024 08:46 pm' or 'September 30, 2024 08:46 PM', optionally 'Updated on ...', as UTC (the
 * page names no zone). Other languages' month names are not read (null).
 */
export function parseSsDate(text: string): { date: string | null; updated: boolean } {
  const m = DATE.exec(text.replace(/\s+/g, ' ').trim());
  if (!m) return { date: null, updated: /^Updated on\b/i.test(text.trim()) };
  const month = MONTHS.indexOf(m[2].slice(0, 3).toLowerCase());
  const hour = Number(m[5]);
  if (month < 0 || hour < 1 || hour > 12) return { date: null, updated: !!m[1] };
  const h24 = (hour % 12) + (m[7].toLowerCase() === 'p' ? 12 : 0);
  const ms = Date.UTC(Number(m[4]), month, Number(m[3]), h24, Number(m[6]));
  return { date: Number.isFinite(ms) ? nowIso(new Date(ms)) : null, updated: !!m[1] };
}

const galleryItem = z.object({
  id: z.union([z.number(), z.string()]),
  url: z.string(),
  original_filename: z.string().nullish(),
  name: z.string().nullish(),
  type: z.string().nullish(),
});

const isPreview = (url: string) => /\/previews?\//.test(url.split('?')[0]);
const VIDEO_HOSTS = /^(?:www\.|m\.)?(?:youtube\.com|youtu\.be|vimeo\.com|player\.vimeo\.com)$/i;

/** /away?url=<base64> links point at their real address (data-href, else the decoded url). */
function unwrapLinks(html: string, root: string): string {
  return html.replace(/<a\b[^>]*>/gi, (tag) => {
    const doc = parseHtml(tag);
    const a = doc.root.children[0];
    if (!a) return tag;
    let href = a.attrs['data-href'] || a.attrs.href || '';
    const away = /^\/away\?url=([^&]+)/.exec(href);
    if (!a.attrs['data-href'] && away) {
      const encoded = decodeComponent(away[1]);
      href = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8');
    }
    if (href.startsWith('/') && !href.startsWith('//')) href = `${root}${href}`;
    return href ? `<a href="${escapeHtml(href)}">` : '<a>';
  });
}

/** The first link to a video site in the body, as the post's embed. */
function firstVideoLink(body: string): PostEmbed | null {
  const doc = parseHtml(body);
  for (const a of findAll(doc.root, { tag: 'a', attrs: { href: true } })) {
    const url = parseUrl(a.attrs.href);
    if (!url) continue;
    if (VIDEO_HOSTS.test(url.hostname)) return { url: url.toString(), subject: textOf(doc, a) || null, description: null };
  }
  return null;
}

function gallery(post: HtmlElement, id: string): { items: SsUploadRef[]; previews: number } {
  const items: SsUploadRef[] = [];
  let previews = 0;
  for (const holder of findAll(post, { attrs: { 'data-gallery': true } })) {
    const gallery = parseJsonText(holder.attrs['data-gallery']);
    if (!gallery) throw new SsShapeError(`the gallery of post ${id} is not JSON`);
    const parsed = gallery.value;
    const list = z.array(galleryItem).safeParse(parsed);
    if (!list.success) throw new SsShapeError(`the gallery of post ${id} is in a shape this importer does not understand`);
    for (const item of list.data) {
      if (isPreview(item.url)) {
        previews++;
        continue;
      }
      const name = item.original_filename || item.name || '';
      items.push({ id: String(item.id), url: item.url, name, kind: item.type === 'video' ? 'video' : 'image' });
    }
  }
  return { items, previews };
}

function files(doc: HtmlDocument, post: HtmlElement): SsUploadRef[] {
  const found: SsUploadRef[] = [];
  for (const docEl of findAll(post, { classes: ['doc_preview'] })) {
    const link = find(docEl, { tag: 'a', attrs: { href: true } });
    const title = find(docEl, { classes: ['doc_preview-title'] });
    if (link)
      found.push({ id: docEl.attrs['data-upload-id'] ?? '', url: link.attrs.href, name: title ? textOf(doc, title) : '', kind: 'doc' });
  }
  for (const audio of findAll(post, { classes: ['audio_preview-data'] })) {
    const src = audio.attrs.src || find(audio, { attrs: { src: true } })?.attrs.src;
    const title = find(audio, { classes: ['audio_preview-title'] });
    if (src) found.push({ id: audio.attrs['data-upload-id'] ?? '', url: src, name: title ? textOf(doc, title) : '', kind: 'audio' });
  }
  return found;
}

/** The title (first top-level <h1> of the content) and the content without it. */
function titleAndBody(doc: HtmlDocument, post: HtmlElement): { title: string; body: string } {
  const content = find(post, { classes: ['post-content'] });
  if (!content) return { title: '', body: '' };
  const box = find(content, { classes: ['trix-content'] }) ?? content;
  const h1 = box.children.find((child) => child.tag === 'h1') ?? find(box, { tag: 'h1' });
  const inner = innerHtml(doc, box);
  if (!h1) return { title: '', body: inner.trim() };
  const at = h1.start - box.innerStart;
  const body = inner.slice(0, at) + inner.slice(at + outerHtml(doc, h1).length);
  return { title: textOf(doc, h1), body: body.trim() };
}

function postOf(doc: HtmlDocument, post: HtmlElement, root: string): SsPostData {
  const id = post.attrs['data-id'];
  const avatar = find(post, { classes: ['post-avatar'] });
  const user = find(post, { classes: ['post-user'] });
  const slugFrom = (href: string | undefined) => {
    const raw = /^\/([^/?#]+)/.exec(href ?? '')?.[1];
    if (!raw) return null;
    return decodeComponent(raw) ?? raw;
  };
  const dateEl = find(post, { classes: ['post-date'] });
  const { date, updated } = parseSsDate(dateEl ? textOf(doc, dateEl) : '');
  const bodyEl = find(post, { classes: ['post-body'] });
  const { title, body: rawBody } = titleAndBody(doc, post);
  const body = unwrapLinks(rawBody, root);
  const media = gallery(post, id);
  const uploads = [...media.items, ...files(doc, post)];
  const tagBox = find(post, { classes: ['post_tags'] });
  const tags = tagBox
    ? findAll(tagBox, { tag: 'a' })
        .map((a) => textOf(doc, a))
        .filter(Boolean)
    : [];
  const empty = uploads.length === 0 && decodeEntities(rawBody.replace(/<[^>]*>/g, '')).trim() === '';
  return {
    id,
    slug: slugFrom(avatar?.attrs.href ?? user?.attrs.href),
    creatorName: user ? textOf(doc, user) : (find(post, { attrs: { 'data-type': 'avatar' } })?.attrs.alt ?? null),
    locked: (bodyEl !== undefined && hasClass(bodyEl, 'is-locked')) || (media.previews > 0 && empty),
    title,
    body,
    date,
    updated,
    uploads,
    previews: media.previews,
    tags: [...new Set(tags)],
    embed: firstVideoLink(body),
  };
}

/** The `div.post` blocks of a page or fragment, in page order (nested post-like blocks are not posts). */
export function parsePosts(html: string, root: string): SsPostData[] {
  const doc = parseHtml(html);
  return findAll(doc.root, { tag: 'div', classes: ['post'], attrs: { 'data-id': true } })
    .filter((el) => !closest(el.parent!, { tag: 'div', classes: ['post'], attrs: { 'data-id': true } }))
    .map((el) => postOf(doc, el, root));
}

/** The "load more" link's path and query (relative, entities decoded), or null on the last page. */
export function nextPage(html: string): string | null {
  const doc = parseHtml(html);
  const links = findAll(doc.root, { classes: ['posts-more'], attrs: { href: true } });
  const href = links.at(-1)?.attrs.href;
  if (!href) return null;
  const url = parseUrl(href, 'https://subscribestar.invalid');
  return url ? `${url.pathname}${url.search}` : null;
}

/** The star page's header: display name, numeric id, avatar and cover images. */
export function parseProfile(html: string): SsProfile | null {
  const doc = parseHtml(html);
  const header = find(doc.root, { classes: ['profile_main_info'] });
  const nameEl = find(doc.root, { classes: ['profile_main_info-name'] });
  if (!nameEl) return null;
  const scope = header ?? doc.root;
  const avatar = find(scope, { tag: 'img', attrs: { 'data-type': 'avatar' } });
  const cover = find(doc.root, { tag: 'img', attrs: { 'data-type': 'cover' } });
  const more = nextPage(html);
  const starId = (more && /[?&]star_id=(\d+)/.exec(more)?.[1]) || avatar?.attrs['data-user-id'] || null;
  return { name: textOf(doc, nameEl), starId, avatar: avatar?.attrs.src || null, cover: cover?.attrs.src || null };
}

/** Whether a page shows the logged-in account (the top bar's user block). */
export function isLoggedIn(html: string): boolean {
  const doc = parseHtml(html);
  return (
    find(doc.root, { classes: ['top_bar-user_info'] }) !== undefined ||
    find(doc.root, { classes: ['top_bar-user-menu_wrapper'] }) !== undefined
  );
}

/** The distinct stars of feed posts, in order: handle and display name. */
export function feedCreators(posts: readonly SsPostData[]): { slug: string; name: string }[] {
  const seen = new Map<string, string>();
  for (const post of posts) if (post.slug && !seen.has(post.slug)) seen.set(post.slug, post.creatorName || post.slug);
  return [...seen].map(([slug, name]) => ({ slug, name }));
}

/** The age confirmation form: its action, authenticity_token and other hidden fields. */
export function ageForm(html: string): { action: string; fields: Record<string, string> } | null {
  const doc = parseHtml(html);
  const form = findAll(doc.root, { tag: 'form' }).find((f) => /age_confirmation/.test(f.attrs.action ?? ''));
  if (!form) return null;
  const fields: Record<string, string> = {};
  for (const input of findAll(form, { tag: 'input', attrs: { name: true } })) fields[input.attrs.name] = input.attrs.value ?? '';
  return { action: form.attrs.action, fields };
}

/** A file's name: the page's, else the URL's ?filename= (double-encoded on SubscribeStar), else its last segment. */
export function uploadName(upload: SsUploadRef): string {
  if (upload.name) return upload.name;
  const fallback = `${upload.kind}-${upload.id}`;
  const url = parseUrl(upload.url, 'https://subscribestar.invalid');
  if (!url) return fallback;
  // The site encodes the name once more inside the query.
  const fromQuery = url.searchParams.get('filename');
  if (fromQuery) return decodeComponent(fromQuery) ?? fromQuery;
  return decodeComponent(url.pathname.split('/').pop() ?? '') || fallback;
}

/**
 * The post to store: the first archived gallery image is its file (SubscribeStar has no separate cover),
 * every other upload an attachment, in page order. An edited post shows only its update date, so the
 * publication date stays the one first seen (`storedPublished`), else that date.
 */
export function toPostInput(
  slug: string,
  data: SsPostData,
  archived: readonly { file: ArchivedFile; upload: SsUploadRef }[],
  content: string,
  storedPublished?: string | null,
): PostInput {
  const cover = archived.find((a) => a.upload.kind === 'image');
  return {
    service: 'subscribestar',
    user: slug,
    id: data.id,
    title: data.title,
    content,
    published: data.updated ? (storedPublished ?? data.date) : data.date,
    edited: data.updated ? data.date : null,
    file: cover?.file ?? null,
    attachments: archived.filter((a) => a !== cover).map((a) => a.file),
    embed: data.embed,
    tags: data.tags,
  };
}
