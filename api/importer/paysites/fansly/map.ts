/**
 * Fansly's answers turned into what the archive stores. Pure functions: downloads and writes happen in
 * the importer.
 *
 * - Text: `content` is plain text (no HTML, no markdown): escaped, links made clickable, line breaks
 *   kept. Fansly has no titles: the title stays empty (post cards then show the text).
 * - Tags: the #hashtags of the text, lower-cased, once each (JK `metadata/hashtag.py`).
 * - Media: a post's attachments name accountMedia (contentType 1) or bundles (2) of them; a repost (8)
 *   names a post in aggregatedPosts. The best source of a media item is its original file or the
 *   largest variant of the same kind with a location (PR `parse_variants`, JK `parse_media_info`); a
 *   video with only an HLS variant is archived from the manifest with its CloudFront policy.
 * - Locked media (`access: false`, only a preview has locations) and deleted ones are never stored; a
 *   post whose every media item is locked or deleted is skipped (its previews are not content).
 */
import { createHash } from 'node:crypto';
import type { PostEmbed } from '@shared/shapes/posts.ts';
import { escapeHtml } from '@api/importer/text.ts';
import { nowIso } from '@api/data/util.ts';
import type { AccountMedia, Account, Attachment, Bundle, Media, MediaVariant, Post } from './api.ts';
import { parseUrl } from '@shared/parse.ts';

export const CONTENT_MEDIA = 1;
export const CONTENT_BUNDLE = 2;
export const CONTENT_AGGREGATED_POST = 8;

/** A Fansly time (epoch seconds, some answers ms) as the archive's UTC 'YYYY-MM-DDTHH:MM:SS'. */
export function fanslyTime(value: number | null | undefined): string | null {
  if (!value || !Number.isFinite(value)) return null;
  return nowIso(new Date(value > 1e11 ? value : value * 1000));
}

