/**
 * The audit log, for administrators (docs/product.md#audit-log):
 *   GET /v1/admin/audit   ?o (multiple of 50) &actor (account id) &action → one page, newest first,
 *                         with the total and what the filters offer
 * Nothing here (nor anywhere) changes or deletes a line: the table refuses it (migration 010).
 */
import { z } from 'zod';
import { defineRoutes, route } from '../http/route.ts';
import { AUDIT_ACTIONS, countAudit, listAudit, listAuditActors } from '../data/audit-log.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { auditQuerySchema } from '@shared/validation/audit.ts';

const entry = z.object({
  id: z.number().int(),
  at: z.string().meta({ description: 'When, in UTC.' }),
  actor_id: z.number().int().nullable().meta({ description: 'The account that acted; null for the system.' }),
  actor_name: z.string().nullable().meta({ description: 'Its username when it acted.' }),
  action: z.string().meta({ description: 'One of `actions`.' }),
  target: z.string(),
  reason: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});

const auditPage = z.object({
  total: z.number().int().meta({ description: 'Lines matching the filters.' }),
  entries: z.array(entry),
  actors: z.array(z.object({ id: z.number().int(), username: z.string() })),
  actions: z.array(z.enum(AUDIT_ACTIONS)),
});

export default defineRoutes(
  'audit',
  [
    route({
      method: 'get',
      version: 1,
      path: '/admin/audit',
      access: 'administrator',
      summary: `One page (${PAGE_SIZE} lines) of the audit log, newest first, filtered by actor and action.`,
      description: 'An unknown action or actor that is not an account id is a 400. The log cannot be changed or deleted.',
      query: auditQuerySchema(AUDIT_ACTIONS),
      response: auditPage,
      errors: [400, 401, 403],
      handler: async ({ query, deps }) => {
        const filter = { actorId: query.actor ?? null, action: query.action ?? null };
        return {
          total: await countAudit(deps.db, filter),
          entries: await listAudit(deps.db, filter, { offset: query.o, limit: PAGE_SIZE }),
          actors: await listAuditActors(deps.db),
          actions: [...AUDIT_ACTIONS],
        };
      },
    }),
  ],
  'Administrator tools: the audit log of moderator and administrator actions.',
);
