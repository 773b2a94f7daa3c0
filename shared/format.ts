/** Date formats of docs/product.md#display-and-storage. Stored dates are ISO 8601 without a zone (UTC). */

export function formatDate(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : '';
}

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 19).replace('T', ' ') : '';
}

/** Creator-related dates (fancards, announcements) show year and month. */
export function formatYearMonth(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 7) : '';
}

/** The current UTC time as stored: ISO 8601 without zone and milliseconds, '2024-06-04T23:53:36'. */
export function nowIso(date: Date = new Date()): string {
  return date.toISOString().slice(0, 19);
}

/** Epoch seconds to '2024-06-04T23:53:36' (missing is the epoch itself, as the data modules expect). */
export function epochToIso(seconds: number | null | undefined): string {
  return new Date((seconds ?? 0) * 1000).toISOString().slice(0, 19);
}

const RELATIVE_UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 1],
  ['minute', 60],
  ['hour', 3600],
  ['day', 86_400],
  ['month', 2_629_746], // 365.2425 / 12 days
  ['year', 31_556_952],
];
// Below each unit's limit (in seconds) that unit is used: 59 seconds, 59 minutes, 23 hours, 29 days, 11 months.
const RELATIVE_LIMITS = [60, 3600, 86_400, 30 * 86_400, 365 * 86_400, Infinity];
let relativeFormat: Intl.RelativeTimeFormat | undefined;

/** A stored date in ms: ISO 8601 without a zone is UTC (as the archive stores them); NaN when unreadable. */
export function storedDateMs(iso: string): number {
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) || iso.length <= 10 ? iso : `${iso}Z`);
}

/**
 * '3 days ago', 'in 2 hours'... for a stored date (ISO without a zone is UTC) against `now` (ms);
 * empty for a missing or unreadable date. English like the rest of the site.
 */
export function relativeTime(iso: string | null | undefined, now: number): string {
  if (!iso) return '';
  const time = storedDateMs(iso);
  if (Number.isNaN(time)) return '';
  const seconds = (time - now) / 1000;
  const index = RELATIVE_LIMITS.findIndex((limit) => Math.abs(seconds) < limit);
  const [unit, size] = RELATIVE_UNITS[index];
  if (unit === 'second' && Math.abs(seconds) < 1) return 'now';
  // Whole units passed, at least one: '23 hours ago' until a full day has passed, '1 month ago' from 30 days.
  const amount = Math.max(1, Math.trunc(Math.abs(seconds) / size));
  relativeFormat ??= new Intl.RelativeTimeFormat('en', { numeric: 'always' });
  return relativeFormat.format(seconds < 0 ? -amount : amount, unit);
}

/** A count with its noun: '1 post', '3 posts', '2 replies' (countLabel(2, 'reply', 'replies')). */
export function countLabel(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** A creator's favourite count on its card: '1 favorite', '12 favorites'. */
export function favoritesLabel(count: number): string {
  return countLabel(count, 'favorite');
}
