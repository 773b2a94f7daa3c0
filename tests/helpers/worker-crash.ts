/**
 * The importers' crash test: a real `scripts/worker.ts` process runs the queued import until the test
 * says enough was saved, is killed with SIGKILL (no chance to clean up), and a second worker process
 * resumes the import until it ends; the test then checks that nothing was lost or duplicated.
 *
 *   const crash = workerCrash(() => ({ DATA_DIR: t.dir, TROVE_ENV: 'test', IMPORTER_X_URL: fake.url, ... }));
 *   try {
 *     await crash.killWhen(() => postCount() >= 5);
 *     ...what the killed worker left...
 *     await crash.resumeUntil(async () => !!(await getImport(t.db, id))!.finished_at);
 *     ...the whole import, once...
 *   } finally {
 *     crash.cleanup();
 *   }
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { databaseEnv } from '../api/data/helpers.ts';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface WorkerCrash {
  /** Starts the first worker and kills it with SIGKILL once `enough()` holds. */
  killWhen(enough: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void>;
  /** Starts a second worker, waits until `done()` holds, then stops it with SIGTERM. */
  resumeUntil(done: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void>;
  /** Kills any worker still running (for `finally`). */
  cleanup(): void;
}

/**
 * `env`: the workers' environment besides this process's (DATA_DIR, TROVE_ENV, the fake's URLs...), read
 * when each worker starts (the fake may be started after this is made).
 */
export function workerCrash(env: () => NodeJS.ProcessEnv): WorkerCrash {
  const children: ChildProcess[] = [];
  const start = () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('scripts/worker.ts')], {
      // A short lease, so the second worker may take the import over soon after the first one died.
      env: withDatabase({ ...process.env, IMPORT_LEASE_SECONDS: '2', ...env() }),
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    children.push(child);
    return child;
  };
  const exited = (child: ChildProcess) =>
    new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? child.once('exit', resolve) : resolve(null)));
  const waitFor = async (condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) => {
    for (let waited = 0; !(await condition()); waited += 20) {
      if (waited > timeoutMs) throw new Error(what);
      await sleep(20);
    }
  };
  return {
    async killWhen(enough, timeoutMs = 60_000) {
      const first = start();
      await waitFor(enough, timeoutMs, 'the worker did not save enough before the kill');
      first.kill('SIGKILL');
      await exited(first);
    },
    async resumeUntil(done, timeoutMs = 60_000) {
      const second = start();
      await waitFor(done, timeoutMs, 'the import did not finish after the restart');
      second.kill('SIGTERM');
      await exited(second);
    },
    cleanup() {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** On a PostgreSQL test run the worker reaches the test's database through DATABASE_URL. */
function withDatabase(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, ...databaseEnv(env.DATA_DIR) };
}
