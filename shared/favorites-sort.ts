/**
 * The favourites pages (docs/product.md#favourites-pages, docs/product.md#favourites): sorting and paging an
 * account's favourite creators or posts, written once for the page loader (server) and the FavoritesBrowser
 * island (client). Browser-safe and free of zod: queries are validated on the server by
 * favoriteCreatorsQuerySchema / favoritePostsQuerySchema; the island builds them from its own choices.
 *
 * Rules the spec leaves open (docs/decisions.md):
 * - A missing date (a creator never reimported, a post without a publication date) sorts as the
 *   oldest: last when newest first, first when oldest first.
 * - Ties go by faved_seq (unique per account), so the server and every browser agree on one order;
 *   `order` reverses the whole order, tie-break included.
 */
import { PAGE_SIZE } from './constants.ts';
import { storedDateMs } from './format.ts';
import type { SortOrder } from './validation/listings.ts';

export type FavoriteCreatorSort = 'updated' | 'faved_seq' | 'last_imported';
export type FavoritePostSort = 'faved_seq' | 'published';
export type FavoritesKind = 'artists' | 'posts';

/** What sorting needs of a favourite creator (GET /v1/account/favorites?type=artist). */
export interface FavoriteCreatorItem {
  id: string;
  name: string;
  service: string;
  /** ISO 8601 without a zone, as the API answers. */
  updated: string;
  faved_seq: number;
  last_imported: string | null;
}

/** What sorting needs of a favourite post (type=post). */
export interface FavoritePostItem {
  id: string;
  user: string;
  service: string;
  published?: string | null;
  faved_seq: number;
}

export interface FavoritesQuery<S extends string> {
  o: number;
  sort_by: S;
  order: SortOrder;
}

export const FAVORITE_CREATOR_SORT_OPTIONS: ReadonlyArray<{ value: FavoriteCreatorSort; label: string }> = [
  { value: 'updated', label: 'New post date' },
  { value: 'faved_seq', label: 'Faved date' },
  { value: 'last_imported', label: 'Reimported date' },
];

export const FAVORITE_POST_SORT_OPTIONS: ReadonlyArray<{ value: FavoritePostSort; label: string }> = [
  { value: 'faved_seq', label: 'Faved date' },
  { value: 'published', label: 'Published date' },
];

export const FAVORITE_ORDER_OPTIONS: ReadonlyArray<{ value: SortOrder; label: string }> = [
  { value: 'desc', label: 'Descending' },
  { value: 'asc', label: 'Ascending' },
];

/** The listing each page shows without parameters (the validators' defaults). */
export const DEFAULT_FAVORITES_QUERY = {
  artists: { o: 0, sort_by: 'updated', order: 'desc' } as FavoritesQuery<FavoriteCreatorSort>,
  posts: { o: 0, sort_by: 'faved_seq', order: 'desc' } as FavoritesQuery<FavoritePostSort>,
};

export const FAVORITES_PATHS: Record<FavoritesKind, string> = {
  artists: '/account/favorites/artists',
  posts: '/account/favorites/posts',
};

type Sortable = Record<string, unknown> & { faved_seq: number };

/** null/undefined first, then numbers or strings (ISO dates compare as text). */
function compareValues(a: unknown, b: unknown): number {
  const aMissing = a === null || a === undefined;
  const bMissing = b === null || b === undefined;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const SORT_KEYS: Record<FavoritesKind, readonly string[]> = {
  artists: FAVORITE_CREATOR_SORT_OPTIONS.map((option) => option.value),
  posts: FAVORITE_POST_SORT_OPTIONS.map((option) => option.value),
};

/**
 * A sorted copy. A key outside the kind's list is an error (docs/product.md#favourites); the validators answer
 * 'Invalid sort by value' before any URL gets here, and this throws the same message.
 */
export function sortFavorites<T extends FavoriteCreatorItem | FavoritePostItem>(
  kind: FavoritesKind,
  items: readonly T[],
  sortBy: string,
  order: SortOrder,
): T[] {
  if (!SORT_KEYS[kind].includes(sortBy)) throw new Error('Invalid sort by value');
  if (order !== 'asc' && order !== 'desc') throw new Error('Invalid order value');
  const sign = order === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => {
    const x = a as unknown as Sortable;
    const y = b as unknown as Sortable;
    return sign * (compareValues(x[sortBy], y[sortBy]) || x.faved_seq - y.faved_seq);
  });
}

/** One page (50) of the sorted favourites, and how many there are in all. */
export function favoritesPage<T extends FavoriteCreatorItem | FavoritePostItem>(
  kind: FavoritesKind,
  items: readonly T[],
  query: FavoritesQuery<string>,
): { items: T[]; total: number } {
  const sorted = sortFavorites(kind, items, query.sort_by, query.order);
  return { items: sorted.slice(query.o, query.o + PAGE_SIZE), total: items.length };
}

/** The page's URL, leaving out default values, so the default listing is the plain path. */
export function favoritesUrl(kind: FavoritesKind, query: FavoritesQuery<string>): string {
  const defaults = DEFAULT_FAVORITES_QUERY[kind];
  const params = new URLSearchParams();
  if (query.sort_by !== defaults.sort_by) params.set('sort_by', query.sort_by);
  if (query.order !== defaults.order) params.set('order', query.order);
  if (query.o > 0) params.set('o', String(query.o));
  const search = params.toString();
  return search ? `${FAVORITES_PATHS[kind]}?${search}` : FAVORITES_PATHS[kind];
}

/** A favourite creator as the creator cards take it (`updated` in epoch seconds, as in creators.txt). */
export function creatorCard(item: FavoriteCreatorItem): { id: string; name: string; service: string; updated: number } {
  const time = storedDateMs(item.updated);
  return { id: item.id, name: item.name, service: item.service, updated: Number.isNaN(time) ? 0 : Math.floor(time / 1000) };
}
