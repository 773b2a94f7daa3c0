/**
 * Runs auto-import rounds where the operator's private key is: a round when an administrator asked for
 * one (POST /api/v1/admin/auto_import) or when AUTO_IMPORT_INTERVAL_HOURS passed since the last one,
 * looking every minute. Claiming a round is one write transaction, so several schedulers on one
 * database never run the same round twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { Store } from '../data/store.ts';
import { dataPaths, type Config } from '../config.ts';
import { AUTO_IMPORT_INTERVAL_HOURS } from '@shared/constants.ts';
import { claimAutoImportRound, finishAutoImportRound, type RoundCounts } from '../data/auto-import.ts';
import { nowIso } from '../data/util.ts';
import { runAutoImportRound } from './auto-import.ts';

export const AUTO_IMPORT_CHECK_MS = 60_000;

export interface SchedulerDeps {
  db: Store;
  config: Config;
  privateKeyPath: string;
  log?: (line: string) => void;
}

export interface SchedulerOptions {
  checkMs?: number;
  /** Whether to start checking at once (default true); tests and --once call tick themselves. */
  autoStart?: boolean;
  now?: () => Date;
}

export interface AutoImportScheduler {
  /** Runs the round that is due now, if any. @returns its id and counts, or undefined */
  tick(): Promise<{ round: number; counts: RoundCounts } | undefined>;
  stop(): void;
}

/** Reads the operator's private key; the message names the file, never its content. */
export function readPrivateKey(file: string): KeyObject {
  let pem: Buffer;
  try {
    pem = fs.readFileSync(file);
  } catch (error) {
    throw new Error(`Cannot read the private key ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}.`);
  }
  try {
    return createPrivateKey(pem);
  } catch (error) {
    throw new Error(`${file} is not a private key.`, { cause: error });
  } finally {
    pem.fill(0);
  }
}

export function startAutoImportScheduler(deps: SchedulerDeps, options: SchedulerOptions = {}): AutoImportScheduler {
  const privateKey = readPrivateKey(deps.privateKeyPath);
  const log = deps.log ?? (() => {});
  const now = options.now ?? (() => new Date());

  const tick = async () => {
    const at = now();
    const round = await claimAutoImportRound(deps.db, nowIso(at), nowIso(new Date(at.getTime() - AUTO_IMPORT_INTERVAL_HOURS * 3600_000)));
    if (round === undefined) return undefined;
    log(`Auto-import round ${round} started.`);
    let counts: RoundCounts = { queued: 0, skipped: 0, failed: 0 };
    try {
      counts = await runAutoImportRound(deps.db, deps.config, privateKey, { now: at, log });
    } catch (error) {
      log(`Auto-import round ${round} stopped: ${(error as Error).message}`);
    }
    await finishAutoImportRound(deps.db, round, counts, nowIso(now()));
    log(`Auto-import round ${round} finished: ${counts.queued} queued, ${counts.skipped} skipped, ${counts.failed} failed.`);
    return { round, counts };
  };

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  if (options.autoStart ?? true) {
    const loop = async () => {
      if (stopped) return;
      try {
        await tick();
      } catch (error) {
        log(`Auto-import check failed: ${(error as Error).message}`);
      }
    };
    timer = setInterval(loop, options.checkMs ?? AUTO_IMPORT_CHECK_MS);
    setImmediate(loop);
  }
  return {
    tick,
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

/**
 * npm start's scheduler for the demo: only without OPERATOR_PUBLIC_KEY, when the generated private key
 * is in DATA_DIR/operator-keys (in production it is not on the server and `npm run auto-import` runs
 * the rounds). An unusable key turns auto-import off with a line instead of stopping the server.
 */
export function startDemoAutoImport(deps: Omit<SchedulerDeps, 'privateKeyPath'>): AutoImportScheduler | undefined {
  const privateKeyPath = path.join(dataPaths(deps.config.dataDir).operatorKeys, 'private.pem');
  if (deps.config.operatorPublicKey || !fs.existsSync(privateKeyPath)) return undefined;
  try {
    return startAutoImportScheduler({ ...deps, privateKeyPath });
  } catch (error) {
    deps.log?.(`Auto-import is off: ${(error as Error).message}`);
    return undefined;
  }
}
