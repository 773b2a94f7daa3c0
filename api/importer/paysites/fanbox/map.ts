/**
 * Fanbox shapes into Trove's: dates, the post body as HTML (before its images are archived), embeds and
 * comments. Pure functions; the importer does the fetching and the writing.
 */
import type { CommentInput } from '@api/data/comments.ts';
import type { PostEmbed } from '@shared/shapes/posts.ts';
import { archiveTime, escapeHtml, paragraphsHtml } from '@api/importer/text.ts';
import type { FanboxBlock, FanboxComment, FanboxEmbed, FanboxFile, FanboxImage, PostBody, PostInfo } from './api.ts';

/** A video or other service embed as a URL on its own site, when the provider is one we know. */
export function embedUrl(embed: FanboxEmbed): string | undefined {
  const id = embed.videoId ?? embed.contentId;
  if (!id) return undefined;
  const e = encodeURIComponent(id);
  switch (embed.serviceProvider) {
    case 'youtube':
      return `https://www.youtube.com/watch?v=${e}`;
    case 'vimeo':
      return `https://vimeo.com/${e}`;
    case 'soundcloud':
      return `https://soundcloud.com/${id.split('/').map(encodeURIComponent).join('/')}`;
    case 'twitter':
      return `https://twitter.com/i/status/${e}`;
    case 'google_forms':
      return `https://docs.google.com/forms/d/e/${e}/viewform`;
    case 'fanbox':
      return `https://www.fanbox.cc/${id.split('/').map(encodeURIComponent).join('/')}`;
    case 'gist':
      return `https://gist.github.com/${id.split('/').map(encodeURIComponent).join('/')}`;
    default:
      return undefined;
  }
}

function link(url: string, text = url): string {
  return `<p><a href="${escapeHtml(url)}">${escapeHtml(text)}</a></p>`;
}

/** A paragraph's text with its bold spans and links (offsets in UTF-16 code units, as JavaScript counts). */
function richText(block: FanboxBlock): string {
  const text = block.text ?? '';
  const cuts = new Set([0, text.length]);
  for (const span of [...(block.styles ?? []), ...(block.links ?? [])]) {
    cuts.add(Math.max(0, Math.min(text.length, span.offset)));
    cuts.add(Math.max(0, Math.min(text.length, span.offset + span.length)));
  }
  const points = [...cuts].sort((a, b) => a - b);
  let html = '';
  for (let i = 0; i < points.length - 1; i++) {
    const [from, to] = [points[i], points[i + 1]];
    let piece = escapeHtml(text.slice(from, to)).replace(/\n/g, '<br>');
    const covers = (span: { offset: number; length: number }) => span.offset <= from && to <= span.offset + span.length;
    if ((block.styles ?? []).some((style) => style.type === 'bold' && covers(style))) piece = `<b>${piece}</b>`;
    const href = (block.links ?? []).find(covers)?.url;
    if (href) piece = `<a href="${escapeHtml(href)}">${piece}</a>`;
    html += piece;
  }
  return html;
}

/** Where a file the post links to was archived ('/ab/cd/<sha>.<ext>'), by Fanbox file id. */
export type ArchivedFiles = Map<string, { name: string; path: string }>;

function fileLink(fileId: string, archived: ArchivedFiles): string {
  const file = archived.get(fileId);
  if (!file) return '';
  return `<p><a href="/data${file.path}?f=${encodeURIComponent(file.name)}">${escapeHtml(file.name)}</a></p>`;
}

function urlEmbedUrl(item: { url?: string | null; html?: string | null }): string | undefined {
  if (item.url) return item.url;
  // html and html.card embeds are an iframe; its src is the embedded page.
  return item.html ? /\ssrc="(https:\/\/[^"]+)"/.exec(item.html)?.[1] : undefined;
}

/** An article's blocks as HTML: images keep Fanbox's URLs here (archiveInlineImages replaces them). */
export function articleHtml(body: PostBody, archived: ArchivedFiles): string {
  const parts: string[] = [];
  for (const block of body.blocks ?? []) {
    switch (block.type) {
      case 'p':
        parts.push(block.text ? `<p>${richText(block)}</p>` : '<p><br></p>');
        break;
      case 'header':
        parts.push(`<h2>${escapeHtml(block.text ?? '')}</h2>`);
        break;
      case 'image': {
        const img = block.imageId ? body.imageMap?.[block.imageId] : undefined;
        if (img) parts.push(`<p><img src="${escapeHtml(img.originalUrl)}"></p>`);
        break;
      }
      case 'file':
        if (block.fileId) parts.push(fileLink(block.fileId, archived));
        break;
      case 'embed': {
        const item = block.embedId ? body.embedMap?.[block.embedId] : undefined;
        const url = item && embedUrl(item);
        if (url) parts.push(link(url));
        break;
      }
      case 'url_embed': {
        const item = block.urlEmbedId ? body.urlEmbedMap?.[block.urlEmbedId] : undefined;
        const url = item && urlEmbedUrl(item);
        if (url) parts.push(link(url));
        break;
      }
      default:
        if (block.text) parts.push(`<p>${escapeHtml(block.text)}</p>`);
    }
  }
  return parts.join('');
}

/** The images and files a post has, in the order Fanbox shows them (articles: block order). */
export function postMedia(body: PostBody | null | undefined): { images: FanboxImage[]; files: FanboxFile[] } {
  if (!body) return { images: [], files: [] };
  if (body.blocks) {
    const images: FanboxImage[] = [];
    const files: FanboxFile[] = [];
    for (const block of body.blocks) {
      const img = block.imageId ? body.imageMap?.[block.imageId] : undefined;
      if (img) images.push(img);
      const file = block.fileId ? body.fileMap?.[block.fileId] : undefined;
      if (file) files.push(file);
    }
    // Files attached to an article but placed in no block still belong to the post.
    for (const file of Object.values(body.fileMap ?? {})) if (!files.includes(file)) files.push(file);
    return { images, files };
  }
  return { images: body.images ?? [], files: body.files ?? [] };
}

/** The post's first embed (a video post's video, or an article's first embed), as Trove's embed. */
export function postEmbed(post: PostInfo): PostEmbed | null {
  const body = post.body;
  const first = body?.video ?? Object.values(body?.embedMap ?? {})[0];
  const url = first && embedUrl(first);
  if (url) return { url, subject: post.title || null, description: null };
  const card = Object.values(body?.urlEmbedMap ?? {})
    .map(urlEmbedUrl)
    .find(Boolean);
  return card ? { url: card, subject: null, description: null } : null;
}

/** A Fanbox file's name with its extension ('data' + 'zip' -> 'data.zip'). */
export function fileName(file: FanboxFile): string {
  return file.extension && !file.name.toLowerCase().endsWith(`.${file.extension.toLowerCase()}`)
    ? `${file.name}.${file.extension}`
    : file.name;
}

/** Comments with their replies flattened (a reply points at its parent), as CommentInputs. */
export function flattenComments(comments: FanboxComment[], key: { user: string; post_id: string }): CommentInput[] {
  const out: CommentInput[] = [];
  const walk = (list: FanboxComment[]) => {
    for (const c of list) {
      out.push({
        service: 'fanbox',
        user: key.user,
        post_id: key.post_id,
        id: c.id,
        parent_id: c.parentCommentId && c.parentCommentId !== '0' ? c.parentCommentId : null,
        commenter: c.user.userId,
        commenter_name: c.user.name,
        content: paragraphsHtml(c.body),
        published: archiveTime(c.createdDatetime),
      });
      walk(c.replies ?? []);
    }
  };
  walk(comments);
  return out;
}