/** Plain text as HTML: escaped, http(s) links clickable, one paragraph with line breaks. */
export function textHtml(text: string | null | undefined): string {
  const source = (text ?? '').trim();
  if (!source) return '';
  const parts = source.split(/(https?:\/\/[^\s<>"]+)/g);
  const html = parts
    .map((part, i) => {
      if (i % 2 === 0) return escapeHtml(part);
      const url = part.replace(/[.,;:!?)]+$/, '');
      const rest = part.slice(url.length);
      return `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>${escapeHtml(rest)}`;
    })
    .join('');
  return `<p>${html.replace(/\r?\n/g, '<br>')}</p>`;
}

/** The #hashtags of a text, lower-cased, each once, in order. */
export function hashtags(text: string | null | undefined): string[] {
  const tags = [...(text ?? '').matchAll(/#+([\p{L}\p{N}_]+)/gu)].map((m) => m[1].toLowerCase());
  return [...new Set(tags)];
}

export type Source =
  | { kind: 'file'; url: string; name: string }
  | { kind: 'hls'; url: string; name: string; headers: Record<string, string> };

const kindOf = (mimetype: string | null | undefined) => (mimetype ?? '').split('/')[0].toLowerCase();
const isHls = (v: MediaVariant) => v.type === 302 || /mpegurl/i.test(v.mimetype ?? '');
const isStream = (url: string) => /\.(m3u8|mpd)(\?|$)/i.test(url);
const pixels = (v: MediaVariant) => (v.width ?? 0) * (v.height ?? 0);

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/quicktime': 'mov',
  'audio/mp4': 'm4a',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/wav': 'wav',
};

/** `{mediaId}.{ext}` (Fansly gives no file names): the extension from the mimetype, else the URL's. */
export function fileName(item: MediaVariant, url: string): string {
  let ext = EXTENSIONS[(item.mimetype ?? '').toLowerCase()];
  if (!ext) {
    ext = /\.([a-z0-9]{1,5})$/i.exec(parseUrl(url)?.pathname ?? '')?.[1]?.toLowerCase() ?? 'bin';
  }
  return `${item.id}.${ext}`;
}

const directLocation = (v: MediaVariant) =>
  (v.locations ?? []).find((l) => (l.locationId == null || l.locationId === '1') && !isStream(l.location))?.location;

/** The HLS manifest URL with its CloudFront policy as query parameters, and the same as cookies. */
function hlsSource(variant: MediaVariant, name: string): Source | undefined {
  const loc = (variant.locations ?? []).find((l) => isStream(l.location) || l.locationId === '102');
  if (!loc) return undefined;
  const meta = loc.metadata ?? {};
  const policy = ['Policy', 'Key-Pair-Id', 'Signature'].flatMap((k) => (typeof meta[k] === 'string' ? [[k, meta[k] as string]] : []));
  const url = new URL(loc.location);
  for (const [k, v] of policy) url.searchParams.set(k, v);
  const cookie = policy.map(([k, v]) => `CloudFront-${k}=${v}`).join('; ');
  return { kind: 'hls', url: url.toString(), name: name.replace(/\.[^.]+$/, '.mp4'), headers: cookie ? { cookie } : {} };
}

/** The best source of a media item the key can fetch: the largest file of its kind; the original on a tie or when it is as tall. */
export function bestSource(item: Media): Source | undefined {
  const kind = kindOf(item.mimetype);
  const direct: { v: MediaVariant; url: string }[] = [];
  const own = directLocation(item);
  if (own) direct.push({ v: item, url: own });
  for (const v of item.variants ?? []) {
    const url = directLocation(v);
    if (url && kindOf(v.mimetype) === kind && !isHls(v)) direct.push({ v, url });
  }
  const streams = kind === 'video' ? (item.variants ?? []).filter((v) => isHls(v) && (v.locations ?? []).length > 0) : [];
  const bestDirect = direct.sort((a, b) => pixels(b.v) - pixels(a.v))[0];
  const original = own ? direct.find((d) => d.v === item) : undefined;
  const chosen = original && bestDirect && (original.v.height ?? 0) >= (bestDirect.v.height ?? 0) ? original : bestDirect;
  const bestStream = streams.sort((a, b) => pixels(b) - pixels(a))[0];
  if (bestStream && (!chosen || pixels(bestStream) > pixels(chosen.v))) {
    const source = hlsSource(bestStream, fileName(item, bestStream.locations?.[0]?.location ?? ''));
    if (source) return source;
  }
  return chosen ? { kind: 'file', url: chosen.url, name: fileName(item, chosen.url) } : undefined;
}

/** A video's largest still image (its poster), used as the post's cover. */
export function posterSource(item: Media): Source | undefined {
  if (kindOf(item.mimetype) !== 'video') return undefined;
  const stills = (item.variants ?? [])
    .map((v) => ({ v, url: directLocation(v) }))
    .filter((s): s is { v: MediaVariant; url: string } => !!s.url && kindOf(s.v.mimetype) === 'image')
    .sort((a, b) => pixels(b.v) - pixels(a.v));
  return stills[0] ? { kind: 'file', url: stills[0].url, name: fileName(stills[0].v, stills[0].url) } : undefined;
}

export type MediaState =
  | { id: string; state: 'ok'; kind: string; source: Source; poster?: Source }
  | { id: string; state: 'locked' | 'deleted' };

/** What can be had of an accountMedia item: its best source, or why not. Missing items count as locked. */
export function mediaState(id: string, item: AccountMedia | undefined): MediaState {
  if (item?.deleted) return { id, state: 'deleted' };
  const source = item?.media && item.access !== false ? bestSource(item.media) : undefined;
  if (!item?.media || !source) return { id, state: 'locked' };
  return { id, state: 'ok', kind: kindOf(item.media.mimetype), source, poster: posterSource(item.media) };
}

export interface MediaIndex {
  media: Map<string, AccountMedia>;
  bundles: Map<string, Bundle>;
}

export function indexMedia(items: readonly AccountMedia[] | null | undefined, bundles: readonly Bundle[] | null | undefined): MediaIndex {
  return { media: new Map((items ?? []).map((m) => [m.id, m])), bundles: new Map((bundles ?? []).map((b) => [b.id, b])) };
}

/** The accountMedia ids attachments name, in order (a bundle's members by their position). */
export function mediaIds(attachments: readonly Attachment[] | null | undefined, index: MediaIndex): string[] {
  const ids: string[] = [];
  for (const a of [...(attachments ?? [])].sort((x, y) => (x.pos ?? 0) - (y.pos ?? 0))) {
    if (a.contentType === CONTENT_MEDIA) ids.push(a.contentId);
    if (a.contentType !== CONTENT_BUNDLE) continue;
    const b = index.bundles.get(a.contentId);
    if (!b || b.deleted) continue;
    const ordered = [...(b.bundleContent ?? [])].sort((x, y) => (x.pos ?? 0) - (y.pos ?? 0)).map((c) => c.accountMediaId);
    ids.push(...(ordered.length > 0 ? ordered : (b.accountMediaIds ?? [])));
  }
  return [...new Set(ids)];
}

/** Ids the attachments name that the answer itself did not include (to fetch from /account/media). */
export function missingMediaIds(lists: (readonly Attachment[] | null | undefined)[], index: MediaIndex): string[] {
  return [...new Set(lists.flatMap((a) => mediaIds(a, index)))].filter((id) => !index.media.has(id));
}

export interface ItemPlan {
  id: string;
  html: string;
  published: string | null;
  tags: string[];
  /** The items that can be archived, in order. */
  media: Extract<MediaState, { state: 'ok' }>[];
  locked: number;
  deleted: number;
  /** 'skip-locked' / 'skip-deleted': it had media and none can be had. */
  verdict: 'store' | 'skip-locked' | 'skip-deleted';
  embed: PostEmbed | null;
}

function plan(id: string, content: string | null | undefined, createdAt: number, states: MediaState[], embed: PostEmbed | null): ItemPlan {
  const ok = states.filter((s): s is Extract<MediaState, { state: 'ok' }> => s.state === 'ok');
  const locked = states.filter((s) => s.state === 'locked').length;
  const deleted = states.filter((s) => s.state === 'deleted').length;
  const verdict = states.length > 0 && ok.length === 0 ? (locked > 0 ? 'skip-locked' : 'skip-deleted') : 'store';
  return {
    id,
    html: textHtml(content),
    published: fanslyTime(createdAt),
    tags: hashtags(content),
    media: ok,
    locked,
    deleted,
    verdict,
    embed,
  };
}

/** A repost as an embed preview of the original post on Fansly. */
function repostEmbed(
  post: Post,
  aggregated: readonly Post[],
  accounts: readonly Pick<Account, 'id' | 'username' | 'displayName'>[],
): PostEmbed | null {
  const ref = (post.attachments ?? []).find((a) => a.contentType === CONTENT_AGGREGATED_POST);
  if (!ref) return null;
  const original = aggregated.find((p) => p.id === ref.contentId);
  const author = original ? accounts.find((a) => a.id === original.accountId) : undefined;
  const by = author ? ` by ${author.displayName || author.username}` : '';
  return {
    url: `https://fansly.com/post/${ref.contentId}`,
    subject: `Repost of a post${by}`,
    description: original?.content ? original.content.slice(0, 300) : null,
  };
}

export function postPlan(
  post: Post,
  index: MediaIndex,
  context: { aggregated?: readonly Post[] | null; accounts?: readonly Pick<Account, 'id' | 'username' | 'displayName'>[] | null } = {},
): ItemPlan {
  const states = mediaIds(post.attachments, index).map((id) => mediaState(id, index.media.get(id)));
  return plan(post.id, post.content, post.createdAt, states, repostEmbed(post, context.aggregated ?? [], context.accounts ?? []));
}

export function messagePlan(
  message: { id: string; content?: string | null; createdAt: number; attachments?: Attachment[] | null },
  index: MediaIndex,
): ItemPlan {
  const states = mediaIds(message.attachments, index).map((id) => mediaState(id, index.media.get(id)));
  return plan(message.id, message.content, message.createdAt, states, null);
}

/** A DM's hash: from Fansly's message id, so a re-import finds it again. */
export const dmHash = (messageId: string) => createHash('sha256').update(`fansly-message:${messageId}`).digest('hex');

/** The best image of an avatar or banner Media. */
export function profileImage(item: Media | null | undefined): string | undefined {
  const source = item ? bestSource(item) : undefined;
  return source?.kind === 'file' ? source.url : undefined;
}
