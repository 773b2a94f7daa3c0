/** Text helpers the paysite mappers share (pure: no fetching, no writing). */
import { nowIso } from '../data/util.ts';

/** Plain text made safe inside HTML content or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A paysite's zoned date ('2024-05-01T19:00:00+09:00') as the archive's UTC 'YYYY-MM-DDTHH:MM:SS'; null when absent or unreadable. */
export function archiveTime(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? nowIso(new Date(time)) : null;
}
