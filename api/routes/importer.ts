/**
 * The importer (docs/product.md#importer-api): submitting a session key and following
 * the import. The body is validated by shared/importer.ts (its messages never quote the key) and queued
 * by api/importer/submit.ts; the key is never logged, stored in the import row or answered.
 */
import { z } from 'zod';
import { clientAddress } from '../auth/rate-limits.ts';
import { getImport, getImportLogs, publicImport } from '../data/imports.ts';
import { NotFoundError } from '../http/errors.ts';
import { defineRoutes, route } from '../http/route.ts';
import { IMPORTER_MESSAGES, submitImport } from '../importer/submit.ts';
import { importSubmissionSchema } from '@shared/importer.ts';
import { importIdParam } from '@shared/validation/params.ts';

const importShape = z.object({
  id: z.string(),
  service: z.string(),
  priority: z.number().int(),
  sub_count: z.number().int().nullable(),
  save_dms: z.boolean(),
  created_at: z.string(),
  first_started_at: z.string().nullable(),
  retry_count: z.number().int(),
  current_try_started_at: z.string().nullable(),
  resuming_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  key_failed_at: z.string().nullable(),
  is_key_invalid: z.boolean(),
  gave_up_at: z.string().nullable().meta({ description: 'The worker gave up after its retries (the import failed).' }),
  cancelled_at: z.string().nullable().meta({ description: 'An administrator cancelled the import.' }),
  logs: z.array(z.string()).meta({ description: "The import's log lines, oldest first (as /importer/logs/{id})." }),
});

const idParams = z.object({ id: importIdParam });

export default defineRoutes(
  'importer',
  [
    route({
      method: 'post',
      version: 1,
      path: '/importer/submit',
      summary: 'Queue an import of the paysite content a session key gives access to.',
      description:
        'Anonymous imports are allowed; include-DMs (save_dms), saving the key and auto-import need a signed-in account. ' +
        'The same key submitted while its import is queued or running answers that import.',
      body: importSubmissionSchema,
      response: z.object({ import_id: z.string() }),
      errors: [403, 429],
      form: true,
      handler: async ({ body, deps, req, account }) => ({
        import_id: await submitImport(deps, body, { account, address: clientAddress(req, deps.config.trustProxy) }),
      }),
    }),
    route({
      method: 'get',
      version: 1,
      path: '/imports/{id}',
      summary: "An import's progress fields and log lines (never its key).",
      params: idParams,
      response: importShape,
      errors: [404],
      handler: async ({ params, deps }) => {
        const found = await getImport(deps.db, params.id);
        if (!found) throw new NotFoundError(IMPORTER_MESSAGES.notFound);
        return { ...publicImport(found), logs: await getImportLogs(deps.db, found.id) };
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/importer/logs/{id}',
      summary: "An import's log lines, oldest first.",
      params: idParams,
      response: z.array(z.string()),
      errors: [404],
      handler: async ({ params, deps }) => {
        if (!(await getImport(deps.db, params.id))) throw new NotFoundError(IMPORTER_MESSAGES.notFound);
        return await getImportLogs(deps.db, params.id);
      },
    }),
  ],
  'The importer: submitting session keys and following imports.',
);
