/**
 * Boosty shapes into Trove's: a post's content blocks as HTML, its media in block order, its poll, its
 * comments and dates. Pure functions; the importer does the fetching and the writing.
 *
 * Blocks (notes: gallery-dl, boosty-downloader, BoostBuddy): `text` and `link` blocks are runs of one
 * paragraph until an empty text block with modificator BLOCK_END; their `content` is a JSON array
 * [text, blockStyle, [[styleId, offset, length], ...]] (style 0 bold, 2 italic, 4 underline; blockStyle
 * 'header-one'... for headings). `list` has items of text blocks and nested items; `smile` is an emoji;
 * `image`, `file`, `audio_file` and `ok_video` are media; `video` is an external (YouTube...) link.
 * Unknown types are left out.
 */
import { parseJsonText } from '@shared/parse.ts';
import { sanitizePostHtml } from '@api/content/sanitize.ts';
import type { CommentInput } from '@api/data/comments.ts';
import type { PostFileInput, PostInput } from '@api/data/posts.ts';
import { nowIso } from '@api/data/util.ts';
import { escapeHtml } from '@api/importer/text.ts';
import type { Poll } from '@shared/shapes/posts.ts';
import type { Block, BoostyComment, BoostyPoll, BoostyPost } from './api.ts';

/** Epoch seconds as the archive's UTC 'YYYY-MM-DDTHH:MM:SS'; null when absent. */
function epochTime(seconds: number | null | undefined): string | null {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? nowIso(new Date(seconds * 1000)) : null;
}

