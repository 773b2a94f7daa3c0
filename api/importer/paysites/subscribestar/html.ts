/**
 * A small, forgiving HTML reader for SubscribeStar's pages: elements with their attributes and where
 * they sit in the source (so a fragment's inner HTML is a slice of it), found by tag, class and
 * attribute. Enough for server-rendered Rails markup; not a browser parser (no implied end tags beyond
 * void elements and a closing tag that closes what it skipped, no scripting).
 */

export interface HtmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: HtmlElement[];
  parent: HtmlElement | null;
  /** Offsets in the source: the element's opening tag starts at `start`; its content is [innerStart, innerEnd). */
  start: number;
  innerStart: number;
  innerEnd: number;
  end: number;
}

export interface HtmlDocument {
  source: string;
  root: HtmlElement;
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  laquo: '«',
  raquo: '»',
  copy: '©',
  reg: '®',
  trade: '™',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
};

/** Character references (&amp; &#39; &#x27; and the common named ones) as text. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

const TAG = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/y;
const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function attributes(raw: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of raw.matchAll(ATTR)) {
    const name = m[1].toLowerCase();
    if (!(name in attrs)) attrs[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

/** Reads an HTML page or fragment into a tree of elements. */
export function parseHtml(source: string): HtmlDocument {
  const root: HtmlElement = {
    tag: '#root',
    attrs: {},
    children: [],
    parent: null,
    start: 0,
    innerStart: 0,
    innerEnd: source.length,
    end: source.length,
  };
  let current = root;
  let at = 0;
  while (at < source.length) {
    const lt = source.indexOf('<', at);
    if (lt < 0) break;
    if (source.startsWith('<!--', lt)) {
      const close = source.indexOf('-->', lt + 4);
      at = close < 0 ? source.length : close + 3;
      continue;
    }
    if (source[lt + 1] === '!' || source[lt + 1] === '?') {
      const close = source.indexOf('>', lt);
      at = close < 0 ? source.length : close + 1;
      continue;
    }
    TAG.lastIndex = lt;
    const m = TAG.exec(source);
    if (!m) {
      at = lt + 1;
      continue;
    }
    const tagEnd = lt + m[0].length;
    const tag = m[2].toLowerCase();
    if (m[1]) {
      // A closing tag closes the nearest open element of its name (and anything left open inside it).
      for (let open: HtmlElement | null = current; open && open !== root; open = open.parent) {
        if (open.tag !== tag) continue;
        for (let el: HtmlElement | null = current; el && el !== open.parent; el = el.parent) {
          if (el === open) {
            el.innerEnd = lt;
            el.end = tagEnd;
          } else if (el.end < 0) {
            el.innerEnd = lt;
            el.end = lt;
          }
        }
        current = open.parent!;
        break;
      }
      at = tagEnd;
      continue;
    }
    const el: HtmlElement = {
      tag,
      attrs: attributes(m[3]),
      children: [],
      parent: current,
      start: lt,
      innerStart: tagEnd,
      innerEnd: tagEnd,
      end: tagEnd,
    };
    current.children.push(el);
    if (VOID.has(tag) || m[4]) {
      at = tagEnd;
      continue;
    }
    if (RAW_TEXT.has(tag)) {
      const close = source.toLowerCase().indexOf(`</${tag}`, tagEnd);
      const stop = close < 0 ? source.length : close;
      const closeEnd = close < 0 ? source.length : source.indexOf('>', close) + 1 || source.length;
      Object.assign(el, { innerEnd: stop, end: closeEnd });
      at = closeEnd;
      continue;
    }
    el.end = -1;
    current = el;
    at = tagEnd;
  }
  // Elements never closed end with the source.
  for (let el: HtmlElement | null = current; el && el !== root; el = el.parent) {
    el.innerEnd = source.length;
    el.end = source.length;
  }
  return { source, root };
}

export const hasClass = (el: HtmlElement, name: string) => (el.attrs.class ?? '').split(/\s+/).includes(name);

/** A simple test on one element: tag, classes and attributes (value or presence). */
export interface Match {
  tag?: string;
  classes?: string[];
  attrs?: Record<string, string | true>;
}

function matches(el: HtmlElement, match: Match): boolean {
  if (match.tag && el.tag !== match.tag) return false;
  if (match.classes && !match.classes.every((c) => hasClass(el, c))) return false;
  for (const [name, value] of Object.entries(match.attrs ?? {})) {
    if (!(name in el.attrs)) return false;
    if (value !== true && el.attrs[name] !== value) return false;
  }
  return true;
}

/** Every descendant of `el` matching, in document order. */
export function findAll(el: HtmlElement, match: Match): HtmlElement[] {
  const found: HtmlElement[] = [];
  const walk = (node: HtmlElement) => {
    for (const child of node.children) {
      if (matches(child, match)) found.push(child);
      walk(child);
    }
  };
  walk(el);
  return found;
}

/** The first descendant of `el` matching. */
export function find(el: HtmlElement, match: Match): HtmlElement | undefined {
  for (const child of el.children) {
    if (matches(child, match)) return child;
    const inner = find(child, match);
    if (inner) return inner;
  }
  return undefined;
}

/** Whether `el` or one of its ancestors matches. */
export function closest(el: HtmlElement, match: Match): HtmlElement | undefined {
  for (let node: HtmlElement | null = el; node; node = node.parent) if (matches(node, match)) return node;
  return undefined;
}

export const innerHtml = (doc: HtmlDocument, el: HtmlElement) => doc.source.slice(el.innerStart, el.innerEnd);
export const outerHtml = (doc: HtmlDocument, el: HtmlElement) => doc.source.slice(el.start, el.end);

/** The element's text, tags removed, references decoded, white space collapsed. */
export function textOf(doc: HtmlDocument, el: HtmlElement): string {
  return decodeEntities(
    innerHtml(doc, el)
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<[^>]*>/g, ' '),
  )
    .replace(/\s+/g, ' ')
    .trim();
}
