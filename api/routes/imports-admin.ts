/**
 * The administrators' imports dashboard (docs/product.md#imports-dashboard): the queue with each
 * import's state, and retry / cancel. Never a key, key fingerprint, sealed work key, cursor or channel
 * ids in an answer. Retry and cancel are in api/moderation/import-actions.ts.
 */
import { z } from 'zod';
import { countAdminImports, listAdminImports } from '../data/imports-admin.ts';
import { defineRoutes, route } from '../http/route.ts';
import { cancelImport, retryImport } from '../moderation/import-actions.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { IMPORT_STATES } from '@shared/import-state.ts';
import { importsFilterSchema } from '@shared/validation/imports-admin.ts';
import { importIdParam } from '@shared/validation/params.ts';

const adminImport = z.object({
  id: z.string(),
  service: z.string(),
  state: z.enum(IMPORT_STATES),
  submitter: z.object({ id: z.number().int(), username: z.string() }).nullable().meta({ description: 'null for a guest.' }),
  created_at: z.string(),
  first_started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  retry_count: z.number().int(),
  resuming_at: z.string().nullable(),
  last_log_line: z.string().nullable(),
  lease_owner: z.string().nullable().meta({ description: 'The worker holding the lease, while running.' }),
  lease_expires_at: z.string().nullable(),
  can_retry: z.boolean(),
  can_cancel: z.boolean(),
});

const idParams = z.object({ id: importIdParam });

export default defineRoutes(
  'imports-admin',
  [
    route({
      method: 'get',
      version: 1,
      path: '/admin/imports',
      access: 'administrator',
      summary: `Imports, newest first, ${PAGE_SIZE} a page (o: offset), filtered by state and service.`,
      query: importsFilterSchema,
      response: z.object({ total: z.number().int(), imports: z.array(adminImport) }),
      errors: [400, 401, 403],
      handler: async ({ query, deps }) => ({
        total: await countAdminImports(deps.db, query),
        imports: await listAdminImports(deps.db, query, { offset: query.o, limit: PAGE_SIZE }),
      }),
    }),
    route({
      method: 'post',
      version: 1,
      path: '/admin/imports/{id}/retry',
      access: 'administrator',
      summary: 'Puts an import that gave up after its retries back in the queue, with its kept session key.',
      description: 'Refused (409) for an import that did not fail, and for one whose key was refused or is no longer kept.',
      params: idParams,
      response: adminImport,
      errors: [401, 403, 404, 409],
      handler: ({ params, deps, account }) => retryImport(deps.db, params.id, account!),
    }),
    route({
      method: 'post',
      version: 1,
      path: '/admin/imports/{id}/cancel',
      access: 'administrator',
      summary: 'Ends a queued, waiting or running import at once; its session key is wiped.',
      description: 'Refused (409) for an import that has already ended.',
      params: idParams,
      response: adminImport,
      errors: [401, 403, 404, 409],
      handler: ({ params, deps, account }) => cancelImport(deps.db, params.id, account!),
    }),
  ],
  'Administrator tools: the imports dashboard.',
);
