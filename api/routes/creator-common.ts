/** What the creator-scoped routes share: the path parameters, the creator shapes, the 404s, and the list route. */
import { z } from 'zod';
import { getCreator, getCreatorProfile, type Creator, type CreatorProfile } from '../data/creators.ts';
import type { Store } from '../data/store.ts';
import { postExists } from '../data/posts.ts';
import { CREATOR_NOT_FOUND, NotFoundError, POST_NOT_FOUND } from '../http/errors.ts';
import { route } from '../http/route.ts';
import { artistIdParam, serviceParam } from '@shared/validation/params.ts';

export const creatorParams = z.object({ service: serviceParam, id: artistIdParam });

/** A creator in answers other than creators.txt: dates as ISO strings (DM artists, linked profiles). */
export const creatorSummary = z.object({
  id: z.string(),
  name: z.string(),
  service: z.string(),
  indexed: z.string(),
  updated: z.string(),
  public_id: z.string().nullable(),
  relation_id: z.number().int().nullable(),
});

export const linkedCreator = creatorSummary.extend({ has_chats: z.boolean() });

/** GET /v1/{service}/user/{id}/profile: exactly these keys (docs/product.md#creators-api: some clients fail on others). */
export const creatorProfile = z.strictObject({
  ...linkedCreator.shape,
  post_count: z.number().int(),
  dm_count: z.number().int(),
  share_count: z.number().int(),
  chat_count: z.number().int(),
});

export async function requireCreator(db: Store, service: string, id: string): Promise<Creator> {
  const creator = await getCreator(db, service, id);
  if (!creator) throw new NotFoundError(CREATOR_NOT_FOUND);
  return creator;
}

/** The 404 unless the creator has the post. */
export async function requirePost(db: Store, service: string, creatorId: string, postId: string): Promise<void> {
  if (!(await postExists(db, service, creatorId, postId))) throw new NotFoundError(POST_NOT_FOUND);
}

/** The profile answer (with its counts) of a creator, or the 404. */
export async function requireCreatorProfile(db: Store, service: string, id: string): Promise<CreatorProfile> {
  const profile = await getCreatorProfile(db, service, id);
  if (!profile) throw new NotFoundError(CREATOR_NOT_FOUND);
  return profile;
}

/**
 * A GET answering a list under a creator: 404 for an unknown creator, else the list. `params` adds path
 * parameters below the creator (a post's revisions and comments); `list` gets them all.
 */
export function creatorListRoute<T extends z.ZodType, P extends typeof creatorParams>(
  path: string,
  summary: string,
  item: T,
  list: (db: Store, params: z.output<P>) => Promise<z.input<T>[]>,
  params: P = creatorParams as P,
) {
  return route({
    method: 'get',
    version: 1,
    path,
    summary,
    params,
    response: z.array(item),
    errors: [404],
    handler: async ({ params, deps }) => {
      await requireCreator(deps.db, params.service, params.id);
      return list(deps.db, params as z.output<P>);
    },
  });
}
