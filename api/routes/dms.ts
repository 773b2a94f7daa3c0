/** DMs: the approved DMs of a creator and of the whole archive, and whether an account has DMs to review. */
import { z } from 'zod';
import { countCreatorDms, countDms, hasPendingDms, listCreatorDms, listDms } from '../data/dms.ts';
import { defineRoutes, route } from '../http/route.ts';
import { PAGE_SIZE } from '../../src/lib/constants.ts';
import { dmsQuerySchema, offset } from '../../src/lib/validators.ts';
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
      handler: ({ params, query, deps }) => {
        requireCreator(deps.db, params.service, params.id);
        return {
          count: countCreatorDms(deps.db, params.service, params.id),
          dms: listCreatorDms(deps.db, params.service, params.id, query.o, PAGE_SIZE),
        };
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/dms',
      summary: 'Approved DMs of every creator, most recently added first, 50 a page (q of at least 3 characters).',
      query: dmsQuerySchema,
      response: z.object({ count: z.number().int(), dms: z.array(dm.extend({ artist: creatorSummary.nullable() })) }),
      handler: ({ query, deps }) => ({
        count: countDms(deps.db, { q: query.q }),
        dms: listDms(deps.db, { q: query.q, offset: query.o, limit: PAGE_SIZE }),
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
  ],
  'Direct messages.',
);
