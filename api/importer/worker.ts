/**
 * The import worker: claims the next import (api/data/imports.ts claimNextImport: priority, then age;
 * queued, due to resume, or its lease expired), renews its lease with a heartbeat while the paysite's
 * importer runs, and ends it: Finished, Failed (key rejected), or back in the queue with resuming_at
 * (transient error, exponential backoff). One import at a time per worker; several workers (processes)
 * may share a database, the lease keeps them apart. The session key is opened from the import row only
 * in memory and wiped from the row when the import ends; it never reaches a log line.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Db } from '../data/db.ts';
import type { Config } from '../config.ts';
import {
  appendImportLog,
  claimNextImport,
  endImport,
  getImportCursor,
  getImportWorkKey,
  holdsImportLease,
  releaseImportLease,
  renewImportLease,
  setImportCursor,
  updateImport,
  type Import,
} from '../data/imports.ts';
import { markKeyDead } from '../data/auto-import-keys.ts';
import { inTransaction, nowIso } from '../data/util.ts';
import { redactCredential } from './credential.ts';
import { openForWorker, SealedKeyError } from './work-key.ts';
import { paysiteLabel } from '@shared/paysites/index.ts';
import type { ImportContext, PaysiteImporter } from './context.ts';
import { KeyRejectedError, LeaseLostError, TransientError } from './errors.ts';
import { importerFor } from './paysites/index.ts';

export interface WorkerOptions {
  /** How long a claim lasts without a heartbeat; a crashed worker's import waits this long. */
  leaseMs?: number;
  heartbeatMs?: number;
  /** How often an idle worker looks for work. */
  pollMs?: number;
  /** Backoff of the first retry; doubled each retry up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Retries after which an import ends (Finished, with a line saying it gave up). */
  maxRetries?: number;
  owner?: string;
  /** Whether to start polling at once (default true); tests drive runOnce themselves. */
  autoStart?: boolean;
  /** Which importer runs a service (tests); default importerFor. */
  importers?: (service: string) => PaysiteImporter;
}

export interface ImportWorker {
  readonly owner: string;
  /** Claims and runs one import now, if one is due. @returns whether it ran one */
  runOnce(): Promise<boolean>;
  /** Stops looking for work, aborts the running import between steps and gives its lease back. */
  stop(): Promise<void>;
}

export const WORKER_LINES = {
  started: 'Started.',
  resumed: (retry: number) => (retry > 0 ? `Resumed (retry ${retry}).` : 'Resumed after an interruption.'),
  finished: 'Finished.',
  keyMissing: 'The session key is no longer available; the import was stopped.',
  keyRejected: (service: string) => `${paysiteLabel(service)} rejected the session key; the import failed.`,
  transient: (service: string, message: string, at: string) => `${paysiteLabel(service)} error: ${message}; retrying at ${at} UTC.`,
  gaveUp: (retries: number) => `Gave up after ${retries} retries.`,
  unexpected: 'Unexpected importer error; retrying later.',
  stopped: 'The worker stopped; the import will resume.',
} as const;

const later = (ms: number) => nowIso(new Date(Date.now() + ms));

/** Never lets the session key (nor OnlyFans' extra fields) through in a message that came from elsewhere. */
function redact(message: string, key: string): string {
  return key ? redactCredential(message, key) : message;
}

