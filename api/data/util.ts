/** Small helpers shared by the data modules (no SQL here). */
import { parseJsonText } from '@shared/parse.ts';

/** Current time as ISO 8601 without zone and milliseconds (the one builder is shared/format.ts). */
export { nowIso } from '@shared/format.ts';

/** Current time as epoch seconds. */
export function nowEpoch(date: Date = new Date()): number {
  return Math.floor(date.getTime() / 1000);
}

/** Parses a JSON column; null/empty gives the fallback. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text == null || text === '') return fallback;
  const parsed = parseJsonText(text);
  return parsed ? (parsed.value as T) : fallback;
}

/** Content-addressed path of a file: '/ab/cd/<sha256>.<ext>' (the one builder is shared/urls.ts). */
export { filePath as hashPath } from '@shared/urls.ts';

/** The sha256 in a content-addressed path, or null when the path is not one. */
export function hashFromPath(path: string | null | undefined): string | null {
  const match = path ? /([0-9a-f]{64})(?:\.[^/]*)?$/.exec(path) : null;
  return match ? match[1] : null;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/**
 * Plain text of an HTML fragment: tags removed (block tags and <br> become spaces), the common
 * entities decoded, whitespace collapsed. Used for the search index and post summaries' substring.
 */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\/?(p|div|br|li|ul|ol|h[1-6]|blockquote|pre|tr|td|th|table|hr)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, code: string) => {
      if (code[0] === '#') {
        const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
        return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : whole;
      }
      return ENTITIES[code.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** First `length` characters (code points) of a string. */
export function truncateChars(text: string, length: number): string {
  // Walks only the first `length` code points: a long post's content is never split whole.
  let end = 0;
  let count = 0;
  for (const char of text) {
    if (count === length) return text.slice(0, end);
    end += char.length;
    count += 1;
  }
  return text;
}

/** Lower-cased extension with the dot ('.png'), or '' when the name has none. */
export function extensionOf(name: string | null | undefined): string {
  if (!name) return '';
  const base = name.split(/[/?#]/).filter(Boolean).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

/** A LIKE pattern that finds `text` anywhere, with %, _ and \ escaped (use it with ESCAPE '\'). */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The transaction helpers live with the store; the data modules import them from here. */
export { inTransaction, inTransactionNoSavepoint } from './store.ts';
