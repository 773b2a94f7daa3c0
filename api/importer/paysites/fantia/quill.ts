/**
 * Fantia's blog editor stores its text as a Quill delta, given as a JSON string
 * (`{"ops":[{"insert":"text\n"},{"insert":{"fantiaImage":{...}}},{"insert":"a link","attributes":{"link":"..."}}]}`).
 * Seen in a blog content's `comment`, in `post.blog_comment` and now and then in `post.comment` itself.
 * This turns a delta into HTML: lines become paragraphs (or headings, list items, quotes by the line's
 * attributes on its "\n"), inline bold/italic/underline/strike/link marks, images as <img> (a fantiaImage
 * by the URL the caller resolved, so the archive can fetch it). Pure functions.
 */
import { escapeHtml } from '@api/importer/text.ts';
import { parseJsonText } from '@shared/parse.ts';

export interface FantiaImage {
  id?: string | number | null;
  url?: string | null;
  original_url?: string | null;
}

export interface QuillOp {
  insert?: unknown;
  attributes?: Record<string, unknown> | null;
}

/** The ops of a delta string, or undefined when the text is not one (plain text may start with '{'). */
export function parseDelta(text: string | null | undefined): QuillOp[] | undefined {
  if (!text?.trimStart().startsWith('{')) return undefined;
  const value = parseJsonText(text)?.value as { ops?: unknown } | null | undefined;
  return Array.isArray(value?.ops) ? (value.ops as QuillOp[]) : undefined;
}

/** The fantiaImage embeds of a delta, in order. */
export function deltaImages(ops: QuillOp[]): FantiaImage[] {
  const images: FantiaImage[] = [];
  for (const op of ops) {
    const insert = op.insert as { fantiaImage?: FantiaImage } | undefined;
    if (insert && typeof insert === 'object' && insert.fantiaImage && typeof insert.fantiaImage === 'object')
      images.push(insert.fantiaImage);
  }
  return images;
}

/** How the caller wants images shown: a URL for an <img>, or a link instead (or nothing). */
export interface DeltaImages {
  /** The URL to show for a fantiaImage (resolved before), or undefined to leave it out. */
  fantia(image: FantiaImage): string | undefined;
  /** Whether an outside image URL (insert.image) may be an <img>; else it becomes a link. */
  archivable(url: string): boolean;
}

const safeHref = (url: unknown): string | undefined => (typeof url === 'string' && /^https?:\/\//i.test(url) ? url : undefined);

function inline(text: string, attrs: Record<string, unknown> | null | undefined): string {
  let html = escapeHtml(text);
  if (!attrs) return html;
  if (attrs.bold) html = `<strong>${html}</strong>`;
  if (attrs.italic) html = `<em>${html}</em>`;
  if (attrs.underline) html = `<u>${html}</u>`;
  if (attrs.strike) html = `<s>${html}</s>`;
  const href = safeHref(attrs.link);
  if (href) html = `<a href="${escapeHtml(href)}">${html}</a>`;
  return html;
}

function embed(insert: Record<string, unknown>, images: DeltaImages): string {
  if (insert.fantiaImage && typeof insert.fantiaImage === 'object') {
    const src = images.fantia(insert.fantiaImage as FantiaImage);
    return src ? `<img src="${escapeHtml(src)}" alt="">` : '';
  }
  const url = safeHref(insert.image);
  if (url) return images.archivable(url) ? `<img src="${escapeHtml(url)}" alt="">` : `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
  const video = safeHref(insert.video);
  if (video) return `<a href="${escapeHtml(video)}">${escapeHtml(video)}</a>`;
  return '';
}

interface Line {
  html: string;
  attrs: Record<string, unknown>;
}

function block(line: Line): string {
  const body = line.html || '<br>';
  const header = Number(line.attrs.header);
  if (header >= 1 && header <= 6) return `<h${header}>${body}</h${header}>`;
  if (line.attrs.blockquote) return `<blockquote>${body}</blockquote>`;
  if (line.attrs['code-block']) return `<pre>${body}</pre>`;
  return `<p>${body}</p>`;
}

/** A delta as HTML (images as the caller says; the result still goes through archiving and the sanitizer). */
export function deltaToHtml(ops: QuillOp[], images: DeltaImages): string {
  const lines: Line[] = [];
  let current = '';
  for (const op of ops) {
    if (typeof op.insert === 'string') {
      const parts = op.insert.split('\n');
      parts.forEach((part, i) => {
        if (i > 0) {
          // The "\n" ending a line carries the line's attributes (header, list, blockquote).
          lines.push({ html: current, attrs: op.attributes ?? {} });
          current = '';
        }
        if (part) current += inline(part, op.attributes);
      });
    } else if (op.insert && typeof op.insert === 'object') {
      current += embed(op.insert as Record<string, unknown>, images);
    }
  }
  if (current) lines.push({ html: current, attrs: {} });
  // Quill ends every document with an empty line; drop empty lines at the end.
  while (lines.length > 0 && !lines.at(-1)!.html && !lines.at(-1)!.attrs.list) lines.pop();

  let html = '';
  for (let i = 0; i < lines.length; i++) {
    const list = lines[i].attrs.list;
    if (list === 'bullet' || list === 'ordered' || list === 'checked' || list === 'unchecked') {
      const tag = list === 'ordered' ? 'ol' : 'ul';
      let items = '';
      while (i < lines.length && (lines[i].attrs.list === 'ordered') === (tag === 'ol') && lines[i].attrs.list) {
        items += `<li>${lines[i].html}</li>`;
        i++;
      }
      i--;
      html += `<${tag}>${items}</${tag}>`;
    } else {
      html += block(lines[i]);
    }
  }
  return html;
}
