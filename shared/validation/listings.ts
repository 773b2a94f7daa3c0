/** Listings and search: the artists list's query, search text, tags and the posts listings' query. */
import { z } from 'zod';
import { list, rule, scalarText, trimmed, choice } from './rules.ts';
import { offset } from './params.ts';
import { SEARCH_MIN_POSTS } from '../constants.ts';
import { PAYSITES, isPaysite, type Paysite } from '../paysites/index.ts';
import { CURSOR_MAX_LENGTH, parseArchiveCursor, parseCreatorCursor, type ArchiveCursor, type CreatorCursor } from '../cursor.ts';

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

/** A paging cursor (`after`, shared/cursor.ts): optional; empty is absent; a malformed one is refused. */
function cursorRule<T>(parse: (raw: string) => T | { error: string }, description: string) {
  return rule(
    (raw, fail): T | undefined => {
      const value = scalarText(raw)?.trim();
      if (value === undefined || value === '') return undefined;
      const parsed = parse(value);
      if (typeof parsed === 'object' && parsed !== null && 'error' in parsed) fail(parsed.error as string);
      return parsed as T;
    },
    { type: 'string', maxLength: CURSOR_MAX_LENGTH, description },
  );
}

export const creatorCursor = cursorRule<CreatorCursor>(
  parseCreatorCursor,
  'Cursor: the last post seen, as its published date, an underscore and its id (no date for an undated post); the next page starts after it and o is ignored.',
);
export const archiveCursor = cursorRule<ArchiveCursor>(
  parseArchiveCursor,
  'Cursor: the value in the Link rel="next" header (the date the post was added, an underscore and its archive number); the next page starts after that post and o is ignored.',
);

/** A creator's posts: the kemono query plus the cursor. */
export const creatorPostsQuerySchema = postsQuerySchema.extend({ after: creatorCursor });
/** The global posts listing: the kemono query plus the cursor. */
export const recentPostsQuerySchema = postsQuerySchema.extend({ after: archiveCursor });
