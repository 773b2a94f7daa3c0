/**
 * DMs: the approved DMs of a creator and of the whole archive, and the signed-in account's review of the
 * DMs it imported (pending or ignored; approving makes them public through the change log).
 */
import { z } from 'zod';
import { countCreatorDms, countDms, hasPendingDms, listCreatorDms, listDms, listDmsForReview, reviewDms } from '../data/dms.ts';
import { defineRoutes, route } from '../http/route.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { dmReviewSchema, dmReviewStatus, dmsQuerySchema } from '@shared/validation/dms.ts';
import { offset } from '@shared/validation/params.ts';
import { creatorParams, creatorSummary, requireCreator } from './creator-common.ts';

const dm = z.object({
  hash: z.string(),
  service: z.string(),
  user: z.string(),
  user_id: z.string(),
  content: z.string(),
  embed: z.record(z.string(), z.unknown()),
  file: z.object({ name: z.string().nullable().optional(), path: z.string().optional() }),
  published: z.string().nullable(),
  added: z.string(),
});
const dmWithArtist = dm.extend({ artist: creatorSummary.nullable() });

export default defineRoutes(
  'dms',
  [
    route({
      method: 'get',
      version: 1,
      path: '/{service}/user/{id}/dms',
      summary: "A page of 50 of the creator's approved DMs, newest first, with the total.",
      params: creatorParams,
      query: z.object({ o: offset }),
      response: z.object({ count: z.number().int(), dms: z.array(dm) }),
      errors: [404],
      handler: async ({ params, query, deps }) => {
        await requireCreator(deps.db, params.service, params.id);
        return {
          count: await countCreatorDms(deps.db, params.service, params.id),
          dms: await listCreatorDms(deps.db, params.service, params.id, query.o, PAGE_SIZE),
        };
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/dms',
      summary: 'Approved DMs of every creator, most recently added first, 50 a page (q of at least 3 characters).',
      query: dmsQuerySchema,
      response: z.object({ count: z.number().int(), dms: z.array(dmWithArtist) }),
      handler: async ({ query, deps }) => ({
        count: await countDms(deps.db, { q: query.q }),
        dms: await listDms(deps.db, { q: query.q, offset: query.o, limit: PAGE_SIZE }),
      }),
    }),
    route({
      method: 'get',
      version: 1,
      path: '/has_pending_dms',
      summary: 'Whether DMs imported by the signed-in account wait for its review.',
      access: 'account',
      response: z.boolean(),
      handler: ({ account, deps }) => hasPendingDms(deps.db, account!.id),
    }),
    route({
      method: 'get',
      version: 1,
      path: '/account/review_dms',
      summary: 'DMs imported by the signed-in account that wait for its review (status pending, the default, or ignored).',
      access: 'account',
      query: z.object({ status: dmReviewStatus }),
      response: z.object({
        props: z.object({ currentPage: z.literal('account'), status: z.enum(['pending', 'ignored']), dms: z.array(dmWithArtist) }),
      }),
      handler: async ({ account, query, deps }) => ({
        props: { currentPage: 'account' as const, status: query.status, dms: await listDmsForReview(deps.db, account!.id, query.status) },
      }),
    }),
    route({
      method: 'post',
      version: 1,
      path: '/account/review_dms',
      summary: "Approves the signed-in account's DMs with the given hashes; its other pending DMs become ignored.",
      description:
        "With delete_ignored the account's ignored DMs (not approved now) are deleted first, so DMs still pending are never deleted unseen. Hashes of DMs this account did not import, or already approved, are skipped (the counts say what changed); another account's DMs are never touched.",
      access: 'account',
      body: dmReviewSchema,
      response: z.object({ approved: z.number().int(), ignored: z.number().int(), deleted: z.number().int() }),
      form: true,
      handler: ({ account, body, deps }) =>
        reviewDms(deps.db, account!.id, body.approved_hashes, { deleteIgnored: body.delete_ignored, ignoreRest: true }),
    }),
  ],
  'Direct messages.',
);
