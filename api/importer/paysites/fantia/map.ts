/**
 * Fantia's post answer into Trove's post: which contents the key sees, the body as HTML (the post's own
 * text, then each visible content with its title: text, gallery and file notes, blog deltas, embeds and
 * products as links), the embed, the edit date and the note on contents left out. Pure functions; the
 * importer fetches, archives and writes.
 */
import { nameFromUrl } from '@api/importer/content.ts';
import type { PostInput } from '@api/data/posts.ts';
import type { PostEmbed } from '@shared/shapes/posts.ts';
import { archiveTime, escapeHtml, paragraphsHtml } from '@api/importer/text.ts';
import type { FantiaContent, FantiaPost } from './api.ts';
import { deltaImages, deltaToHtml, parseDelta, type DeltaImages, type FantiaImage, type QuillOp } from './quill.ts';

/** Links in stored posts point at the real site, whatever the importer was connected to. */
export const FANTIA_SITE = 'https://fantia.jp';

/** The content categories this importer knows (research: photo_gallery, file, blog, text, embed, product). */
export const KNOWN_CATEGORIES = new Set(['photo_gallery', 'file', 'blog', 'text', 'embed', 'product']);

export interface Split {
  /** Contents the key sees, in the post's order. */
  visible: FantiaContent[];
  /** Contents above the key's plan ('uncatchable' and any other status). */
  locked: FantiaContent[];
  /** Contents hidden by the account's adult setting ('adult_only'). */
  adultOnly: FantiaContent[];
}

export function splitContents(post: FantiaPost): Split {
  const split: Split = { visible: [], locked: [], adultOnly: [] };
  for (const content of post.post_contents ?? []) {
    if (content.visible_status === 'visible') split.visible.push(content);
    else if (content.visible_status === 'adult_only') split.adultOnly.push(content);
    else split.locked.push(content);
  }
  return split;
}

