/** Post card rules (docs/product.md#post-cards), shared by pages and islands. */
import { takesAttachmentThumbnail } from './paysites/index.ts';
import { POST_TITLE_MAX } from './constants.ts';
import { countLabel } from './format.ts';
import type { PostCardData } from './shapes/posts.ts';

const IMAGE_EXTENSIONS = ['.gif', '.jpeg', '.jpg', '.jpe', '.png', '.webp'];

export function cut(text: string, max = POST_TITLE_MAX): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
}

/** The card title: the title cut at 50, or the content when the title is empty or 'DM'. */
export function cardTitle(title: string | null | undefined, contentText: string | null | undefined): string {
  const clean = (title ?? '').trim();
  if (clean && clean !== 'DM') return cut(clean);
  return cut((contentText ?? '').replace(/\s+/g, ' ').trim());
}

export function isImagePath(path: string | undefined | null): boolean {
  if (!path) return false;
  const lower = path.toLowerCase();
  return IMAGE_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** The path to thumbnail on a card, if any. */
export function cardThumbnailPath(post: Pick<PostCardData, 'service' | 'file' | 'attachments'>): string | undefined {
  const filePath = post.file && 'path' in post.file ? post.file.path : undefined;
  if (isImagePath(filePath)) return filePath;
  if (takesAttachmentThumbnail(post.service)) {
    return post.attachments?.find((attachment) => isImagePath(attachment.path))?.path;
  }
  return undefined;
}

/** The card footer's count: the post's file plus its attachments ('No attachments', '1 attachment', 'N attachments'). */
export function cardAttachmentLabel(post: {
  file?: { path?: string } | Record<string, never> | null;
  attachments?: readonly unknown[];
}): string {
  const hasFile = !!(post.file && 'path' in post.file && post.file.path);
  const count = (post.attachments?.length ?? 0) + (hasFile ? 1 : 0);
  if (count === 0) return 'No attachments';
  return countLabel(count, 'attachment');
}

/** Only what a card shows of a post: the props an island rendering cards needs, nothing more. */
export function postCardData(post: PostCardData): PostCardData {
  return {
    id: post.id,
    user: post.user,
    service: post.service,
    title: post.title,
    substring: post.substring,
    published: post.published,
    file: post.file && 'path' in post.file ? { path: post.file.path } : {},
    attachments: (post.attachments ?? []).map((attachment) => ({ path: attachment.path })),
    // The card's data-tags, which hiding reads: a card in an island hides like a listing's.
    ...(post.tags?.length ? { tags: post.tags } : {}),
  };
}
