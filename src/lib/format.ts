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
