/**
 * Takedowns and the do-not-post list (docs/product.md, "Takedowns and the do-not-post list"), for
 * administrators:
 *   POST   /admin/takedown/{service}/user/{id}              remove a creator and list it
 *   POST   /admin/takedown/{service}/user/{id}/post/{post}  remove one post and list it
 *   GET    /admin/do_not_post                               the list, newest first, 50 per page
 *   DELETE /admin/do_not_post/{entry}                       lift an entry
 * The work is in api/moderation/takedowns.ts.
 */
import { z } from 'zod';
import { defineRoutes, route, type AppContext } from '../http/route.ts';
import { doNotPostPage, liftEntry, takedownCreator, takedownPost } from '../moderation/takedowns.ts';
import { artistIdParam, postIdParam, serviceParam } from '@shared/validation/params.ts';
import { doNotPostEntryId, doNotPostQuery, takedownSchema } from '@shared/validation/takedowns.ts';

const entry = z.object({
  id: z.number().int(),
  service: z.string(),
  creator_id: z.string(),
  post_id: z.string().nullable(),
  name: z.string().nullable(),
  reason: z.string(),
  added_by: z.number().int().nullable(),
  added_at: z.string(),
});

const takedownAnswer = z.object({
  entry,
  removed: z.record(z.string(), z.number().int()),
  files_deleted: z.number().int(),
  files_kept: z.number().int(),
});

/** The removed content leaves the stored pages before the answer, not at the next rebuild interval. */
async function afterTakedown<T>(deps: AppContext, result: T): Promise<T> {
  await deps.pagesChanged?.();
  return result;
}

const creatorParams = z.object({ service: serviceParam, id: artistIdParam });
const postParams = z.object({ service: serviceParam, id: artistIdParam, post: postIdParam });

export default defineRoutes(
  'takedowns',
  [
    route({
      method: 'post',
      version: 1,
      path: '/admin/takedown/{service}/user/{id}',
      access: 'administrator',
      form: true,
      summary: 'Removes a creator with everything of it (posts, files no one else uses, chats, DMs, shares) and lists it as do-not-post.',
      description:
        'Body: reason (1 to 1000 characters). Answers what was removed per kind. 404 when the creator is not in the archive, 409 when it is gone and already listed.',
      params: creatorParams,
      body: takedownSchema,
      response: takedownAnswer,
      errors: [400, 401, 403, 404, 409],
      handler: async ({ params, body, deps, account }) =>
        afterTakedown(deps, await takedownCreator(deps, params.service, params.id, body.reason, account!)),
    }),
    route({
      method: 'post',
      version: 1,
      path: '/admin/takedown/{service}/user/{id}/post/{post}',
      access: 'administrator',
      form: true,
      summary: 'Removes one post (its files no one else uses, revisions, comments, favourites) and lists it as do-not-post.',
      description: 'Body: reason (1 to 1000 characters). 404 when the post is not in the archive, 409 when it is gone and already listed.',
      params: postParams,
      body: takedownSchema,
      response: takedownAnswer,
      errors: [400, 401, 403, 404, 409],
      handler: async ({ params, body, deps, account }) =>
        afterTakedown(deps, await takedownPost(deps, params.service, params.id, params.post, body.reason, account!)),
    }),
    route({
      method: 'get',
      version: 1,
      path: '/admin/do_not_post',
      access: 'administrator',
      summary: 'The do-not-post list, newest first, 50 entries per page (o: offset).',
      query: doNotPostQuery,
      response: z.object({ total: z.number().int(), entries: z.array(entry) }),
      errors: [400, 401, 403],
      handler: ({ query, deps }) => doNotPostPage(deps.db, query.o),
    }),
    route({
      method: 'delete',
      version: 1,
      path: '/admin/do_not_post/{entry}',
      access: 'administrator',
      summary: 'Lifts a do-not-post entry: importers may archive the creator or post again. The removed data does not come back.',
      params: z.object({ entry: doNotPostEntryId }),
      response: z.object({ lifted: entry }),
      errors: [400, 401, 403, 404],
      handler: async ({ params, deps, account }) => ({ lifted: await liftEntry(deps.db, params.entry, account!) }),
    }),
  ],
  { section: 'moderation' },
);
