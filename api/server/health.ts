/**
 * Readiness checks for GET /readyz: the database answers a query, the data folder takes a write (a
 * small probe file created, fsynced and removed), and its disk has the free space MIN_FREE_DISK_MB asks
 * for (disk.ts, the rule the import worker pauses on).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { databaseAnswers, type Store } from '../data/store.ts';
import { hasEnoughDisk } from './disk.ts';

export type CheckResult = 'ok' | 'failed';
export interface Readiness {
  ready: boolean;
  checks: { database: CheckResult; data_folder: CheckResult; disk: CheckResult };
}

/** Told why a check failed (the answer names the check only; the reason goes to the log). */
export type FailureReport = (check: keyof Readiness['checks'], reason: string) => void;

async function check(name: keyof Readiness['checks'], run: () => boolean | Promise<boolean>, report?: FailureReport): Promise<CheckResult> {
  try {
    if (await run()) return 'ok';
    report?.(name, 'check returned false');
  } catch (error) {
    // A check that throws (closed database, missing or read-only folder) is a failed check.
    report?.(name, (error as Error).message);
  }
  return 'failed';
}

/** Creates, fsyncs and removes a small probe file in dir. */
export function folderTakesWrites(dir: string): boolean {
  const probe = path.join(dir, `.readyz-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  const fd = fs.openSync(probe, 'wx');
  try {
    fs.writeSync(fd, 'ready\n');
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
    fs.rmSync(probe, { force: true });
  }
  return true;
}

export async function readiness(db: Store, dataDir: string, minFreeDiskMb: number, report?: FailureReport): Promise<Readiness> {
  const checks = {
    database: await check('database', () => databaseAnswers(db), report),
    data_folder: await check('data_folder', () => folderTakesWrites(dataDir), report),
    disk: await check('disk', () => hasEnoughDisk(dataDir, minFreeDiskMb), report),
  };
  return { ready: Object.values(checks).every((result) => result === 'ok'), checks };
}
