/**
 * Favourites and flags of the signed-in account (SPEC.md sections 4, 6 and 7; API-NOTES.md "Accounts").
 *
 * Statuses as kemono 1.3.0 answers them. Favouriting is idempotent: adding a favourite twice or
 * removing one that is not there still answers 200 (`true`), so a client that retries or races another
 * tab ends in the state it asked for. Only an unknown creator or post is an error (404). Flags are one
 * per account and post: a second flag is a 409. Asking whether a post is flagged answers 200 when it
 * is and 404 when it is not (kemono clients read the status).
 * Everything here reads and writes the caller's own rows only (the account comes from the session).
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
import { flagPost, isPostFlagged } from '../data/moderation.ts';
import { postExists } from '../data/posts.ts';
import type { Db } from '../data/db.ts';
import type { Account } from '../data/accounts.ts';
import { ConflictError, NotFoundError } from '../http/errors.ts';
import { defineRoutes, route } from '../http/route.ts';
import { artistIdParam, postIdParam, serviceParam } from '@shared/validation/params.ts';
import { favoritesTypeQuerySchema, flagReason } from '@shared/validation/favorites.ts';
import { creatorParams, creatorSummary, requireCreator } from './creator-common.ts';
import { postSummary } from './post-schemas.ts';

const favoriteCreator = creatorSummary.extend({ faved_seq: z.number().int(), last_imported: z.string().nullable() });
const favoritePost = postSummary.extend({ faved_seq: z.number().int() });

/** /favorites/post/{service}/{user}/{id}: kemono names the creator `user` and the post `id` here. */
const favoritePostParams = z.object({ service: serviceParam, user: artistIdParam, id: postIdParam });
const flagParams = creatorParams.extend({ post: postIdParam });

const POST_NOT_FOUND = 'Post not found.';
export const ALREADY_FLAGGED = 'You have already flagged this post.';
export const NOT_FLAGGED = 'This post is not flagged.';

function requirePost(db: Db, service: string, creatorId: string, postId: string): void {
  if (!postExists(db, service, creatorId, postId)) throw new NotFoundError(POST_NOT_FOUND);
}

/** Records the account's flag, or the 404/409. */
function flag(db: Db, account: Account, target: { service: string; user: string; post_id: string }, reason: string): true {
  requirePost(db, target.service, target.user, target.post_id);
  if (!flagPost(db, { ...target, account_id: account.id, reason })) throw new ConflictError(ALREADY_FLAGGED);
  return true;
}

/** Routes with `access: 'account'` always have one; this only narrows the type. */
function signedIn(account: Account | null): Account {
  if (!account) throw new Error('An account route ran without an account.');
  return account;
}

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
      handler: ({ query, deps, account }) =>
        query.type === 'post' ? listFavoritePosts(deps.db, signedIn(account).id) : listFavoriteCreators(deps.db, signedIn(account).id),
    }),
    route({
      ...favoriteChange('Adds a creator to the favourites (200 also when it already was one).'),
      method: 'post',
      version: 1,
      path: '/favorites/creator/{service}/{id}',
      params: creatorParams,
      handler: ({ params, deps, account }) => {
        requireCreator(deps.db, params.service, params.id);
        addFavoriteCreator(deps.db, signedIn(account).id, params.service, params.id);
        return true as const;
      },
    }),
    route({
      ...favoriteChange('Removes a creator from the favourites (200 also when it was not one).'),
      method: 'delete',
      version: 1,
      path: '/favorites/creator/{service}/{id}',
      params: creatorParams,
      handler: ({ params, deps, account }) => {
        requireCreator(deps.db, params.service, params.id);
        removeFavoriteCreator(deps.db, signedIn(account).id, params.service, params.id);
        return true as const;
      },
    }),
    route({
      ...favoriteChange('Adds a post to the favourites (200 also when it already was one).'),
      method: 'post',
      version: 1,
      path: '/favorites/post/{service}/{user}/{id}',
      params: favoritePostParams,
      handler: ({ params, deps, account }) => {
        requirePost(deps.db, params.service, params.user, params.id);
        addFavoritePost(deps.db, signedIn(account).id, params.service, params.user, params.id);
        return true as const;
      },
    }),
    route({
      ...favoriteChange('Removes a post from the favourites (200 also when it was not one).'),
      method: 'delete',
      version: 1,
      path: '/favorites/post/{service}/{user}/{id}',
      params: favoritePostParams,
      handler: ({ params, deps, account }) => {
        requirePost(deps.db, params.service, params.user, params.id);
        removeFavoritePost(deps.db, signedIn(account).id, params.service, params.user, params.id);
        return true as const;
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/{service}/user/{id}/post/{post}/flag',
      summary: 'Whether the post has been flagged for re-import (by anyone): 200 when it is, 404 when it is not.',
      description: `200 answers true; 404 answers "${NOT_FLAGGED}", or "${POST_NOT_FOUND}" for an unknown post.`,
      params: flagParams,
      response: z.literal(true),
      errors: [404],
      handler: ({ params, deps }) => {
        requirePost(deps.db, params.service, params.id, params.post);
        if (!isPostFlagged(deps.db, params.service, params.id, params.post)) throw new NotFoundError(NOT_FLAGGED);
        return true as const;
      },
    }),
    route({
      method: 'post',
      version: 1,
      path: '/{service}/user/{id}/post/{post}/flag',
      summary: 'Flags the post for re-import; one flag per account and post (409 for a second).',
      access: 'account',
      params: flagParams,
      body: z.object({ reason: flagReason }),
      response: z.literal(true),
      status: 201,
      errors: [401, 404, 409],
      handler: ({ params, body, deps, account }) =>
        flag(deps.db, signedIn(account), { service: params.service, user: params.id, post_id: params.post }, body.reason),
    }),
    route({
      method: 'put',
      version: 2,
      path: '/account/flags/post',
      summary: 'Flags a post for re-import (v2 form of the flag call); one flag per account and post (409 for a second).',
      description: 'Body {"type": ..., "data": {service, creator_id, post_id, reason}}; answers {"type": "api_response", "data": true}.',
      access: 'account',
      body: z.object({ service: serviceParam, creator_id: artistIdParam, post_id: postIdParam, reason: flagReason }),
      response: z.literal(true),
      status: 201,
      errors: [401, 404, 409],
      handler: ({ body, deps, account }) =>
        flag(deps.db, signedIn(account), { service: body.service, user: body.creator_id, post_id: body.post_id }, body.reason),
    }),
  ],
  "The signed-in account's favourite creators and posts, and flags on posts.",
);
