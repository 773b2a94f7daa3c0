/**
 * Gumroad's rich content pages as HTML. A page's description is a TipTap (ProseMirror) document
 * (antiwork/gumroad `app/javascript/parsers/richContent.ts`, `components/Download/RichContent.tsx`,
 * `components/TiptapExtensions/*`): the standard nodes (paragraph, heading, lists, blockquote, code, rule,
 * hard break, text with bold/italic/underline/strike/code/link marks) and Gumroad's own: `image` (src,
 * link, caption as content), `fileEmbed` (a content file by id), `fileEmbedGroup` (a named folder of
 * them), `mediaEmbed` (url, title, html of an oEmbed), `button` / `tiptap-link` (href). Personal or
 * interactive nodes (licenseKey, posts, moreLikeThis, shortAnswer, longAnswer, fileUpload) are left out.
 * Pure functions; images are passed in already archived (src -> '/data/...').
 */
import { escapeHtml } from '@api/importer/text.ts';

interface Node {
  type?: string;
  attrs?: Record<string, unknown>;
  content?: Node[];
  text?: string;
  marks?: { type?: string; attrs?: Record<string, unknown> }[];
}

export interface RichContext {
  /** Archived content files by Gumroad file id: a fileEmbed becomes a link to the archived copy. */
  files: Map<string, { name: string; path: string }>;
  /** Names of content files by id (for those not archived, named only). */
  names: Map<string, string>;
  /** Archived images by their Gumroad URL; an image not in it is left out. */
  images: Map<string, string>;
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const isHttp = (url: string) => /^https?:\/\//i.test(url);

function asNode(value: unknown): Node | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : undefined;
}

/** Every node of a document, depth first. */
function* walk(node: Node | undefined): Generator<Node> {
  if (!node) return;
  yield node;
  for (const child of Array.isArray(node.content) ? node.content : []) yield* walk(asNode(child));
}

/** The image sources a document shows (to archive before rendering). */
export function docImages(doc: unknown): string[] {
  const found = new Set<string>();
  for (const node of walk(asNode(doc))) if (node.type === 'image' && isHttp(str(node.attrs?.src))) found.add(str(node.attrs?.src));
  return [...found];
}

/** The oEmbed media a document embeds (url and title), in order. */
export function docMediaEmbeds(doc: unknown): { url: string; title: string | null }[] {
  const found: { url: string; title: string | null }[] = [];
  for (const node of walk(asNode(doc)))
    if (node.type === 'mediaEmbed' && isHttp(str(node.attrs?.url)))
      found.push({ url: str(node.attrs?.url), title: str(node.attrs?.title) || null });
  return found;
}

function textHtml(node: Node): string {
  let html = escapeHtml(node.text ?? '');
  for (const mark of node.marks ?? []) {
    switch (mark.type) {
      case 'bold':
      case 'strong':
        html = `<strong>${html}</strong>`;
        break;
      case 'italic':
      case 'em':
        html = `<em>${html}</em>`;
        break;
      case 'underline':
        html = `<u>${html}</u>`;
        break;
      case 'strike':
        html = `<s>${html}</s>`;
        break;
      case 'code':
        html = `<code>${html}</code>`;
        break;
      case 'link': {
        const href = str(mark.attrs?.href);
        if (isHttp(href)) html = `<a href="${escapeHtml(href)}">${html}</a>`;
        break;
      }
    }
  }
  return html;
}

const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;

function render(node: Node, ctx: RichContext): string {
  const inner = () => (node.content ?? []).map((child) => render(asNode(child) ?? {}, ctx)).join('');
  switch (node.type) {
    case 'doc':
      return inner();
    case 'text':
      return textHtml(node);
    case 'paragraph': {
      const html = inner();
      return html ? `<p>${html}</p>` : '<p><br></p>';
    }
    case 'heading': {
      const level = Math.min(6, Math.max(1, Number(node.attrs?.level) || 2));
      return `<h${level}>${inner()}</h${level}>`;
    }
    case 'bulletList':
      return `<ul>${inner()}</ul>`;
    case 'orderedList':
      return `<ol>${inner()}</ol>`;
    case 'listItem':
      return `<li>${inner()}</li>`;
    case 'blockquote':
      return `<blockquote>${inner()}</blockquote>`;
    case 'codeBlock':
      return `<pre><code>${inner()}</code></pre>`;
    case 'horizontalRule':
      return '<hr>';
    case 'hardBreak':
      return '<br>';
    case 'image': {
      const local = ctx.images.get(str(node.attrs?.src));
      const caption = inner();
      return (local ? `<p><img src="${escapeHtml(local)}"></p>` : '') + (caption ? `<p><em>${caption}</em></p>` : '');
    }
    case 'fileEmbed': {
      const id = str(node.attrs?.id);
      const file = ctx.files.get(id);
      if (file) return `<p>${link(`/data${file.path}?f=${encodeURIComponent(file.name)}`, file.name)}</p>`;
      const name = ctx.names.get(id);
      return name ? `<p>${escapeHtml(name)}</p>` : '';
    }
    case 'fileEmbedGroup': {
      const name = str(node.attrs?.name);
      return (name ? `<p><strong>${escapeHtml(name)}</strong></p>` : '') + inner();
    }
    case 'mediaEmbed': {
      const url = str(node.attrs?.url);
      return isHttp(url) ? `<p>${link(url, str(node.attrs?.title) || url)}</p>` : '';
    }
    case 'button':
    case 'tiptap-link': {
      const href = str(node.attrs?.href);
      const label = inner() || escapeHtml(href);
      return isHttp(href) ? `<p><a href="${escapeHtml(href)}">${label}</a></p>` : '';
    }
    case 'licenseKey':
    case 'posts':
    case 'moreLikeThis':
    case 'shortAnswer':
    case 'longAnswer':
    case 'fileUpload':
      return '';
    default:
      return inner();
  }
}

/** A rich content page's description as HTML (an HTML string, from older pages, is passed through). */
export function richPageHtml(description: unknown, ctx: RichContext): string {
  if (typeof description === 'string') return description;
  const doc = asNode(description);
  return doc ? render(doc, ctx) : '';
}
