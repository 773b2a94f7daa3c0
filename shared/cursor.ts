/**
 * Paging cursors (docs/product.md#stable-paging): the place in a listing after which the next page
 * starts, written `<date>_<key>` in the `after` query parameter. Browser-safe, no zod (the rules are in
 * shared/validation/listings.ts).
 *
 * - A creator's posts (with or without q/tag): `<published>_<post id>` of the last post seen, the date
 *   empty for a post without a published date (those come last).
 * - The global posts listings: `<added>_<archive number>` of the last post seen (the archive number is
 *   the post's place in the archive; clients take it from the next cursor the server hands out).
 */

/** Longest cursor accepted (a date of ~30 characters and a post id). */
export const CURSOR_MAX_LENGTH = 300;
/** The date part: an ISO date-time as the archive stores it (digits, T, :, ., -, +, Z, space). */
const CURSOR_DATE = /^[0-9][0-9T:.+\-Z ]{0,39}$/;

/** The last post seen of a creator's listing (newest first, undated last). */
export interface CreatorCursor {
  published: string | null;
  id: string;
}

/** The last post seen of a global listing. `added` orders the recent posts; searches order by seq alone. */
export interface ArchiveCursor {
  added: string;
  seq: number;
}

/** Splits `<date>_<key>` at its first underscore; a message for anything else. */
function splitCursor(raw: string): { date: string; key: string } | { error: string } {
  if (raw.length > CURSOR_MAX_LENGTH) return { error: `Cursor is longer than ${CURSOR_MAX_LENGTH} characters.` };
  const at = raw.indexOf('_');
  if (at < 0) return { error: `Cursor "${raw}" is not <date>_<id>.` };
  const date = raw.slice(0, at);
  const key = raw.slice(at + 1);
  if (date !== '' && !CURSOR_DATE.test(date)) return { error: `Cursor date "${date}" is not a date.` };
  if (key === '') return { error: 'Cursor has no id after its date.' };
  return { date, key };
}

export function parseCreatorCursor(raw: string): CreatorCursor | { error: string } {
  const split = splitCursor(raw);
  if ('error' in split) return split;
  return { published: split.date === '' ? null : split.date, id: split.key };
}

export function parseArchiveCursor(raw: string): ArchiveCursor | { error: string } {
  const split = splitCursor(raw);
  if ('error' in split) return split;
  if (split.date === '') return { error: 'Cursor of the posts listing needs the date the post was added.' };
  if (!/^[1-9]\d{0,15}$/.test(split.key) || !Number.isSafeInteger(Number(split.key))) {
    return { error: `Cursor of the posts listing ends in "${split.key}", not an archive number.` };
  }
  return { added: split.date, seq: Number(split.key) };
}

export function formatCreatorCursor(cursor: CreatorCursor): string {
  return `${cursor.published ?? ''}_${cursor.id}`;
}

export function formatArchiveCursor(cursor: ArchiveCursor): string {
  return `${cursor.added}_${cursor.seq}`;
}

/** Adds `after` to a listing URL (kept beside `o`, which numbers the page). */
export function withCursor(url: string, cursor: string | null | undefined): string {
  if (!cursor) return url;
  const [path, query = ''] = url.split('?');
  const params = new URLSearchParams(query);
  params.set('after', cursor);
  return `${path}?${params}`;
}
