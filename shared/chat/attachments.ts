/**
 * How a chat attachment shows (docs/product.md#chat-message-rendering): a thumbnail for images,
 * a player for videos, otherwise a file link, with an archive icon for archives.
 */
import { archiveFileUrl, fileUrl, thumbnailUrl } from '../urls.ts';
import { archivePath, extensionOf } from './safe-url.ts';

const IMAGE_EXTENSIONS = new Set(['gif', 'png', 'jpg', 'jpeg', 'webp']);
const VIDEO_EXTENSIONS = new Set(['webm', 'mp4']);
const ARCHIVE_EXTENSIONS = new Set(['7z', 'rar', 'zip', 'tar']);
// The archive file page can list these (api/media/archives.ts ARCHIVE_TYPES).
const BROWSABLE_EXTENSIONS = new Set(['7z', 'rar', 'zip']);

export type ChatAttachmentView =
  | { kind: 'image'; name: string; href: string; src: string }
  | { kind: 'video'; name: string; href: string; src: string }
  | { kind: 'file'; name: string; href: string; archive: boolean; browseHref?: string };

/**
 * The view of one attachment, or undefined when its path is not an archive file (nothing to link to).
 * The stored file's extension decides the kind; the name's only when the path has none.
 */
export function chatAttachmentView(
  attachment: { name?: string | null; path?: unknown },
  imageHost: string,
): ChatAttachmentView | undefined {
  const file = archivePath(attachment.path);
  if (!file) return undefined;
  const name =
    typeof attachment.name === 'string' && attachment.name.trim() ? attachment.name : file.path.slice(file.path.lastIndexOf('/') + 1);
  const ext = file.ext || extensionOf(name);
  const href = fileUrl(imageHost, file.path, name);
  if (IMAGE_EXTENSIONS.has(ext)) return { kind: 'image', name, href, src: thumbnailUrl(imageHost, file.path) };
  if (VIDEO_EXTENSIONS.has(ext)) return { kind: 'video', name, href, src: fileUrl(imageHost, file.path) };
  const archive = ARCHIVE_EXTENSIONS.has(ext);
  return { kind: 'file', name, href, archive, ...(BROWSABLE_EXTENSIONS.has(ext) ? { browseHref: archiveFileUrl(file.hash) } : {}) };
}

/** Width and height scaled down (never up) to fit within max (embed images: 400 by 300). */
export function fitWithin(width: unknown, height: unknown, maxWidth = 400, maxHeight = 300): { width: number; height: number } | undefined {
  if (typeof width !== 'number' || typeof height !== 'number' || !(width > 0) || !(height > 0)) return undefined;
  if (!Number.isFinite(width) || !Number.isFinite(height)) return undefined;
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
