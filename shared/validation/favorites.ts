/** Favourites (the account's listings and the API's `type`) and flags on posts. */
import { z } from 'zod';
import { choice, rule, trimmed } from './rules.ts';
import { offset } from './params.ts';
import { SORT_ORDERS } from './listings.ts';

export const FAVORITE_CREATOR_SORT_FIELDS = ['updated', 'faved_seq', 'last_imported'] as const;
export const FAVORITE_POST_SORT_FIELDS = ['faved_seq', 'published'] as const;

export const favoriteCreatorsQuerySchema = z.object({
  o: offset,
  sort_by: choice(FAVORITE_CREATOR_SORT_FIELDS, 'updated', () => 'Invalid sort by value'),
  order: choice(SORT_ORDERS, 'desc', () => 'Invalid order value'),
});

export const favoritePostsQuerySchema = z.object({
  o: offset,
  sort_by: choice(FAVORITE_POST_SORT_FIELDS, 'faved_seq', () => 'Invalid sort by value'),
  order: choice(SORT_ORDERS, 'desc', () => 'Invalid order value'),
});

/** kemono documents the creator list as `type=creator` too ("post or creator (artist)"). */
export const FAVORITE_TYPES = ['artist', 'creator', 'post'] as const;
/** GET /v1/account/favorites: `type` artist (the default, as kemono), creator (the same) or post. */
export const favoritesTypeQuerySchema = z.object({
  type: choice(FAVORITE_TYPES, 'artist', () => 'Invalid favorites type: expected "artist", "creator" or "post".'),
});

export const FLAG_REASON_MAX = 200;
/** A flag's reason (the post page sends 'reason-other'). */
export const flagReason = rule(
  (raw, fail): string => {
    const value = trimmed(raw);
    if (value === undefined) return fail('Flag reason is required.');
    if ([...value].length > FLAG_REASON_MAX) fail(`Flag reason must be at most ${FLAG_REASON_MAX} characters long.`);
    return value;
  },
  { type: 'string', maxLength: FLAG_REASON_MAX, example: 'reason-other' },
);

/** GET /v1/account/favorites/export: `format` json (the default) or csv. */
export const favoritesExportQuerySchema = z.object({
  format: choice(['json', 'csv'] as const, 'json', () => 'Invalid export format: expected "json" or "csv".'),
});

/** POST /v1/account/favorites/import: the file's text as the browser read it (JSON or CSV). */
export const favoritesImportBodySchema = z.object({
  text: rule((raw, fail): string => (typeof raw === 'string' ? raw : fail('The file is required.')), {
    type: 'string',
    description: 'The text of a favourites file: our export, a kemono favourites answer, or CSV.',
  }),
});
