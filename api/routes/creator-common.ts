/** What the creator-scoped routes share: the path parameters, the creator shapes, and the 404. */
import { z } from 'zod';
import { getCreator, type Creator } from '../data/creators.ts';
import type { Db } from '../data/db.ts';
import { NotFoundError } from '../http/errors.ts';
import { artistIdParam, serviceParam } from '../../src/lib/validators.ts';

export const CREATOR_NOT_FOUND = 'Creator not found.';

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

/** GET /v1/{service}/user/{id}/profile: exactly these keys (API-NOTES.md: some clients fail on others). */
export const creatorProfile = z.strictObject({
  ...linkedCreator.shape,
  post_count: z.number().int(),
  dm_count: z.number().int(),
  share_count: z.number().int(),
  chat_count: z.number().int(),
});

export function requireCreator(db: Db, service: string, id: string): Creator {
  const creator = getCreator(db, service, id);
  if (!creator) throw new NotFoundError(CREATOR_NOT_FOUND);
  return creator;
}
