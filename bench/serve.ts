/**
 * Serving benchmark: requests per second for a stored page answered by `npm start`, against a bare
 * node:http server answering the same file, measured with autocannon in the same run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { PageStore } from '../api/server/page-store.ts';
import { archiveDir } from './lib.ts';

const PORT = 4561;
const BARE_PORT = 4562;
const PAGE = '/posts';

export async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch (error) {
      // Not up yet: fetch refuses the connection with a TypeError.
      if (!(error instanceof TypeError)) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer in time`);
}

export interface LoadResult {
  requestsPerSecond: number;
  latencyP99Ms: number;
  errors: number;
  non2xx: number;
  /** With `server`: its CPU time (user + system, all threads) per answered request, in ms. */
  cpuMsPerRequest?: number;
}

/** The CPU time a process has used so far, in ms (Linux: /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * A warm-up, then 10 s of load. Given the `server` process answering, also its CPU time per request,
 * steadier than requests per second on a machine shared with other work.
 */
export async function load(
  url: string,
  options: { headers?: Record<string, string>; connections?: number; server?: ChildProcess } = {},
): Promise<LoadResult> {
  const { headers, connections = 50, server } = options;
  await autocannon({ url, headers, connections: 10, duration: 2 }); // warm up
  const before = server ? cpuMs(server.pid!) : 0;
  const result = await autocannon({ url, headers, connections, duration: 10 });
  const figures: LoadResult = {
    requestsPerSecond: result.requests.average,
    latencyP99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
  if (server) figures.cpuMsPerRequest = result.requests.total > 0 ? (cpuMs(server.pid!) - before) / result.requests.total : Number.NaN;
  return figures;
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * `npm start` on dataDir, resolved once it answers `probe` and the start-up's background rendering of
 * the page store is over (measuring while it runs would measure the renderer).
 */
export async function startTrove(dataDir: string, port: number, probe = '/', env: NodeJS.ProcessEnv = {}): Promise<ChildProcess> {
  // Node itself with tsx's loader, not `npx tsx`: a SIGTERM to npx leaves the server running.
  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const storeReady = new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Page store')) resolve();
    });
    server.once('exit', (code) => reject(new Error(`scripts/start.ts exited with ${code}`)));
  });
  storeReady.catch(() => undefined);
  try {
    await waitFor(`http://127.0.0.1:${port}${probe}`, 600_000);
    await storeReady;
  } catch (error) {
    await stop(server);
    throw error;
  }
  return server;
}

/** The baseline: bench/bare-server.mjs answering `file` on port. */
export async function startBare(file: string, port: number, contentType?: string): Promise<ChildProcess> {
  const bare = spawn('node', ['bench/bare-server.mjs', file, String(port), ...(contentType ? [contentType] : [])], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitFor(`http://127.0.0.1:${port}/`, 10_000);
  } catch (error) {
    await stop(bare);
    throw error;
  }
  return bare;
}

export async function serveBenchmark() {
  const dataDir = archiveDir('serve');
  const server = await startTrove(dataDir, PORT, PAGE);
  try {
    const trove = await load(`http://127.0.0.1:${PORT}${PAGE}`);
    const file = new PageStore(path.join(dataDir, 'pages')).fileFor(PAGE);
    const bare = await startBare(file, BARE_PORT);
    try {
      const baseline = await load(`http://127.0.0.1:${BARE_PORT}/`);
      return { page: PAGE, trove, bare: baseline, ratio: trove.requestsPerSecond / baseline.requestsPerSecond };
    } finally {
      await stop(bare);
    }
  } finally {
    await stop(server);
  }
}
