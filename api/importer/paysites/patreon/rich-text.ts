/**
 * Posts written in Patreon's newer editor (from early 2026) carry their text only as
 * `content_json_string`: a ProseMirror/TipTap document as a JSON string (`{"type": "doc", "content":
 * [...]}`), with `content` empty. This turns that tree into plain HTML (paragraphs, headings, lists,
 * quotes, rules, line breaks, bold/italic/underline/strike/code marks, links and images); the importer
 * then archives its images and sanitizes it like any post HTML. Every text and attribute is escaped,
 * and only http(s) links and images are kept. Unknown nodes keep their children's text, so a new kind of
 * block never loses words. The facts and where they come from are in docs/importing.md (Patreon).
 */
import { escapeHtml } from '@api/importer/text.ts';
import { parseJsonText, parseUrl } from '@shared/parse.ts';

interface RichNode {
  type?: unknown;
  attrs?: Record<string, unknown>;
  content?: unknown;
  marks?: unknown;
  text?: unknown;
}

const BLOCKS: Record<string, string> = {
  paragraph: 'p',
  blockquote: 'blockquote',
  bulletList: 'ul',
  orderedList: 'ol',
  listItem: 'li',
  codeBlock: 'pre',
};

const MARKS: Record<string, string> = { bold: 'strong', italic: 'em', underline: 'u', strike: 's', code: 'code' };

function httpUrl(value: unknown): string | undefined {
  const url = typeof value === 'string' ? parseUrl(value) : undefined;
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url.toString() : undefined;
}

const children = (node: RichNode): RichNode[] =>
  Array.isArray(node.content) ? node.content.filter((child): child is RichNode => Boolean(child) && typeof child === 'object') : [];

/** A text node's marks, the first one outermost (Patreon's order: [bold, underline] is <strong><u>). */
function withMarks(html: string, marks: unknown): string {
  if (!Array.isArray(marks)) return html;
  let wrapped = html;
  for (const mark of [...marks].reverse()) {
    const type = (mark as RichNode | null)?.type;
    if (type === 'link') {
      const href = httpUrl((mark as RichNode).attrs?.href);
      if (href) wrapped = `<a href="${escapeHtml(href)}">${wrapped}</a>`;
    } else if (typeof type === 'string' && MARKS[type]) {
      wrapped = `<${MARKS[type]}>${wrapped}</${MARKS[type]}>`;
    }
  }
  return wrapped;
}

function render(node: RichNode, depth: number): string {
  if (depth > 64) return '';
  const inner = () =>
    children(node)
      .map((child) => render(child, depth + 1))
      .join('');
  const type = typeof node.type === 'string' ? node.type : '';
  switch (type) {
    case 'text':
      return typeof node.text === 'string' ? withMarks(escapeHtml(node.text).replace(/\r?\n/g, '<br>'), node.marks) : '';
    case 'hardBreak':
      return '<br>';
    case 'horizontalRule':
      return '<hr>';
    case 'heading': {
      const level = Math.min(6, Math.max(1, Math.trunc(Number(node.attrs?.level)) || 3));
      return `<h${level}>${inner()}</h${level}>`;
    }
    case 'image': {
      const src = httpUrl(node.attrs?.src);
      if (!src) return '';
      const alt = typeof node.attrs?.alt === 'string' ? ` alt="${escapeHtml(node.attrs.alt)}"` : '';
      return `<p><img src="${escapeHtml(src)}"${alt}></p>`;
    }
    case 'link': {
      const href = httpUrl(node.attrs?.href);
      return href ? `<a href="${escapeHtml(href)}">${inner()}</a>` : inner();
    }
    default: {
      const tag = BLOCKS[type];
      return tag ? `<${tag}>${inner()}</${tag}>` : inner();
    }
  }
}

/**
 * The HTML of a `content_json_string`, '' for an empty or null one; undefined when it is not a
 * document the converter can read (the caller logs it and keeps the post without text).
 */
export function richTextHtml(json: string | null | undefined): string | undefined {
  if (!json) return '';
  const doc = parseJsonText(json)?.value;
  if (!doc || typeof doc !== 'object' || (doc as RichNode).type !== 'doc') return undefined;
  return render(doc as RichNode, 0);
}
