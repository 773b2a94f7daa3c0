/**
 * Paysite importers and what the worker gives them. An importer works in steps: each step's writes,
 * its resume position (cursor) and its log lines commit together in one transaction (ctx.step), so after
 * a crash the import resumes at the last committed step with nothing written twice. Writes are upserts
 * keyed by the paysite's ids, so a step repeated after a crash mid-step changes nothing.
 *
 * Patreon, Fanbox and Discord have real importers (./patreon.ts, ./fanbox.ts, ./discord.ts); the other
 * nine paysites end the import saying their importer is not available yet.
 */
import type { Db } from '@api/data/db.ts';
import type { Config } from '@api/config.ts';
import { paysiteLabel } from '@shared/paysites.ts';
import { discordImporter } from './discord.ts';
import { fanboxImporter } from './fanbox.ts';
import { patreonImporter } from './patreon.ts';
import { slowTestImporter } from './test-slow.ts';

export interface ImportContext {
  db: Db;
  /** DATA_DIR (the file store) and the paysite endpoints (config.importer). */
  config: Config;
  importId: string;
  service: string;
  /** The importing account (its DMs wait for its review), or null for a guest's import. */
  accountId: number | null;
  /** The session key, in memory only; never log it or put it in an error message. */
  key: string;
  channelIds: string[];
  saveDms: boolean;
  /** The resume position committed by the last step, or undefined on a fresh start. */
  cursor<T>(): T | undefined;
  /**
   * Runs fn in a transaction with the new cursor and log lines; rolls back (and throws LeaseLostError)
   * when this worker no longer holds the import.
   */
  step<T>(fn: () => T, commit: { cursor?: unknown; log?: string[] }): T;
  /** Appends a log line outside any step (progress that need not survive a crash exactly once). */
  log(line: string): void;
  /** Sets the number of subscriptions found. */
  setSubCount(count: number): void;
  /** Aborted when the worker stops (SIGTERM) or loses the lease; check it between steps. */
  signal: AbortSignal;
}

export interface PaysiteImporter {
  run(ctx: ImportContext): Promise<void>;
}

export { KeyRejectedError, LeaseLostError, TransientError } from '../errors.ts';

export function notAvailableLine(service: string): string {
  return `${paysiteLabel(service)} importer is not available yet; nothing was imported.`;
}

export const notAvailable: PaysiteImporter = {
  async run(ctx) {
    ctx.step(() => undefined, { log: [notAvailableLine(ctx.service)] });
  },
};

const IMPORTERS: Record<string, PaysiteImporter | undefined> = {
  patreon: patreonImporter,
  fanbox: fanboxImporter,
  discord: discordImporter,
};

/**
 * The importer of a service. TROVE_TEST_IMPORTER=slow (honoured only when TROVE_ENV=test) replaces every
 * paysite's with a test importer that writes posts one step at a time, for the crash test.
 */
export function importerFor(service: string, env: NodeJS.ProcessEnv = process.env): PaysiteImporter {
  if (env.TROVE_ENV === 'test' && env.TROVE_TEST_IMPORTER === 'slow') return slowTestImporter(env);
  return IMPORTERS[service] ?? notAvailable;
}