/** The edit time, when the post was changed after it was published. */
function editedTime(post: Pick<BoostyPost, 'publishTime' | 'updatedAt'>): string | null {
  return post.updatedAt && post.updatedAt > post.publishTime ? epochTime(post.updatedAt) : null;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A text or link block's [text, blockStyle, ranges]; plain text when `content` is not the JSON array. */
export function textOf(content: unknown): { text: string; style: string; ranges: [number, number, number][] } {
  const raw = str(content);
  if (raw.startsWith('[')) {
    // Not the JSON array: the text itself.
    const parsed = parseJsonText(raw)?.value;
    if (Array.isArray(parsed)) {
      const [text, style, ranges] = parsed as [unknown, unknown, unknown];
      const valid = Array.isArray(ranges)
        ? ranges.filter((r): r is [number, number, number] => Array.isArray(r) && r.length >= 3 && r.every((n) => typeof n === 'number'))
        : [];
      return { text: str(text), style: str(style) || 'unstyled', ranges: valid };
    }
  }
  return { text: raw, style: 'unstyled', ranges: [] };
}

const STYLE_TAGS: Record<number, string> = { 0: 'b', 2: 'i', 4: 'u' };

/**
 * Text with its bold / italic / underline ranges as HTML. Ranges are read as (offset, length) in code
 * points (BoostBuddy's reading; boosty-downloader's (start, end) agrees when the offset is 0).
 */
export function styledText(text: string, ranges: [number, number, number][]): string {
  const chars = Array.from(text);
  const spans = ranges
    .filter(([id]) => STYLE_TAGS[id])
    .map(([id, offset, length]) => ({ tag: STYLE_TAGS[id], from: Math.max(0, offset), to: Math.min(chars.length, offset + length) }))
    .filter((span) => span.to > span.from);
  const cuts = [...new Set([0, chars.length, ...spans.flatMap((s) => [s.from, s.to])])].sort((a, b) => a - b);
  let html = '';
  for (let i = 0; i < cuts.length - 1; i++) {
    const [from, to] = [cuts[i], cuts[i + 1]];
    let piece = escapeHtml(chars.slice(from, to).join('')).replace(/\n/g, '<br>');
    for (const tag of ['u', 'i', 'b']) {
      if (spans.some((s) => s.tag === tag && s.from <= from && to <= s.to)) piece = `<${tag}>${piece}</${tag}>`;
    }
    html += piece;
  }
  return html;
}

/** An inline run (text, link or smile) as HTML, with its paragraph style; undefined for other blocks. */
function inlineRun(block: Block): { html: string; style: string } | undefined {
  if (block.type === 'text' || block.type === 'header') {
    const { text, style, ranges } = textOf(block.content);
    return { html: styledText(text, ranges), style: block.type === 'header' && style === 'unstyled' ? 'header-two' : style };
  }
  if (block.type === 'link') {
    const url = str(block.url);
    const { text, style, ranges } = textOf(block.content);
    const inner = text ? styledText(text, ranges) : escapeHtml(url);
    return { html: /^https?:\/\//i.test(url) ? `<a href="${escapeHtml(url)}">${inner}</a>` : inner, style };
  }
  if (block.type === 'smile') return { html: escapeHtml(`:${str(block.name) || 'smile'}:`), style: 'unstyled' };
  return undefined;
}

const HEADINGS: Record<string, string> = {
  'header-one': 'h2',
  'header-two': 'h3',
  'header-three': 'h4',
  'header-four': 'h5',
  'header-five': 'h6',
  'header-six': 'h6',
};

function listHtml(block: Block): string {
  const tag = block.style === 'ordered' ? 'ol' : 'ul';
  const items = Array.isArray(block.items) ? (block.items as { data?: unknown; items?: unknown }[]) : [];
  const item = (entry: { data?: unknown; items?: unknown }): string => {
    const runs = (Array.isArray(entry.data) ? (entry.data as Block[]) : []).map(inlineRun).filter((run) => run !== undefined);
    const nested =
      Array.isArray(entry.items) && entry.items.length > 0 ? listHtml({ type: 'list', style: block.style, items: entry.items }) : '';
    return `<li>${runs.map((run) => run.html).join('')}${nested}</li>`;
  };
  return items.length > 0 ? `<${tag}>${items.map(item).join('')}</${tag}>` : '';
}

/** Where each media block was archived, by its block id: '/data/...' paths the HTML may show. */
export interface ArchivedMedia {
  image(id: string): string | undefined;
  /** A file, audio or video block's archived file (a link in the text), with its name. */
  file(id: string): { path: string; name: string } | undefined;
}

const NONE: ArchivedMedia = { image: () => undefined, file: () => undefined };

/** Content blocks as HTML (before sanitizing). Images and files not archived are left out. */
export function blocksToHtml(blocks: readonly Block[], media: ArchivedMedia = NONE): string {
  const parts: string[] = [];
  let runs: { html: string; style: string }[] = [];
  const flush = () => {
    const inner = runs
      .map((run) => run.html)
      .join('')
      .replace(/^(<br>)+|(<br>)+$/g, '');
    const tag = HEADINGS[runs[0]?.style ?? ''] ?? 'p';
    if (inner.trim()) parts.push(`<${tag}>${inner}</${tag}>`);
    runs = [];
  };
  for (const block of blocks) {
    const run = inlineRun(block);
    if (run) {
      if (run.html) runs.push(run);
      if (block.modificator === 'BLOCK_END') flush();
      continue;
    }
    flush();
    const id = str(block.id);
    switch (block.type) {
      case 'list':
        parts.push(listHtml(block));
        break;
      case 'image': {
        const src = media.image(id);
        if (src) parts.push(`<p><img src="${escapeHtml(src)}"></p>`);
        break;
      }
      case 'file':
      case 'audio_file':
      case 'ok_video': {
        const file = media.file(id);
        if (file)
          parts.push(`<p><a href="${escapeHtml(`${file.path}?f=${encodeURIComponent(file.name)}`)}">${escapeHtml(file.name)}</a></p>`);
        break;
      }
      case 'video': {
        const url = str(block.url);
        if (/^https?:\/\//i.test(url)) parts.push(`<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`);
        break;
      }
    }
  }
  flush();
  return parts.join('');
}

/** What a post holds to download, in block order. */
export type MediaItem =
  | { kind: 'image'; id: string; url: string }
  | { kind: 'file' | 'audio'; id: string; url: string; name: string; complete: boolean }
  | { kind: 'video'; id: string; name: string; mp4?: string; hls?: string; preview?: string; complete: boolean };

/** OK.ru's progressive MP4 qualities, best first, then its HLS playlists (gallery-dl, boosty-downloader). */
const MP4_QUALITIES = ['ultra_hd', 'quad_hd', 'full_hd', 'high', 'medium', 'low', 'lowest', 'tiny'];
const HLS_TYPES = ['hls', 'ondemand_hls'];

/** A file URL signed with the post's signedQuery (files and audio on cdn.boosty.to need it). */
export function signedUrl(url: string, signedQuery: string | null | undefined): string {
  const query = (signedQuery ?? '').replace(/^\?/, '');
  if (!query) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

function withExtension(name: string, ext: string): string {
  return name.toLowerCase().endsWith(ext) ? name : `${name}${ext}`;
}

export function postMedia(post: Pick<BoostyPost, 'data' | 'signedQuery'>): MediaItem[] {
  const items: MediaItem[] = [];
  for (const block of post.data ?? []) {
    const id = str(block.id);
    const url = str(block.url);
    const complete = block.complete !== false;
    if (block.type === 'image' && url) items.push({ kind: 'image', id, url });
    else if ((block.type === 'file' || block.type === 'audio_file') && url) {
      const kind = block.type === 'file' ? 'file' : 'audio';
      const fallback = `${id || 'file'}${kind === 'audio' ? '.mp3' : ''}`;
      items.push({ kind, id, url: signedUrl(url, post.signedQuery), name: str(block.title) || fallback, complete });
    } else if (block.type === 'ok_video') {
      const urls = new Map(
        (Array.isArray(block.playerUrls) ? (block.playerUrls as { type?: unknown; url?: unknown }[]) : []).map((u) => [
          str(u.type),
          str(u.url),
        ]),
      );
      const mp4 = MP4_QUALITIES.map((type) => urls.get(type)).find(Boolean);
      const hls = HLS_TYPES.map((type) => urls.get(type)).find(Boolean);
      const preview = str(block.preview) || str(block.defaultPreview) || undefined;
      const name = withExtension(str(block.title) || str(block.vid) || id || 'video', '.mp4');
      items.push({ kind: 'video', id, name, mp4, hls, preview, complete: complete && (!!mp4 || !!hls) });
    }
  }
  return items;
}

/** The post's first external video (YouTube...) as its embed. */
function postEmbed(post: Pick<BoostyPost, 'data' | 'title'>): { url: string; subject: string | null; description: null } | null {
  const video = (post.data ?? []).find((block) => block.type === 'video' && /^https?:\/\//i.test(str(block.url)));
  return video ? { url: str(video.url), subject: post.title || null, description: null } : null;
}

/** Boosty's poll as Trove's (choices in Boosty's order with their votes). */
function pollOf(poll: BoostyPoll | null | undefined, published: string | null): Poll | null {
  if (!poll) return null;
  const choices = poll.options.map((option) => ({ text: option.text, votes: option.counter ?? 0 }));
  return {
    title: (poll.title ?? []).join(' ').trim() || 'Poll',
    description: null,
    choices,
    total_votes: poll.counter ?? choices.reduce((sum, choice) => sum + choice.votes, 0),
    created_at: published ?? '',
    closes_at: null,
    allow_multiple: !!poll.isMultiple,
  };
}

/** Comments with the replies Boosty included, flattened (a reply names its parent); deleted ones left out. */
export function flattenComments(comments: readonly BoostyComment[], key: { user: string; post_id: string }): CommentInput[] {
  const out: CommentInput[] = [];
  const walk = (list: readonly BoostyComment[], parent: string | null) => {
    for (const c of list) {
      if (c.isDeleted) continue;
      out.push({
        service: 'boosty',
        user: key.user,
        post_id: key.post_id,
        id: c.id,
        parent_id: parent,
        commenter: String(c.author.id),
        commenter_name: c.author.name,
        content: blocksToHtml(c.data ?? []),
        published: epochTime(c.createdAt),
      });
      walk(c.replies?.data ?? [], c.id);
    }
  };
  walk(comments, null);
  return out;
}

/** What becomes of a post: stored, or skipped as one the key cannot see ('locked') or a deleted one ('gone'). */
export function postVerdict(post: Pick<BoostyPost, 'isDeleted' | 'hasAccess'>): 'post' | 'locked' | 'gone' {
  if (post.isDeleted) return 'gone';
  return post.hasAccess ? 'post' : 'locked';
}

/** The post as Trove stores it, once its media are archived (`files`). */
export function toPostInput(
  blogUrl: string,
  post: BoostyPost,
  files: { file: PostFileInput | null; attachments: PostFileInput[]; archived: ArchivedMedia },
): PostInput {
  const published = epochTime(post.publishTime);
  return {
    service: 'boosty',
    user: blogUrl,
    id: post.id,
    title: post.title ?? '',
    content: sanitizePostHtml(blocksToHtml(post.data ?? [], files.archived)),
    published,
    edited: editedTime(post),
    file: files.file,
    attachments: files.attachments,
    embed: postEmbed(post),
    poll: pollOf(post.poll, published),
    tags: (post.tags ?? []).map((tag) => tag.title),
  };
}
