/**
 * Flags on posts, asking for a re-import (docs/product.md#flags, docs/product.md#posts-api), as
 * kemono 1.3.0 answers them: flags are one per account and post, a second flag is a 409. Asking whether
 * a post is flagged answers 200 when it is and 404 when it is not (kemono clients read the status).
 * Documented with the favourites (api/routes/favorites.ts) under 'favorites'.
 * Moderators list the flagged posts and dismiss a post's flags (api/moderation/flags.ts).
 */
import { z } from 'zod';
import { countFlaggedPosts, flagPost, isPostFlagged, listFlaggedPosts } from '../data/flags.ts';
import { dismissFlags, NO_FLAGS } from '../moderation/flags.ts';
import type { Store } from '../data/store.ts';
import type { Account } from '../data/accounts.ts';
import { ConflictError, NotFoundError, POST_NOT_FOUND } from '../http/errors.ts';
import { defineRoutes, route } from '../http/route.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { artistIdParam, offset, postIdParam, serviceParam } from '@shared/validation/params.ts';
import { flagReason } from '@shared/validation/favorites.ts';
import { creatorParams, requirePost } from './creator-common.ts';

const flagParams = creatorParams.extend({ post: postIdParam });
const flaggedParams = z.object({ service: serviceParam, user: artistIdParam, post: postIdParam });

const flaggedPost = z.object({
  service: z.string(),
  user: z.string(),
  id: z.string(),
  title: z.string(),
  creator_name: z.string().nullable(),
  flagged_at: z.string(),
  flag_count: z.number(),
  reasons: z.array(z.string()),
});

export const ALREADY_FLAGGED = 'You have already flagged this post.';
export const NOT_FLAGGED = 'This post is not flagged.';

/** Records the account's flag, or the 404/409. */
async function flag(
  db: Store,
  account: Account,
  target: { service: string; user: string; post_id: string },
  reason: string,
): Promise<true> {
  await requirePost(db, target.service, target.user, target.post_id);
  if (!(await flagPost(db, { ...target, account_id: account.id, reason }))) throw new ConflictError(ALREADY_FLAGGED);
  return true;
}

export default defineRoutes(
  'flags',
  [
    route({
      method: 'get',
      version: 1,
      path: '/{service}/user/{id}/post/{post}/flag',
      summary: 'Whether the post has been flagged for re-import (by anyone): 200 when it is, 404 when it is not.',
      description: `200 answers true; 404 answers "${NOT_FLAGGED}", or "${POST_NOT_FOUND}" for an unknown post.`,
      params: flagParams,
      response: z.literal(true),
      errors: [404],
      handler: async ({ params, deps }) => {
        await requirePost(deps.db, params.service, params.id, params.post);
        if (!(await isPostFlagged(deps.db, params.service, params.id, params.post))) throw new NotFoundError(NOT_FLAGGED);
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
        flag(deps.db, account!, { service: params.service, user: params.id, post_id: params.post }, body.reason),
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
        flag(deps.db, account!, { service: body.service, user: body.creator_id, post_id: body.post_id }, body.reason),
    }),
    route({
      method: 'get',
      version: 1,
      path: '/account/moderator/flags',
      access: 'moderator',
      summary: `Flagged posts, the most recently flagged first, ${PAGE_SIZE} per page, with their flag count and reasons.`,
      query: z.object({ o: offset }),
      response: z.object({ total: z.number(), posts: z.array(flaggedPost) }),
      errors: [400, 401, 403],
      handler: async ({ query, deps }) => ({
        total: await countFlaggedPosts(deps.db),
        posts: await listFlaggedPosts(deps.db, { offset: query.o, limit: PAGE_SIZE }),
      }),
    }),
    route({
      method: 'delete',
      version: 1,
      path: '/account/moderator/flags/{service}/{user}/{post}',
      access: 'moderator',
      summary: "Dismisses a post's flags (recorded in the audit log); the post stays as it is.",
      description: `404 "${NO_FLAGS}" when the post has none.`,
      params: flaggedParams,
      response: z.object({ cleared: z.number() }),
      errors: [401, 403, 404],
      handler: async ({ params, deps, account }) => ({ cleared: await dismissFlags(deps.db, account!, params) }),
    }),
  ],
  { section: 'favorites' },
);
