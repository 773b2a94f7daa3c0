/**
 * An administrator's retry and cancel of an import (docs/product.md#imports-dashboard). Each is one
 * transaction: the import's change, its log line and the audit line land together or not at all.
 * A running worker sees a cancel at its next step or heartbeat and stops writing (api/importer/worker.ts).
 */
import type { Account } from '../data/accounts.ts';
import { recordAudit } from '../data/audit-log.ts';
import type { Store } from '../data/store.ts';
import { getAdminImport, type AdminImport } from '../data/imports-admin.ts';
import { appendImportLog, cancelImportRow, getImport, hasImportWorkKey, requeueGaveUpImport } from '../data/imports.ts';
import { inTransaction } from '../data/util.ts';
import { ConflictError, NotFoundError } from '../http/errors.ts';
import { importState } from '@shared/import-state.ts';

export const IMPORT_ACTION_MESSAGES = {
  notFound: 'Import not found.',
  keyGone: "This import's session key is gone; it cannot be retried.",
  notFailed: 'Only a failed import can be retried.',
  notCancellable: 'Only a queued, waiting or running import can be cancelled.',
  retried: 'Retried by an administrator.',
  cancelled: 'Cancelled by an administrator.',
} as const;

const actor = (by: Account) => ({ id: by.id, username: by.username });

async function requireImport(db: Store, id: string) {
  const found = await getImport(db, id);
  if (!found) throw new NotFoundError(IMPORT_ACTION_MESSAGES.notFound);
  return found;
}

/** Puts a gave-up import whose sealed key is kept back in the queue. 404, or 409 with the reason. */
export async function retryImport(db: Store, id: string, by: Account): Promise<AdminImport> {
  await inTransaction(db, async (db) => {
    const found = await requireImport(db, id);
    if (importState(found) !== 'failed') throw new ConflictError(IMPORT_ACTION_MESSAGES.notFailed);
    if (found.is_key_invalid || !(await hasImportWorkKey(db, id)) || !(await requeueGaveUpImport(db, id)))
      throw new ConflictError(IMPORT_ACTION_MESSAGES.keyGone);
    await appendImportLog(db, id, IMPORT_ACTION_MESSAGES.retried);
    await recordAudit(db, { actor: actor(by), action: 'import_retry', target: `import ${id} (${found.service})` });
  });
  return (await getAdminImport(db, id))!;
}

/** Ends a queued, waiting or running import at once. 404, or 409 once it has ended. */
export async function cancelImport(db: Store, id: string, by: Account): Promise<AdminImport> {
  await inTransaction(db, async (db) => {
    const found = await requireImport(db, id);
    if (!(await cancelImportRow(db, id, by.id))) throw new ConflictError(IMPORT_ACTION_MESSAGES.notCancellable);
    await appendImportLog(db, id, IMPORT_ACTION_MESSAGES.cancelled);
    await recordAudit(db, { actor: actor(by), action: 'import_cancel', target: `import ${id} (${found.service})` });
  });
  return (await getAdminImport(db, id))!;
}
