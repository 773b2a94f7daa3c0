/**
 * Auto-import: every AUTO_IMPORT_INTERVAL_HOURS, each alive key kept for auto-import is imported again.
 * Kept keys are sealed with the operator's public key and the web server cannot open them, so rounds
 * run in the process that holds the private key (scripts/auto-import.ts; for the demo, npm start with
 * the generated demo pair). A round opens each due key in memory, seals it for the worker
 * (work-key.ts) into a new import queued below submitted ones, and forgets it. Lines and errors name
 * keys by id only.
 */
import { createPrivateKey, randomBytes, type KeyObject } from 'node:crypto';
import type { Store } from '../data/store.ts';
import type { Config } from '../config.ts';
import { AUTO_IMPORT_INTERVAL_HOURS } from '@shared/constants.ts';
import { getAutoImportCandidate, listAutoImportCandidates, type AutoImportCandidate, type RoundCounts } from '../data/auto-import.ts';
import { appendImportLog, createImport } from '../data/imports.ts';
import { inTransaction, nowIso } from '../data/util.ts';
import { AUTO_IMPORT_PRIORITY } from './submit.ts';
import { decryptSessionKey, KeyDecryptionError } from './key-crypto.ts';
import { paysiteLabel } from '@shared/paysites/index.ts';
import { sealForWorker } from './work-key.ts';

export const AUTO_IMPORT_LINES = {
  queued: 'Queued by auto-import.',
} as const;

export interface RoundOptions {
  now?: Date;
  /** One progress line per key (never the key). */
  log?: (line: string) => void;
}

const INTERVAL_MS = AUTO_IMPORT_INTERVAL_HOURS * 3600_000;

/** Why a key is not due, or undefined when it is. */
function notDue(key: AutoImportCandidate, dueBefore: string): string | undefined {
  if (key.pending) return 'an import of it is queued or running';
  if (key.account_id === null) return 'its account was deleted';
  if (key.last_import_at && key.last_import_at > dueBefore) return `imported less than ${AUTO_IMPORT_INTERVAL_HOURS} h ago`;
  return undefined;
}

function privateKeyOf(pem: string | Buffer | KeyObject): KeyObject {
  return typeof pem === 'object' && 'type' in pem && !Buffer.isBuffer(pem) ? pem : createPrivateKey(pem);
}

/**
 * One round over every alive key kept for auto-import. A key is queued when it is due: no import of it
 * queued or running, none queued in the last AUTO_IMPORT_INTERVAL_HOURS (by a round or by its owner
 * submitting it again), and its owner still exists. @returns how many keys were queued, skipped and failed
 */
export async function runAutoImportRound(
  db: Store,
  config: Config,
  privateKeyPem: string | Buffer | KeyObject,
  options: RoundOptions = {},
): Promise<RoundCounts> {
  const now = options.now ?? new Date();
  const at = nowIso(now);
  const dueBefore = nowIso(new Date(now.getTime() - INTERVAL_MS));
  const log = options.log ?? (() => {});
  const privateKey = privateKeyOf(privateKeyPem);
  const counts: RoundCounts = { queued: 0, skipped: 0, failed: 0 };

  for (const candidate of await listAutoImportCandidates(db)) {
    const name = `Key ${candidate.id} (${paysiteLabel(candidate.service)})`;
    const reason = notDue(candidate, dueBefore);
    if (reason) {
      counts.skipped += 1;
      log(`${name}: skipped, ${reason}.`);
      continue;
    }
    let credential: string;
    try {
      credential = decryptSessionKey(candidate.encrypted_key, privateKey);
    } catch (error) {
      // KeyDecryptionError messages say what failed, never what was inside.
      counts.failed += 1;
      log(`${name}: could not be decrypted (${error instanceof KeyDecryptionError ? error.message : 'unexpected error.'})`);
      continue;
    }
    try {
      const importId = await queueKey(db, config, candidate.id, credential, at);
      if (importId) {
        counts.queued += 1;
        log(`${name}: queued import ${importId}.`);
      } else {
        counts.skipped += 1;
        log(`${name}: skipped, it changed while the round ran.`);
      }
    } catch (error) {
      // One key failing to queue (a database error) must not end the round for the others.
      counts.failed += 1;
      log(`${name}: could not be queued (${error instanceof Error ? error.message : 'unexpected error'}).`);
    } finally {
      credential = '';
    }
  }
  return counts;
}

/** Queues one key's import, re-checking inside the transaction that it is still due (another round may run). */
async function queueKey(db: Store, config: Config, keyId: number, credential: string, at: string): Promise<string | undefined> {
  const id = randomBytes(8).toString('hex');
  const workKey = sealForWorker(config, id, credential);
  const dueBefore = nowIso(new Date(Date.parse(`${at}Z`) - INTERVAL_MS));
  return await inTransaction(db, async (db) => {
    const key = await getAutoImportCandidate(db, keyId);
    if (!key || notDue(key, dueBefore)) return undefined;
    await createImport(db, {
      id,
      service: key.service,
      account_id: key.account_id,
      key_id: key.id,
      priority: AUTO_IMPORT_PRIORITY,
      sub_count: 0,
      save_dms: false,
      auto_import: true,
      channel_ids: key.channel_ids,
      created_at: at,
      key_fingerprint: key.fingerprint,
      work_key: workKey,
    });
    await appendImportLog(db, id, AUTO_IMPORT_LINES.queued, at);
    return id;
  });
}
