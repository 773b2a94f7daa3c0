/** Date formats of SPEC.md section 9. Stored dates are ISO 8601 without a zone (UTC). */

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

/** Epoch seconds to '2024-06-04T23:53:36' (missing is the epoch itself, as the data modules expect). */
export function epochToIso(seconds: number | null | undefined): string {
  return new Date((seconds ?? 0) * 1000).toISOString().slice(0, 19);
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

export function relativeTime(iso: string, now = Date.now(), locale = 'en'): string {
  const seconds = Math.round((Date.parse(iso.endsWith('Z') ? iso : `${iso}Z`) - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, 'second');
}
