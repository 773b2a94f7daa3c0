/** Listings and search: the artists list's query, search text, tags and the posts listings' query. */
import { z } from 'zod';
import { list, rule, scalarText, trimmed, choice } from './rules.ts';
import { offset } from './params.ts';
import { SEARCH_MIN_POSTS } from '../constants.ts';
import { PAYSITES, isPaysite, type Paysite } from '../paysites/index.ts';

export const ARTIST_SORT_FIELDS = ['favorited', 'indexed', 'updated', 'name', 'service'] as const;
export type ArtistSortField = (typeof ARTIST_SORT_FIELDS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** Search text: optional, trimmed; shorter than the minimum is an error. */
export function searchQuery(min: number) {
  return rule(
    (raw, fail) => {
      const value = trimmed(raw);
      if (value === undefined) return undefined;
      if ([...value].length < min) fail(`Search query must be at least ${min} characters long.`);
      return value;
    },
    { type: 'string', minLength: min },
  );
}
export const postsSearchQuery = searchQuery(SEARCH_MIN_POSTS);

/** Repeated `tag` parameters as a list of non-empty tags. */
export const tagList = rule(
  (raw) =>
    list(raw)
      .map((v) => scalarText(v)?.trim())
      .filter((v): v is string => !!v),
  { type: 'array', items: { type: 'string' } },
);

export const artistsQuerySchema = z.object({
  o: offset,
  q: rule((raw) => trimmed(raw), { type: 'string' }),
  service: rule(
    (raw, fail): Paysite | undefined => {
      const value = trimmed(raw);
      if (value === undefined) return undefined;
      if (!isPaysite(value)) fail('Unknown service');
      return value as Paysite;
    },
    { type: 'string', enum: [...PAYSITES] },
  ),
  sort_by: choice(ARTIST_SORT_FIELDS, 'favorited', () => 'Invalid sort field value'),
  order: choice(SORT_ORDERS, 'desc', () => 'Invalid order by field'),
});

export const postsQuerySchema = z.object({ o: offset, q: postsSearchQuery, tag: tagList });
