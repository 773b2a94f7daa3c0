/**
 * The import worker: claims the next import (api/data/imports.ts claimNextImport: priority, then age;
 * queued, due to resume, or its lease expired), renews its lease with a heartbeat while the paysite's
 * importer runs, and ends it: Finished, Failed (key rejected), or back in the queue with resuming_at
 * (transient error, exponential backoff). One import at a time per worker; several workers (processes)
 * may share a database, the lease keeps them apart. The session key is opened from the import row only
 * in memory and wiped from the row when the import ends; it never reaches a log line. An import that
 * gave up after its retries keeps its sealed key for IMPORT_RETRY_KEEP_HOURS (an administrator may
 * retry it); a sweep at most once a minute wipes it after that. An administrator's cancel frees the
 * lease, so the next step or heartbeat stops the import with nothing more written. Below
 * MIN_FREE_DISK_MB of free space the worker claims nothing, and a running import pauses (lease given
 * back, resuming a minute later without a retry counted) until space returns.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Store } from '../data/store.ts';
import type { Config } from '../config.ts';
import {
  appendImportLog,
  claimNextImport,
  endImport,
  getImport,
  getImportCursor,
  getImportWorkKey,
  giveUpImport,
  holdsImportLease,
  releaseImportLease,
  renewImportLease,
  setImportCursor,
  updateImport,
  wipeExpiredRetryKeys,
  type Import,
} from '../data/imports.ts';
import { markKeyDead } from '../data/auto-import-keys.ts';
import { hasEnoughDisk } from '../server/disk.ts';
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
  /** Free bytes on the data folder's disk (tests); default freeDiskBytes of api/server/disk.ts. */
  freeDiskBytes?: (dir: string) => number;
  /** How often the sweep of expired retry keys runs at most; default a minute. */
  sweepEveryMs?: number;
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
  diskLow: (mb: number) => `Free disk space is below ${mb} MB; the import pauses until space returns.`,
} as const;

/** How long an import paused for disk space waits before the worker looks again. */
const DISK_PAUSE_MS = 60_000;

/** Thrown inside a step when free space is below the floor: the step writes nothing. */
class DiskLowError extends Error {
  override name = 'DiskLowError';
}

const later = (ms: number) => nowIso(new Date(Date.now() + ms));

/** Never lets the session key (nor OnlyFans' extra fields) through in a message that came from elsewhere. */
function redact(message: string, key: string): string {
  return key ? redactCredential(message, key) : message;
}