export function startImportWorker(
  deps: { db: Db; config: Config; log?: (line: string) => void },
  options: WorkerOptions = {},
): ImportWorker {
  const leaseMs = options.leaseMs ?? 60_000;
  const heartbeatMs = options.heartbeatMs ?? Math.max(100, Math.floor(leaseMs / 3));
  const pollMs = options.pollMs ?? 2_000;
  const backoffMs = options.backoffMs ?? 60_000;
  const maxBackoffMs = options.maxBackoffMs ?? 6 * 3600_000;
  const maxRetries = options.maxRetries ?? 8;
  const owner = options.owner ?? `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const importers = options.importers ?? ((service: string) => importerFor(service));
  const { db, config } = deps;
  const stopController = new AbortController();
  let running: Promise<boolean> | undefined;

  const runImport = async (job: Import): Promise<void> => {
    const id = job.id;
    appendImportLog(
      db,
      id,
      job.retry_count === 0 && getImportCursor(db, id) === undefined ? WORKER_LINES.started : WORKER_LINES.resumed(job.retry_count),
    );
    let key = '';
    const sealed = getImportWorkKey(db, id);
    try {
      if (sealed) key = openForWorker(config, id, sealed);
    } catch (error) {
      if (!(error instanceof SealedKeyError)) throw error;
    }
    if (!key) {
      appendImportLog(db, id, WORKER_LINES.keyMissing);
      endImport(db, id, owner, { finished_at: nowIso() });
      return;
    }

    const controller = new AbortController();
    const onStop = () => controller.abort();
    stopController.signal.addEventListener('abort', onStop);
    const heartbeat = setInterval(() => {
      if (!renewImportLease(db, id, owner, later(leaseMs))) controller.abort();
    }, heartbeatMs);
    heartbeat.unref();

    const ctx: ImportContext = {
      db,
      config,
      importId: id,
      service: job.service,
      accountId: job.account_id,
      key,
      channelIds: (job.channel_ids ?? '').split(',').filter(Boolean),
      saveDms: job.save_dms,
      cursor: <T>() => getImportCursor(db, id) as T | undefined,
      step: (fn, commit) =>
        inTransaction(db, () => {
          if (!holdsImportLease(db, id, owner)) throw new LeaseLostError('lease lost');
          const result = fn();
          if (commit.cursor !== undefined) setImportCursor(db, id, commit.cursor);
          for (const line of commit.log ?? []) appendImportLog(db, id, redact(line, key));
          return result;
        }),
      log: (line) => {
        if (holdsImportLease(db, id, owner)) appendImportLog(db, id, redact(line, key));
      },
      setSubCount: (count) => {
        if (holdsImportLease(db, id, owner)) updateImport(db, id, { sub_count: count });
      },
      signal: controller.signal,
    };

    // Stopped (SIGTERM or lost lease): the cursor holds the position; another start resumes from it.
    const stopped = () => {
      if (stopController.signal.aborted && releaseImportLease(db, id, owner)) appendImportLog(db, id, WORKER_LINES.stopped);
    };
    try {
      await importers(job.service).run(ctx);
      if (controller.signal.aborted) return stopped();
      if (endImport(db, id, owner, { finished_at: nowIso() })) appendImportLog(db, id, WORKER_LINES.finished);
    } catch (error) {
      // A request cut short by the stop is not the paysite's failure: no retry is counted.
      if (controller.signal.aborted && !(error instanceof KeyRejectedError)) return stopped();
      handleFailure(job, error, key);
    } finally {
      clearInterval(heartbeat);
      stopController.signal.removeEventListener('abort', onStop);
    }
  };

  const handleFailure = (job: Import, error: unknown, key: string) => {
    const id = job.id;
    if (error instanceof LeaseLostError) {
      deps.log?.(`Import ${id}: lease lost to another worker; stopped.`);
      return;
    }
    if (error instanceof KeyRejectedError) {
      const now = nowIso();
      if (endImport(db, id, owner, { finished_at: now, key_failed_at: now, is_key_invalid: true })) {
        appendImportLog(db, id, WORKER_LINES.keyRejected(job.service));
        if (job.key_id != null) markKeyDead(db, job.key_id);
      }
      return;
    }
    const retries = job.retry_count + 1;
    if (!(error instanceof TransientError)) deps.log?.(`Import ${id}: unexpected ${redact(String((error as Error)?.stack ?? error), key)}`);
    if (retries > maxRetries) {
      if (endImport(db, id, owner, { finished_at: nowIso(), retry_count: retries - 1 }))
        appendImportLog(db, id, WORKER_LINES.gaveUp(retries - 1));
      return;
    }
    const wait = Math.min(
      maxBackoffMs,
      Math.max(backoffMs * 2 ** (retries - 1), error instanceof TransientError ? (error.retryAfterMs ?? 0) : 0),
    );
    const at = later(wait);
    if (releaseImportLease(db, id, owner, { retry_count: retries, resuming_at: at })) {
      appendImportLog(
        db,
        id,
        error instanceof TransientError
          ? WORKER_LINES.transient(job.service, redact(error.message, key), at.replace('T', ' '))
          : WORKER_LINES.unexpected,
      );
    }
  };

  const runOnce = (): Promise<boolean> => {
    if (running || stopController.signal.aborted) return running ?? Promise.resolve(false);
    running = (async () => {
      const job = claimNextImport(db, owner, later(leaseMs));
      if (!job) return false;
      deps.log?.(`Import ${job.id} (${job.service}) claimed.`);
      await runImport(job);
      return true;
    })().finally(() => (running = undefined));
    return running;
  };

  let timer: NodeJS.Timeout | undefined;
  const loop = async () => {
    timer = undefined;
    let ran = false;
    try {
      ran = await runOnce();
    } catch (error) {
      deps.log?.(`Import worker error: ${(error as Error).message}`);
    }
    // Straight on to the next import while there is work; otherwise wait for new submissions.
    if (!stopController.signal.aborted) timer = setTimeout(loop, ran ? 0 : pollMs);
  };
  if (options.autoStart ?? true) timer = setTimeout(loop, 0);

  return {
    owner,
    runOnce,
    async stop() {
      stopController.abort();
      if (timer) clearTimeout(timer);
      await running?.catch(() => false);
    },
  };
}
