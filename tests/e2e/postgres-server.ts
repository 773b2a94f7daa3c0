/**
 * The browser tests' Trove on PostgreSQL, started by playwright.config.ts: a throwaway cluster
 * (scripts/lib/postgres-cluster.ts) in a temporary folder, then `npm start` (scripts/start.ts) as a child
 * with DATABASE_URL pointing at it, on an emptied DATA_DIR, so each run migrates and seeds a fresh demo
 * archive. PORT, HOST, DATA_DIR and the importer settings come from the environment; the cluster's URL is
 * written to E2E_POSTGRES_URL_FILE for the spec. SIGTERM (Playwright's end) or SIGINT stops the server,
 * then the cluster.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { type ThrowawayCluster, startThrowawayCluster } from '../../scripts/lib/postgres-cluster.ts';

function required(name: string): string {
  const value = process.env[name];
  if (value) return value;
  console.error(`postgres-server.ts needs ${name} (playwright.config.ts sets it).`);
  process.exit(2);
}
const dataDir = required('DATA_DIR');
const urlFile = required('E2E_POSTGRES_URL_FILE');

let cluster: ThrowawayCluster | undefined;
let server: ChildProcess | undefined;
let stopping: Promise<void> | undefined;

/** Resolves true once the child has exited, false after `ms` if it has not. */
function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function stop(code: number): Promise<void> {
  stopping ??= (async () => {
    if (server) {
      // Playwright and Ctrl-C signal the whole process group, the server included; it is only signalled
      // here when it did not get one (this script alone was told to stop), so it never shuts down twice.
      if (!(await exited(server, 3_000))) {
        server.kill('SIGTERM');
        if (!(await exited(server, 15_000))) server.kill('SIGKILL');
      }
    }
    await cluster?.stop();
    fs.rmSync(urlFile, { force: true });
    process.exit(code);
  })();
  return stopping;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(0));

fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });
// A signal during the cluster's start exits at once; the cluster module stops a started cluster on exit.
cluster = await startThrowawayCluster({ fast: true });
fs.writeFileSync(urlFile, `${cluster.url}\n`);
console.log(`PostgreSQL for the e2e server: ${cluster.url} (${cluster.dir})`);

server = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: cluster.url },
});
// The server ending by itself (a failed start) ends the script too, with its exit code.
server.once('exit', (status, signal) => {
  if (!stopping) {
    console.error(`The PostgreSQL e2e server exited (${signal ?? `status ${status}`}).`);
    void stop(status || 1);
  }
});
