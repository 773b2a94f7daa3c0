/**
 * The importer (SPEC.md sections 2, 3 and 5; API-NOTES.md): submitting a session key and following
 * the import. A submitted import is queued for the worker (api/importer/worker.ts), which gets the key
 * sealed with the data folder's working key (api/importer/work-key.ts) until the import ends.
 *
 * Secrets: the key is validated, fingerprinted (HMAC, for finding the same key's pending import) and,
 * when the signed-in user asks, sealed by api/importer/key-store.ts; it is never logged, stored in the
 * import row or answered. Validation messages never quote the key.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { clientAddress } from '../auth/rate-limits.ts';
import { appendImportLog, createImport, findPendingImportByFingerprint, getImport, getImportLogs, publicImport } from '../data/imports.ts';
import { inTransaction } from '../data/util.ts';
import { ForbiddenError, NotFoundError } from '../http/errors.ts';
import { defineRoutes, route } from '../http/route.ts';
import { credentialText } from '../importer/credential.ts';
import { keyFingerprint, saveSubmittedKey } from '../importer/key-store.ts';
import { takeImportSubmission } from '../importer/submit-limits.ts';
import { sealForWorker } from '../importer/work-key.ts';
import { importSubmissionSchema } from '@shared/importer.ts';
import { importIdParam } from '@shared/validation/params.ts';

export const IMPORTER_MESSAGES = {
  notFound: 'Your import could not be found.',
  dmsNeedAccount: 'You must be logged in to import DMs.',
  queued: 'Queued: waiting for the importer worker.',
} as const;

/** Imports submitted by people; auto-import rounds queue below them. */
export const SUBMITTED_PRIORITY = 1;
/** Imports queued by an auto-import round (api/importer/auto-import.ts): after every submitted one. */
export const AUTO_IMPORT_PRIORITY = 0;

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
      handler: async ({ body, deps, req, account }) => {
        if (body.save_dms && !account) throw new ForbiddenError(IMPORTER_MESSAGES.dmsNeedAccount);
        const fingerprint = keyFingerprint(deps.config, body.service, body.session_key);
        const pending = findPendingImportByFingerprint(deps.db, fingerprint);
        if (pending) return { import_id: pending };
        await takeImportSubmission(deps.db, clientAddress(req, deps.config.trustProxy), account?.id ?? null);
        const keepKey = !!account && (body.save_session_key || body.auto_import);
        const newId = randomBytes(8).toString('hex');
        // OnlyFans' auth_id, x-bc and User-Agent travel sealed with the key (credential.ts).
        const credential = credentialText(body);
        const workKey = sealForWorker(deps.config, newId, credential);
        const importId = inTransaction(deps.db, () => {
          const id = createImport(deps.db, {
            id: newId,
            work_key: workKey,
            service: body.service,
            account_id: account?.id ?? null,
            priority: SUBMITTED_PRIORITY,
            sub_count: 0,
            save_dms: body.save_dms,
            save_session_key: keepKey && body.save_session_key,
            auto_import: keepKey && body.auto_import,
            channel_ids: body.channel_ids ?? null,
            key_fingerprint: fingerprint,
          });
          appendImportLog(deps.db, id, IMPORTER_MESSAGES.queued);
          if (keepKey) {
            saveSubmittedKey(deps.db, deps.config, {
              accountId: account!.id,
              service: body.service,
              key: body.session_key,
              credential,
              autoImport: body.auto_import,
              importId: id,
            });
          }
          return id;
        });
        return { import_id: importId };
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/imports/{id}',
      summary: "An import's progress fields and log lines (never its key).",
      params: idParams,
      response: importShape,
      errors: [404],
      handler: ({ params, deps }) => {
        const found = getImport(deps.db, params.id);
        if (!found) throw new NotFoundError(IMPORTER_MESSAGES.notFound);
        return { ...publicImport(found), logs: getImportLogs(deps.db, found.id) };
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
      handler: ({ params, deps }) => {
        if (!getImport(deps.db, params.id)) throw new NotFoundError(IMPORTER_MESSAGES.notFound);
        return getImportLogs(deps.db, params.id);
      },
    }),
  ],
  'The importer: submitting session keys and following imports.',
);