/** A post the key sees nothing of: it has contents, and none is visible. Never stored as an empty post. */
export function isLocked(split: Split): boolean {
  return split.visible.length === 0 && split.locked.length + split.adultOnly.length > 0;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The post's note on what was left out (incomplete_rewards), or null when nothing was. */
export function missingNote(split: Split): string | null {
  const parts: string[] = [];
  if (split.locked.length > 0) {
    const plans = [
      ...new Set(split.locked.map((c) => (c.plan ? `${c.plan.name ? `${c.plan.name}, ` : ''}${c.plan.price}円` : '')).filter(Boolean)),
    ];
    parts.push(`${plural(split.locked.length, 'content')} for a higher plan${plans.length ? ` (${plans.join('; ')})` : ''}`);
  }
  if (split.adultOnly.length > 0) parts.push(`${plural(split.adultOnly.length, 'adult content')} hidden by the account's settings`);
  return parts.length > 0 ? `Not archived: ${parts.join(' and ')}.` : null;
}

/** The deltas in a post the key sees: its comment when it is one, each visible blog, else the post's blog_comment. */
export function postDeltas(post: FantiaPost, visible: FantiaContent[]): QuillOp[][] {
  const deltas: QuillOp[][] = [];
  const own = parseDelta(post.comment);
  if (own) deltas.push(own);
  const blogs = visible.filter((c) => c.category === 'blog');
  for (const blog of blogs) {
    const ops = parseDelta(blog.comment);
    if (ops) deltas.push(ops);
  }
  // blog_comment mirrors the blog content; read it only when the post has no blog content at all.
  const hasBlogContent = (post.post_contents ?? []).some((c) => c.category === 'blog');
  const blogComment = post.is_blog && !hasBlogContent ? parseDelta(post.blog_comment) : undefined;
  if (blogComment) deltas.push(blogComment);
  return deltas;
}

/** Every fantiaImage of the post's visible deltas (to resolve to signed URLs before mapping). */
export function postImages(post: FantiaPost, visible: FantiaContent[]): FantiaImage[] {
  return postDeltas(post, visible).flatMap(deltaImages);
}

/** The key of a fantiaImage in the map of resolved URLs. */
export const imageKey = (image: FantiaImage) => String(image.original_url ?? image.url ?? image.id ?? '');

function contentHtml(content: FantiaContent, images: DeltaImages): string {
  const title = content.title?.trim() ? `<h3>${escapeHtml(content.title.trim())}</h3>` : '';
  switch (content.category) {
    case 'blog': {
      const ops = parseDelta(content.comment);
      return title + (ops ? deltaToHtml(ops, images) : paragraphsHtml(content.comment, { keepIndent: true }));
    }
    case 'photo_gallery': {
      const notes = (content.post_content_photos ?? []).map((p) => paragraphsHtml(p.comment, { keepIndent: true })).join('');
      return title + paragraphsHtml(content.comment, { keepIndent: true }) + notes;
    }
    case 'embed': {
      const url = content.embed_url && /^https?:\/\//i.test(content.embed_url) ? content.embed_url : undefined;
      const link = url ? `<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>` : '';
      return title + paragraphsHtml(content.comment, { keepIndent: true }) + link;
    }
    case 'product': {
      const product = content.product;
      const href = product?.uri
        ? new URL(product.uri, FANTIA_SITE).toString()
        : product?.id
          ? `${FANTIA_SITE}/products/${product.id}`
          : undefined;
      const name = escapeHtml(product?.name || href || '');
      return (
        title + paragraphsHtml(content.comment, { keepIndent: true }) + (href ? `<p><a href="${escapeHtml(href)}">${name}</a></p>` : '')
      );
    }
    default:
      return title + paragraphsHtml(content.comment, { keepIndent: true });
  }
}

/** The post's HTML before its images are archived: the post's text, then each visible content. */
export function postHtml(post: FantiaPost, visible: FantiaContent[], images: DeltaImages): string {
  const own = parseDelta(post.comment);
  let html = own ? deltaToHtml(own, images) : paragraphsHtml(post.comment, { keepIndent: true });
  const hasBlogContent = (post.post_contents ?? []).some((c) => c.category === 'blog');
  const blogComment = post.is_blog && !hasBlogContent ? parseDelta(post.blog_comment) : undefined;
  if (blogComment) html += deltaToHtml(blogComment, images);
  for (const content of visible) if (KNOWN_CATEGORIES.has(content.category)) html += contentHtml(content, images);
  return html;
}

/** The first visible embed content, as Trove's embed. */
export function postEmbed(visible: FantiaContent[]): PostEmbed | null {
  const first = visible.find((c) => c.category === 'embed' && c.embed_url && /^https?:\/\//i.test(c.embed_url));
  return first ? { url: first.embed_url!, subject: first.title?.trim() || null, description: null } : null;
}

/** converted_at when it is later than posted_at (Fantia moves it on when a post is changed). */
export function editedDate(post: FantiaPost): string | null {
  const published = archiveTime(post.posted_at);
  const converted = archiveTime(post.converted_at);
  return converted && published && converted > published ? converted : null;
}

/** A name for a gallery photo: the file name in its URL (a uuid and extension), else by its id. */
export function photoName(url: string, id: number): string {
  return nameFromUrl(url) || `${id}.jpg`;
}

/** The post as Trove stores it, before its files are archived (content: HTML with the paysite's image URLs). */
export type MappedPost = { locked: true; split: Split } | { locked: false; split: Split; post: PostInput };

/** A post answer into Trove's post (files added by the importer); `locked` when the key sees none of it. */
export function mapPost(post: FantiaPost, fanclubId: string, images: DeltaImages): MappedPost {
  const split = splitContents(post);
  if (isLocked(split)) return { locked: true, split };
  return {
    locked: false,
    split,
    post: {
      service: 'fantia',
      user: fanclubId,
      id: String(post.id),
      title: post.title ?? '',
      content: postHtml(post, split.visible, images),
      published: archiveTime(post.posted_at),
      edited: editedDate(post),
      embed: postEmbed(split.visible),
      tags: (post.tags ?? []).map((t) => t.name),
      incomplete_rewards: missingNote(split),
    },
  };
}
