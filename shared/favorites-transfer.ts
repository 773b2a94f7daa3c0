/**
 * Export and import of favourites (docs/product.md#export-and-import-of-favourites), written once for the
 * API (accounts) and the browser (guests' device list). Browser-safe, free of zod and of the CSV library:
 * each side parses CSV text itself (csv-parse/sync on the server, its browser build in islands) and hands
 * the records here.
 *
 * Files read: our export ({"artists": [...], "posts": [...]}), either kemono answer on its own (a bare
 * array of creators, GET /v1/account/favorites?type=artist, or of posts, ?type=post: a post is an item with
 * `user`), and our CSV (a header row naming the columns of FAVORITES_CSV_COLUMNS).
 */
import { isPaysite } from './paysites/index.ts';

/** Files larger than this are refused before they are read (the API's JSON body limit is 1 MB). */
export const FAVORITES_IMPORT_MAX_BYTES = 500 * 1024;
/** At most this many favourites (creators and posts together) per import. */
export const FAVORITES_IMPORT_MAX_ITEMS = 1000;
/** The CSV's columns, in order: one row per favourite. */
export const FAVORITES_CSV_COLUMNS = ['type', 'service', 'creator_id', 'post_id', 'name', 'added'] as const;

export const FAVORITES_TRANSFER_MESSAGES = {
  tooLarge: `The file is larger than ${FAVORITES_IMPORT_MAX_BYTES / 1024} KB: split it into smaller files.`,
  tooMany: `The file holds more than ${FAVORITES_IMPORT_MAX_ITEMS} favourites: split it into smaller files.`,
  badJson: 'The file is not valid JSON.',
  badCsv: 'The file is not valid CSV.',
  csvHeader: `The CSV needs a header row with the columns ${FAVORITES_CSV_COLUMNS.join(', ')}.`,
  shape: 'The file is not a favourites export: expected {"artists": [...], "posts": [...]}, a list of creators or a list of posts.',
  empty: 'The file holds no favourites.',
} as const;

export interface CreatorRef {
  service: string;
  id: string;
  /** When it was favourited (ISO 8601 without zone), when the file says. */
  faved_at?: string;
}

export interface PostRef {
  service: string;
  /** The post's creator. */
  user: string;
  id: string;
  faved_at?: string;
}

export interface FavoriteRefs {
  artists: CreatorRef[];
  posts: PostRef[];
  /** Entries that were not a known paysite and an id (left out). */
  skipped: number;
}

export type FavoritesParse = { ok: true; refs: FavoriteRefs } | { ok: false; message: string };

export const creatorRefKey = (ref: { service: string; id: string }) => `${ref.service}:${ref.id}`;
export const postRefKey = (ref: { service: string; user: string; id: string }) => `${ref.service}:${ref.user}:${ref.id}`;

/** The size of a text in UTF-8 bytes. */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

function idText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text && text.length <= 255 ? text : undefined;
}

/** '2024-06-04T23:53:36' from a date text, or undefined when it is not one. */
function favedAt(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return undefined;
  const text = value.trim();
  const time = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) || !text.includes('T') ? text : `${text}Z`);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().slice(0, 19);
}

class Collector {
  readonly refs: FavoriteRefs = { artists: [], posts: [], skipped: 0 };
  private readonly seen = new Set<string>();

  creator(service: unknown, id: unknown, at?: unknown): void {
    const creatorId = idText(id);
    if (!isPaysite(service) || !creatorId) return void this.refs.skipped++;
    const ref: CreatorRef = { service, id: creatorId };
    const when = favedAt(at);
    if (when) ref.faved_at = when;
    if (this.once(`c:${creatorRefKey(ref)}`)) this.refs.artists.push(ref);
  }

  post(service: unknown, user: unknown, id: unknown, at?: unknown): void {
    const creatorId = idText(user);
    const postId = idText(id);
    if (!isPaysite(service) || !creatorId || !postId) return void this.refs.skipped++;
    const ref: PostRef = { service, user: creatorId, id: postId };
    const when = favedAt(at);
    if (when) ref.faved_at = when;
    if (this.once(`p:${postRefKey(ref)}`)) this.refs.posts.push(ref);
  }

  private once(key: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }
}

function readItems(items: unknown[], into: Collector, kind?: 'artists' | 'posts'): void {
  for (const raw of items) {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      into.refs.skipped++;
      continue;
    }
    const item = raw as Record<string, unknown>;
    const isPost = kind === 'posts' || (kind === undefined && item.user !== undefined);
    if (isPost) into.post(item.service, item.user, item.id, item.faved_at);
    else into.creator(item.service, item.id, item.faved_at);
  }
}

