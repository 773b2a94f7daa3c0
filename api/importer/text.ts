/** Text helpers the paysite mappers share (pure: no fetching, no writing). */
import { nowIso } from '../data/util.ts';

export { escapeHtml } from '@shared/html.ts';

/** A paysite's zoned date ('2024-05-01T19:00:00+09:00') as the archive's UTC 'YYYY-MM-DDTHH:MM:SS'; null when absent or unreadable. */
export function archiveTime(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? nowIso(new Date(time)) : null;
}
