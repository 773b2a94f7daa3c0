/**
 * The media lists of a post page (the post's or a revision's): image previews, the video player's
 * videos and the downloads, each with the `server` that serves the files.
 */
import { extensionOf } from './util.ts';
import type { Attachment, FullPost, PostEmbed, PostFileRef, Preview, Video } from '@shared/shapes/posts.ts';

/** Extensions shown as images (post cards and previews). */
export const IMAGE_EXTENSIONS = ['.gif', '.jpeg', '.jpg', '.jpe', '.png', '.webp'];
/** Extensions shown in the video player. */
export const VIDEO_EXTENSIONS = ['.mp4', '.webm', '.m4v', '.mov'];

function attachmentEntry(server: string, file: PostFileRef): Attachment {
  const base = file.path.split('/').pop() ?? '';
  const extension = extensionOf(file.path);
  return {
    server,
    name: file.name ?? null,
    path: file.path,
    extension,
    name_extension: extensionOf(file.name) || extension,
    stem: extension ? base.slice(0, base.length - extension.length) : base,
  };
}

/**
 * Derives the post page's lists from a post: `previews` are the images (the file first, then image
 * attachments) followed by the embed; `videos` are video files; `attachments` (downloads) are every
 * attachment that is not an image.
 */
export function postMedia(
  post: Pick<FullPost, 'file' | 'attachments' | 'embed'>,
  server: string,
): { previews: Preview[]; videos: Video[]; attachments: Attachment[] } {
  const previews: Preview[] = [];
  const videos: Video[] = [];
  const attachments: Attachment[] = [];
  const file = 'path' in post.file ? (post.file as PostFileRef) : null;
  const all = file ? [file, ...post.attachments] : post.attachments;
  all.forEach((item, index) => {
    const ext = extensionOf(item.path) || extensionOf(item.name);
    const isMainFile = file !== null && index === 0;
    if (IMAGE_EXTENSIONS.includes(ext)) {
      previews.push({ type: 'thumbnail', server, name: item.name ?? null, path: item.path, caption: null });
      return;
    }
    if (VIDEO_EXTENSIONS.includes(ext)) {
      videos.push({ index: videos.length, path: item.path, name: item.name ?? null, extension: ext, server, caption: null });
    }
    if (!isMainFile || !VIDEO_EXTENSIONS.includes(ext)) attachments.push(attachmentEntry(server, item));
  });
  const embed = post.embed as PostEmbed;
  if (embed && typeof embed.url === 'string' && embed.url) {
    previews.push({ type: 'embed', url: embed.url, subject: embed.subject ?? null, description: embed.description ?? null });
  }
  return { previews, videos, attachments };
}
