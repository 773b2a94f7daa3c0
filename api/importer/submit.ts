/**
 * Submitting an import: a validated submission becomes a queued import for the worker
 * (api/importer/worker.ts), which gets the key sealed with the data folder's working key
 * (api/importer/work-key.ts) until the import ends.
 *
 * Secrets: the key is fingerprinted (HMAC, for finding the same key's pending import) and, when the
 * signed-in user asks, sealed by api/importer/key-store.ts; it is never logged, stored in the import row
 * or answered.
 */
import { randomBytes } from 'node:crypto';
import type { Account } from '../data/accounts.ts';
import type { Store } from '../data/store.ts';
import { appendImportLog, createImport, findPendingImportByFingerprint } from '../data/imports.ts';
import { inTransaction } from '../data/util.ts';
import type { Config } from '../config.ts';
import { ForbiddenError } from '../http/errors.ts';
import { credentialText } from './credential.ts';
import { keyFingerprint, saveSubmittedKey } from './key-store.ts';
import { takeImportSubmission } from './submit-limits.ts';
import { sealForWorker } from './work-key.ts';
import type { ImportSubmission } from '@shared/importer.ts';

export const IMPORTER_MESSAGES = {
  notFound: 'Your import could not be found.',
  dmsNeedAccount: 'You must be logged in to import DMs.',
  queued: 'Queued: waiting for the importer worker.',
} as const;

/** Imports submitted by people; auto-import rounds queue below them. */
export const SUBMITTED_PRIORITY = 1;
/** Imports queued by an auto-import round (api/importer/auto-import.ts): after every submitted one. */
export const AUTO_IMPORT_PRIORITY = 0;

/** Who submits: the signed-in account (or null) and the client's address (for the rate limits). */
export interface Submitter {
  account: Account | null;
  address: string;
}

/**
 * Queues the submission and answers its import id. The same key while its import is still queued or
 * running answers that import. Throws ForbiddenError (DMs need an account) or TooManyRequestsError.
 */
export async function submitImport(
  deps: { db: Store; config: Config },
  body: ImportSubmission,
  { account, address }: Submitter,
): Promise<string> {
  const { db, config } = deps;
  if (body.save_dms && !account) throw new ForbiddenError(IMPORTER_MESSAGES.dmsNeedAccount);
  const fingerprint = keyFingerprint(config, body.service, body.session_key);
  const pending = await findPendingImportByFingerprint(db, fingerprint);
  if (pending) return pending;
  await takeImportSubmission(db, address, account?.id ?? null);
  const keepKey = !!account && (body.save_session_key || body.auto_import);
  const newId = randomBytes(8).toString('hex');
  // OnlyFans' auth_id, x-bc and User-Agent travel sealed with the key (credential.ts).
  const credential = credentialText(body);
  const workKey = sealForWorker(config, newId, credential);
  return await inTransaction(db, async (db) => {
    const id = await createImport(db, {
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
    await appendImportLog(db, id, IMPORTER_MESSAGES.queued);
    if (keepKey) {
      await saveSubmittedKey(db, config, {
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
}