/** The favourites of a parsed JSON file (our envelope or a kemono answer), or the message saying why not. */
export function favoritesFromJson(value: unknown): FavoriteRefs | string {
  const into = new Collector();
  if (Array.isArray(value)) readItems(value, into);
  else if (value && typeof value === 'object') {
    const { artists, posts } = value as { artists?: unknown; posts?: unknown };
    const lists = [artists, posts].filter((list) => list !== undefined);
    if (lists.length === 0 || !lists.every(Array.isArray)) return FAVORITES_TRANSFER_MESSAGES.shape;
    if (Array.isArray(artists)) readItems(artists, into, 'artists');
    if (Array.isArray(posts)) readItems(posts, into, 'posts');
  } else return FAVORITES_TRANSFER_MESSAGES.shape;
  return into.refs;
}

/** The favourites of CSV records (the first is the header), or the message saying why not. */
export function favoritesFromCsv(records: readonly (readonly string[])[]): FavoriteRefs | string {
  const [header, ...rows] = records;
  const columns = (header ?? []).map((name) => name.trim().toLowerCase());
  const at = (name: (typeof FAVORITES_CSV_COLUMNS)[number]) => columns.indexOf(name);
  if (at('type') < 0 || at('service') < 0 || at('creator_id') < 0) return FAVORITES_TRANSFER_MESSAGES.csvHeader;
  const into = new Collector();
  for (const row of rows) {
    const cell = (name: (typeof FAVORITES_CSV_COLUMNS)[number]) => (at(name) < 0 ? undefined : row[at(name)]);
    const type = (cell('type') ?? '').trim().toLowerCase();
    if (type === 'artist' || type === 'creator') into.creator(cell('service')?.trim(), cell('creator_id'), cell('added'));
    else if (type === 'post') into.post(cell('service')?.trim(), cell('creator_id'), cell('post_id'), cell('added'));
    else into.refs.skipped++;
  }
  return into.refs;
}

/**
 * The favourites of a file's text: JSON when it starts with `[` or `{`, CSV otherwise (parsed by
 * `parseCsv`, which throws on malformed CSV). Checks the size and count limits and refuses an empty file.
 */
export function parseFavoritesText(text: string, parseCsv: (text: string) => string[][]): FavoritesParse {
  if (utf8Bytes(text) > FAVORITES_IMPORT_MAX_BYTES) return { ok: false, message: FAVORITES_TRANSFER_MESSAGES.tooLarge };
  const body = text.replace(/^\uFEFF/, '').trim();
  if (!body) return { ok: false, message: FAVORITES_TRANSFER_MESSAGES.empty };
  let result: FavoriteRefs | string;
  if (body.startsWith('[') || body.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      return { ok: false, message: FAVORITES_TRANSFER_MESSAGES.badJson };
    }
    result = favoritesFromJson(value);
  } else {
    let records: string[][];
    try {
      records = parseCsv(body);
    } catch (error) {
      const reason = error instanceof Error ? ` ${error.message}` : '';
      return { ok: false, message: `${FAVORITES_TRANSFER_MESSAGES.badCsv}${reason}` };
    }
    result = favoritesFromCsv(records);
  }
  if (typeof result === 'string') return { ok: false, message: result };
  const count = result.artists.length + result.posts.length;
  if (count > FAVORITES_IMPORT_MAX_ITEMS) return { ok: false, message: FAVORITES_TRANSFER_MESSAGES.tooMany };
  if (count === 0) return { ok: false, message: FAVORITES_TRANSFER_MESSAGES.empty };
  return { ok: true, refs: result };
}

/** What an export holds of each favourite: the list answers' fields, plus when it was favourited. */
export interface ExportedCreator {
  service: string;
  id: string;
  name: string;
  faved_at?: string | null;
}
export interface ExportedPost {
  service: string;
  user: string;
  id: string;
  title: string;
  faved_at?: string | null;
}

/** The CSV's records (header first): one row per favourite, creators then posts. */
export function favoritesCsvRecords(artists: readonly ExportedCreator[], posts: readonly ExportedPost[]): string[][] {
  return [
    [...FAVORITES_CSV_COLUMNS],
    ...artists.map((c) => ['artist', c.service, c.id, '', c.name, c.faved_at ?? '']),
    ...posts.map((p) => ['post', p.service, p.user, p.id, p.title, p.faved_at ?? '']),
  ];
}

/** The name of an export file, dated: trove-favorites-2026-11-28.json. */
export function favoritesExportName(format: 'json' | 'csv', now: Date = new Date()): string {
  return `trove-favorites-${now.toISOString().slice(0, 10)}.${format}`;
}

/** What an import did: added, already there, and the items the archive does not have. */
export interface FavoritesImportReport {
  added: { artists: number; posts: number };
  unchanged: number;
  /** 'service:id' (creators) and 'service:user:id' (posts) the archive does not have. */
  not_found: string[];
  skipped: number;
}
