/**
 * Favourites of the signed-in account (docs/product.md#favourites-api, docs/product.md#favourites).
 *
 * Statuses as kemono 1.3.0 answers them. Favouriting is idempotent: adding a favourite twice or
 * removing one that is not there still answers 200 (`true`), so a client that retries or races another
 * tab ends in the state it asked for. Only an unknown creator or post is an error (404).
 * Everything here reads and writes the caller's own rows only (the account comes from the session).
 * Flags on posts (api/routes/flags.ts) are documented in the same section.
 */
import { z } from 'zod';
import {
  addFavoriteCreator,
  addFavoritePost,
  listFavoriteCreators,
  listFavoritePosts,
  removeFavoriteCreator,
  removeFavoritePost,
} from '../data/favorites.ts';
import type { Account } from '../data/accounts.ts';
import { ANSWERED, defineRoutes, route } from '../http/route.ts';
import { artistIdParam, postIdParam, serviceParam } from '@shared/validation/params.ts';
import { favoritesExportQuerySchema, favoritesImportBodySchema, favoritesTypeQuerySchema } from '@shared/validation/favorites.ts';
import { favoritesExportName } from '@shared/favorites-transfer.ts';
import { favoritesFile, importFavoritesFile } from '../favorites/transfer.ts';
import { creatorParams, creatorSummary, requireCreator, requirePost } from './creator-common.ts';
import { postSummary } from '@shared/shapes/posts.ts';

const favoriteCreator = creatorSummary.extend({ faved_seq: z.number().int(), last_imported: z.string().nullable() });
const favoritePost = postSummary.extend({ faved_seq: z.number().int() });

/** /favorites/post/{service}/{user}/{id}: kemono names the creator `user` and the post `id` here. */
const favoritePostParams = z.object({ service: serviceParam, user: artistIdParam, id: postIdParam });

/** Routes with `access: 'account'` always have one; this only narrows the type. */
function signedIn(account: Account | null): Account {
  if (!account) throw new Error('An account route ran without an account.');
  return account;
}

const withDate = { faved_at: z.string().nullable() };
const importReport = z.object({
  added: z.object({ artists: z.number().int(), posts: z.number().int() }),
  unchanged: z.number().int(),
  not_found: z.array(z.string()),
  skipped: z.number().int(),
});

const favoriteChange = (summary: string) => ({ access: 'account' as const, errors: [401, 404], response: z.literal(true), summary });

export default defineRoutes(
  'favorites',
  [
    route({
      method: 'get',
      version: 1,
      path: '/account/favorites',
      summary: "The signed-in account's favourite creators (type=artist, the default) or posts (type=post), newest favourite first.",
      description: 'Creators carry faved_seq and last_imported; posts are post summaries with faved_seq. Sorting is up to the client.',
      access: 'account',
      query: favoritesTypeQuerySchema,
      response: z.union([z.array(favoriteCreator), z.array(favoritePost)]),
      errors: [401],
      handler: async ({ query, deps, account }) =>
        query.type === 'post'
          ? await listFavoritePosts(deps.db, signedIn(account).id)
          : await listFavoriteCreators(deps.db, signedIn(account).id),
    }),
    route({
      method: 'get',
      version: 1,
      path: '/account/favorites/export',
      summary: "The signed-in account's favourite creators and posts as one file: JSON {artists, posts} or CSV (format=csv).",
      description:
        'artists and posts are the answers of GET /account/favorites?type=artist and ?type=post, each item with faved_at. The CSV has one row per favourite: type, service, creator_id, post_id, name, added.',
      access: 'account',
      query: favoritesExportQuerySchema,
      response: z.object({ artists: z.array(favoriteCreator.extend(withDate)), posts: z.array(favoritePost.extend(withDate)) }),
      errors: [401],
      handler: async ({ query, deps, account, res }) => {
        const file = await favoritesFile(deps.db, signedIn(account).id, query.format);
        res.set('Cache-Control', 'private, no-store');
        res.attachment(favoritesExportName(query.format));
        if (typeof file !== 'string') return file;
        res.type('text/csv; charset=utf-8').send(file);
        return ANSWERED;
      },
    }),
    route({
      method: 'post',
      version: 1,
      path: '/account/favorites/import',
      summary: "Merges a favourites file (our export, a kemono favourites answer, or CSV) into the signed-in account's favourites.",
      description:
        'Adds what the archive has and the account lacks (importing a file twice adds nothing the second time) and answers what it added and which service:id (creators) or service:user:id (posts) the archive does not have.',
      access: 'account',
      body: favoritesImportBodySchema,
      response: importReport,
      errors: [401, 413],
      handler: ({ body, deps, account }) => importFavoritesFile(deps.db, signedIn(account).id, body.text),
    }),
    route({
      ...favoriteChange('Adds a creator to the favourites (200 also when it already was one).'),
      method: 'post',
      version: 1,
      path: '/favorites/creator/{service}/{id}',
      params: creatorParams,
      handler: async ({ params, deps, account }) => {
        await requireCreator(deps.db, params.service, params.id);
        await addFavoriteCreator(deps.db, signedIn(account).id, params.service, params.id);
        return true as const;
      },
    }),
    route({
      ...favoriteChange('Removes a creator from the favourites (200 also when it was not one).'),
      method: 'delete',
      version: 1,
      path: '/favorites/creator/{service}/{id}',
      params: creatorParams,
      handler: async ({ params, deps, account }) => {
        await requireCreator(deps.db, params.service, params.id);
        await removeFavoriteCreator(deps.db, signedIn(account).id, params.service, params.id);
        return true as const;
      },
    }),
    route({
      ...favoriteChange('Adds a post to the favourites (200 also when it already was one).'),
      method: 'post',
      version: 1,
      path: '/favorites/post/{service}/{user}/{id}',
      params: favoritePostParams,
      handler: async ({ params, deps, account }) => {
        await requirePost(deps.db, params.service, params.user, params.id);
        await addFavoritePost(deps.db, signedIn(account).id, params.service, params.user, params.id);
        return true as const;
      },
    }),
    route({
      ...favoriteChange('Removes a post from the favourites (200 also when it was not one).'),
      method: 'delete',
      version: 1,
      path: '/favorites/post/{service}/{user}/{id}',
      params: favoritePostParams,
      handler: async ({ params, deps, account }) => {
        await requirePost(deps.db, params.service, params.user, params.id);
        await removeFavoritePost(deps.db, signedIn(account).id, params.service, params.user, params.id);
        return true as const;
      },
    }),
  ],
  "The signed-in account's favourite creators and posts, and flags on posts.",
);
