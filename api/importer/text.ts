/** Text helpers the paysite mappers share (pure: no fetching, no writing). */
import { nowIso } from '../data/util.ts';

import { escapeHtml } from '@shared/html.ts';

export { escapeHtml };

/**
 * Plain text (a post's text, a comment, a message) as paragraphs: blank lines separate them, single
 * newlines become <br>, \r\n counts as \n. Each paragraph is trimmed, unless `keepIndent`: then only its
 * leading and trailing newlines go (Fantia's comments indent lines with spaces on purpose).
 */
export function paragraphsHtml(text: string | null | undefined, { keepIndent = false } = {}): string {
  if (!text) return '';
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((para) => (keepIndent ? para.replace(/^\n+|\n+$/g, '') : para.trim()))
    .filter((para) => para.trim() !== '')
    .map((para) => `<p>${escapeHtml(para).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** A paysite's zoned date ('2024-05-01T19:00:00+09:00') as the archive's UTC 'YYYY-MM-DDTHH:MM:SS'; null when absent or unreadable. */
export function archiveTime(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? nowIso(new Date(time)) : null;
}
