/**
 * The artists list (/artists, docs/product.md#artists-list): filtering, sorting and paging a creator list,
 * written once for the page loader (server) and the ArtistsBrowser island (client). Browser-safe and
 * free of zod: the query is validated on the server by `artistsQuerySchema` (shared/validation/listings.ts);
 * the island only ever builds queries from the form's own choices.
 *
 * Rules the spec leaves open (docs/decisions.md):
 * - `q` matches a case-insensitive part of the name or of the id.
 * - Ties are broken by name (case-insensitive), then service, then id, so the server and every
 *   browser agree on one order; `order` reverses the whole order, tie-breaks included.
 * - Names compare case-insensitively by code unit, not by locale, for the same reason.
 */
import { PAGE_SIZE } from './constants.ts';
import type { Paysite } from './paysites/index.ts';
import type { ArtistSortField, SortOrder } from './validation/listings.ts';

/** What the list needs of a creators.txt item. */
export interface ArtistItem {
  id: string;
  name: string;
  service: string;
  indexed: number;
  updated: number;
  favorited: number;
}

export interface ArtistsQuery {
  o: number;
  q?: string;
  service?: Paysite;
  sort_by: ArtistSortField;
  order: SortOrder;
}

/** The sort dropdown, in the spec's order, with its labels. */
export const ARTIST_SORT_OPTIONS: ReadonlyArray<{ value: ArtistSortField; label: string }> = [
  { value: 'favorited', label: 'Popularity' },
  { value: 'indexed', label: 'Date Indexed' },
  { value: 'updated', label: 'Date Updated' },
  { value: 'name', label: 'Alphabetical Order' },
  { value: 'service', label: 'Service' },
];

export const ORDER_LABELS: Record<SortOrder, string> = { asc: 'Ascending', desc: 'Descending' };

/** The listing /artists shows without parameters (the one kept in the page store). */
export const DEFAULT_ARTISTS_QUERY: ArtistsQuery = { o: 0, sort_by: 'favorited', order: 'desc' };

export const ARTISTS_PATH = '/artists';

type Compare = (a: ArtistItem, b: ArtistItem) => number;

const byNumber =
  (key: 'favorited' | 'indexed' | 'updated'): Compare =>
  (a, b) =>
    a[key] - b[key];
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byName: Compare = (a, b) => byText(a.name.toLowerCase(), b.name.toLowerCase()) || byText(a.name, b.name);
const byService: Compare = (a, b) => byText(a.service, b.service);
const tieBreak: Compare = (a, b) => byName(a, b) || byService(a, b) || byText(a.id, b.id);

const PRIMARY: Record<ArtistSortField, Compare> = {
  favorited: byNumber('favorited'),
  indexed: byNumber('indexed'),
  updated: byNumber('updated'),
  name: byName,
  service: byService,
};

/**
 * The comparator of a sort field and order. A field outside the list is a programming error (the
 * validators reject it before it gets here): 'Unknown sorting type', the spec's message for it.
 */
export function artistComparator(sortBy: ArtistSortField, order: SortOrder): Compare {
  if (!Object.hasOwn(PRIMARY, sortBy)) throw new Error('Unknown sorting type');
  const primary = PRIMARY[sortBy];
  const sign = order === 'asc' ? 1 : -1;
  return (a, b) => sign * (primary(a, b) || tieBreak(a, b));
}

/** The creators matching `q` (name or id, case-insensitive) and `service`, in their given order. */
export function filterArtists<T extends ArtistItem>(creators: readonly T[], query: Pick<ArtistsQuery, 'q' | 'service'>): T[] {
  const needle = query.q?.trim().toLowerCase() ?? '';
  return creators.filter(
    (creator) =>
      (!query.service || creator.service === query.service) &&
      (!needle || creator.name.toLowerCase().includes(needle) || creator.id.toLowerCase().includes(needle)),
  );
}

/** A sorted copy. */
export function sortArtists<T extends ArtistItem>(creators: readonly T[], sortBy: ArtistSortField, order: SortOrder): T[] {
  return [...creators].sort(artistComparator(sortBy, order));
}

export interface ArtistsPage<T> {
  creators: T[];
  /** Matching creators on every page. */
  total: number;
}

/**
 * One page of the listing. `sorted` may be handed in already sorted by the query's sort_by and
 * order (the server keeps sorted copies); otherwise the matches are sorted here.
 */
export function artistsPage<T extends ArtistItem>(creators: readonly T[], query: ArtistsQuery, sorted = false): ArtistsPage<T> {
  const matches = filterArtists(creators, query);
  const ordered = sorted ? matches : sortArtists(matches, query.sort_by, query.order);
  return { creators: ordered.slice(query.o, query.o + PAGE_SIZE), total: matches.length };
}

/** The query as URL parameters, leaving out defaults, so the default listing is plain /artists. */
export function artistsSearchParams(query: ArtistsQuery): URLSearchParams {
  const params = new URLSearchParams();
  const q = query.q?.trim();
  if (q) params.set('q', q);
  if (query.service) params.set('service', query.service);
  if (query.sort_by !== DEFAULT_ARTISTS_QUERY.sort_by) params.set('sort_by', query.sort_by);
  if (query.order !== DEFAULT_ARTISTS_QUERY.order) params.set('order', query.order);
  if (query.o > 0) params.set('o', String(query.o));
  return params;
}

export function artistsUrl(query: ArtistsQuery): string {
  const search = artistsSearchParams(query).toString();
  return search ? `${ARTISTS_PATH}?${search}` : ARTISTS_PATH;
}

/** Whether two queries select the same page. */
export function sameArtistsQuery(a: ArtistsQuery, b: ArtistsQuery): boolean {
  return artistsUrl(a) === artistsUrl(b);
}