export function startImportWorker(
  deps: { db: Store; config: Config; log?: (line: string) => void },
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
  const sweepEveryMs = options.sweepEveryMs ?? 60_000;
  let lastSweep = Number.NEGATIVE_INFINITY;
  let claimRefusedForDisk = false;
  let diskUnreadableLogged = false;

  // An unreadable disk does not stop imports (the writes themselves would fail and be retried).
  const enoughDisk = (): boolean => {
    try {
      return hasEnoughDisk(config.dataDir, config.minFreeDiskMb, options.freeDiskBytes);
    } catch (error) {
      if (!diskUnreadableLogged) deps.log?.(`Import worker: free disk space unreadable (${(error as Error).message}).`);
      diskUnreadableLogged = true;
      return true;
    }
  };
  const stopController = new AbortController();
  let running: Promise<boolean> | undefined;

  const runImport = async (job: Import): Promise<void> => {
    const id = job.id;
    await appendImportLog(
      db,
      id,
      job.retry_count === 0 && (await getImportCursor(db, id)) === undefined ? WORKER_LINES.started : WORKER_LINES.resumed(job.retry_count),
    );
    let key = '';
    const sealed = await getImportWorkKey(db, id);
    try {
      if (sealed) key = openForWorker(config, id, sealed);
    } catch (error) {
      if (!(error instanceof SealedKeyError)) throw error;
    }
    if (!key) {
      await appendImportLog(db, id, WORKER_LINES.keyMissing);
      await endImport(db, id, owner, { finished_at: nowIso() });
      return;
    }

    const controller = new AbortController();
    const onStop = () => controller.abort();
    stopController.signal.addEventListener('abort', onStop);
    // Disk space is read before every step (no step commits below the floor) and on every heartbeat (a long
    // download between two steps stops too); either way the import pauses from its last committed cursor.
    let diskLow = false;
    const pauseForDisk = () => {
      diskLow = true;
      controller.abort();
    };
    const heartbeat = setInterval(async () => {
      if (!(await renewImportLease(db, id, owner, later(leaseMs)))) controller.abort();
      else if (!enoughDisk()) pauseForDisk();
      // A long import must not hold back the wipe of other imports' kept keys.
      await sweep();
    }, heartbeatMs);
    heartbeat.unref();

    // Inside a step, ctx.db is the step's transaction: the importers write through ctx.db, and on
    // PostgreSQL a write through the pool would land outside the step (on SQLite both are the one handle)
    // or wait for a row the step has locked.
    const outer = db;
    let current: Store = db;
    const ctx: ImportContext = {
      get db() {
        return current;
      },
      config,
      importId: id,
      service: job.service,
      accountId: job.account_id,
      key,
      channelIds: (job.channel_ids ?? '').split(',').filter(Boolean),
      saveDms: job.save_dms,
      cursor: async <T>() => (await getImportCursor(db, id)) as T | undefined,
      step: <T>(fn: () => T, commit: { cursor?: unknown; log?: string[] }) =>
        inTransaction(db, async (db): Promise<Awaited<T>> => {
          if (!(await holdsImportLease(db, id, owner))) {
            controller.abort();
            throw new LeaseLostError('lease lost');
          }
          if (!enoughDisk()) {
            pauseForDisk();
            throw new DiskLowError('free disk space below the floor');
          }
          current = db;
          let result: Awaited<T>;
          try {
            result = await fn();
          } finally {
            current = outer;
          }
          if (commit.cursor !== undefined) await setImportCursor(db, id, commit.cursor);
          for (const line of commit.log ?? []) await appendImportLog(db, id, redact(line, key));
          return result;
        }),
      // Through ctx.db: inside a step, the line is part of the step (and waits for no lock the step holds).
      log: async (line) => {
        if (await holdsImportLease(current, id, owner)) await appendImportLog(current, id, redact(line, key));
      },
      setSubCount: async (count) => {
        if (await holdsImportLease(current, id, owner)) await updateImport(current, id, { sub_count: count });
      },
      signal: controller.signal,
    };

    // Stopped (SIGTERM, lost or cancelled lease, low disk): the cursor holds the position; another start
    // resumes from it. A lost or cancelled lease writes nothing (the release matches no row).
    const stopped = async () => {
      if (diskLow && (await releaseImportLease(db, id, owner, { resuming_at: later(DISK_PAUSE_MS) })))
        await appendImportLog(db, id, WORKER_LINES.diskLow(config.minFreeDiskMb));
      else if (stopController.signal.aborted && (await releaseImportLease(db, id, owner)))
        await appendImportLog(db, id, WORKER_LINES.stopped);
      else if (!(await holdsImportLease(db, id, owner))) deps.log?.(await leaseEnded(id));
    };
    try {
      await importers(job.service).run(ctx);
      if (controller.signal.aborted) return await stopped();
      if (await endImport(db, id, owner, { finished_at: nowIso() })) await appendImportLog(db, id, WORKER_LINES.finished);
    } catch (error) {
      // A request cut short by the stop is not the paysite's failure: no retry is counted.
      if (controller.signal.aborted && !(error instanceof KeyRejectedError)) return await stopped();
      await handleFailure(job, error, key);
    } finally {
      clearInterval(heartbeat);
      stopController.signal.removeEventListener('abort', onStop);
    }
  };

  const handleFailure = async (job: Import, error: unknown, key: string) => {
    const id = job.id;
    if (error instanceof LeaseLostError) {
      deps.log?.(await leaseEnded(id));
      return;
    }
    if (error instanceof KeyRejectedError) {
      const now = nowIso();
      if (await endImport(db, id, owner, { finished_at: now, key_failed_at: now, is_key_invalid: true })) {
        await appendImportLog(db, id, WORKER_LINES.keyRejected(job.service));
        if (job.key_id != null) await markKeyDead(db, job.key_id);
      }
      return;
    }
    const retries = job.retry_count + 1;
    if (!(error instanceof TransientError)) deps.log?.(`Import ${id}: unexpected ${redact(String((error as Error)?.stack ?? error), key)}`);
    if (retries > maxRetries) {
      // The sealed key and cursor stay for IMPORT_RETRY_KEEP_HOURS, for an administrator's retry.
      if (await giveUpImport(db, id, owner, retries - 1)) await appendImportLog(db, id, WORKER_LINES.gaveUp(retries - 1));
      return;
    }
    const wait = Math.min(
      maxBackoffMs,
      Math.max(backoffMs * 2 ** (retries - 1), error instanceof TransientError ? (error.retryAfterMs ?? 0) : 0),
    );
    const at = later(wait);
    if (await releaseImportLease(db, id, owner, { retry_count: retries, resuming_at: at })) {
      await appendImportLog(
        db,
        id,
        error instanceof TransientError
          ? WORKER_LINES.transient(job.service, redact(error.message, key), at.replace('T', ' '))
          : WORKER_LINES.unexpected,
      );
    }
  };

  // For the server log only; the import's own log gets nothing from a worker that no longer holds it.
  const leaseEnded = async (id: string) =>
    (await getImport(db, id))?.cancelled_at
      ? `Import ${id}: cancelled by an administrator; stopped.`
      : `Import ${id}: lease lost to another worker; stopped.`;

  // Wipes the kept keys of imports that gave up longer than IMPORT_RETRY_KEEP_HOURS ago; cheap, at most
  // once per sweepEveryMs, and a failure only waits for the next sweep.
  const sweep = async () => {
    if (Date.now() - lastSweep < sweepEveryMs) return;
    lastSweep = Date.now();
    try {
      const wiped = await wipeExpiredRetryKeys(db, nowIso(new Date(lastSweep - config.importRetryKeepHours * 3600_000)));
      if (wiped > 0) deps.log?.(`Import worker: wiped the kept session keys of ${wiped} import(s) that gave up.`);
    } catch (error) {
      deps.log?.(`Import worker: the sweep of kept keys failed (${(error as Error).message}); it runs again later.`);
    }
  };

  const runOnce = (): Promise<boolean> => {
    if (running || stopController.signal.aborted) return running ?? Promise.resolve(false);
    running = (async () => {
      await sweep();
      if (!enoughDisk()) {
        if (!claimRefusedForDisk) deps.log?.(`Import worker: free disk space is below ${config.minFreeDiskMb} MB; claiming nothing.`);
        claimRefusedForDisk = true;
        return false;
      }
      claimRefusedForDisk = false;
      const job = await claimNextImport(db, owner, later(leaseMs));
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
