/** Shared bits of the benchmarks: where their archives live, and running a step in a child process. */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { unlessAbsent } from '../api/server/fs-errors.ts';
import { startThrowawayCluster, type ThrowawayCluster } from '../scripts/lib/postgres-cluster.ts';

export const BENCH_DIR = path.resolve('bench/.data');
export const RESULTS_DIR = path.resolve('bench/results');

export function archiveDir(name: string): string {
  return path.join(BENCH_DIR, name);
}

/** Runs a bench step in its own process (each archive needs its own DATA_DIR) and returns its JSON answer. */
export function runStep<T>(script: string, args: string[], env: Record<string, string>): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${script} exited with ${code}`));
      const line = out
        .trim()
        .split('\n')
        .filter((candidate) => candidate.startsWith('{'))
        .at(-1);
      if (!line) return reject(new Error(`${script} printed no result`));
      resolve(JSON.parse(line) as T);
    });
  });
}

/** The benchmarks' PostgreSQL cluster: a throwaway one kept in bench/.data, so copied archives survive between runs. */
export const POSTGRES_DIR = path.join(BENCH_DIR, 'postgres');

/** The machine's load averages (1, 5, 15 minutes) and cores, written beside figures measured on a shared machine. */
export function machineLoad(): { load: number[]; cores: number } {
  return { load: os.loadavg().map((value) => Math.round(value * 100) / 100), cores: os.cpus().length };
}

/** Runs fn on one connection to url, closed afterwards. */
async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const holdsPosts = (url: string) =>
  withClient(url, async (client) => {
    const table = await client.query<{ found: boolean }>(`SELECT to_regclass('posts') IS NOT NULL AS found`);
    if (!table.rows[0].found) return false;
    const rows = await client.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM posts) AS found');
    return rows.rows[0].found;
  });

/**
 * What autovacuum would have done on a server soon after the copy, done at once: statistics for the
 * planner, GIN pending lists merged, the visibility map set (index-only scans).
 */
const vacuumAnalyze = (url: string) => withClient(url, (client) => client.query('VACUUM (ANALYZE)'));

function runCommand(command: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

/**
 * The SQLite archive bench/.data/<name> as a database of the same name in the benchmarks' PostgreSQL
 * cluster: copied with `npm run db:copy` (fsync off while copying) when that database holds no posts
 * yet, then VACUUM (ANALYZE). Answers the cluster restarted with PostgreSQL's default durability, for
 * the measurements; the caller stops it. `copySeconds` (copy and vacuum) only when it copied.
 */
export async function postgresCopyOf(name: string): Promise<{ cluster: ThrowawayCluster; copySeconds?: number }> {
  const source = path.join(archiveDir(name), 'trove.sqlite');
  if (!fs.existsSync(source)) throw new Error(`No archive at ${source}: run its SQLite benchmark first.`);
  let cluster = await startThrowawayCluster({ dir: POSTGRES_DIR, database: name, fast: true });
  let copySeconds: number | undefined;
  try {
    if (!(await holdsPosts(cluster.url))) {
      console.error(`Copying ${source} into PostgreSQL (${POSTGRES_DIR})...`);
      const started = performance.now();
      await runCommand('npx', ['tsx', 'scripts/db-copy.ts', '--to', cluster.url], { DATA_DIR: archiveDir(name) });
      await vacuumAnalyze(cluster.url);
      copySeconds = Math.round((performance.now() - started) / 100) / 10;
      console.error(`Copied and vacuumed in ${copySeconds} s.`);
    }
  } finally {
    await cluster.stop();
  }
  cluster = await startThrowawayCluster({ dir: POSTGRES_DIR, database: name });
  return { cluster, copySeconds };
}

export function saveResult(name: string, result: unknown): void {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
}

/**
 * A fake paysite in a child process, so serving it does not share an event loop with the importer being
 * measured: `script` prints one line once it listens (answered as `first`) and, on SIGTERM, one JSON line
 * with what it served (answered by `stop()`). Node itself with tsx's loader, not npx: SIGTERM then reaches
 * the fake, not a wrapper that leaves it running.
 */
export async function spawnFake<T>(script: string, args: string[]): Promise<{ first: string; stop(): Promise<T> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  process.on('exit', () => child.kill());
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) throw new Error(`${script} ${args.join(' ')} did not start`);
  return {
    first: String(first.value),
    async stop() {
      child.kill('SIGTERM');
      for (let line = await lines.next(); !line.done; line = await lines.next()) {
        if (line.value.startsWith('{')) return JSON.parse(line.value) as T;
      }
      throw new Error(`${script} printed no request counts`);
    },
  };
}

/**
 * CPU time (user + system, ms) of a process and all its descendants, from /proc (ticks of 10 ms): the
 * live ones, and those that ended and were waited for (PostgreSQL's backends end with their connections).
 */
export function treeCpuMs(pid: number): number {
  // A process that ended meanwhile has no /proc folder: it counts in its parent's waited-for time.
  const stat = unlessAbsent(() => fs.readFileSync(`/proc/${pid}/stat`, 'utf8'), '');
  const children = unlessAbsent(() => fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8'), '');
  if (!stat) return 0;
  const fields = stat.split(') ')[1].split(' ');
  const own = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
  const childPids = children.trim().split(/\s+/).filter(Boolean).map(Number);
  return own + childPids.reduce((sum, child) => sum + treeCpuMs(child), 0);
}
