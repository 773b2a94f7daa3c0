/**
 * Serving benchmark: requests per second for a stored page answered by `npm start`, against a bare
 * node:http server answering the same file, measured with autocannon in the same run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { PageStore } from '../api/server/page-store.ts';
import { archiveDir } from './lib.ts';

const PORT = 4561;
const BARE_PORT = 4562;
const PAGE = '/posts';

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer in time`);
}

async function load(url: string): Promise<{ requestsPerSecond: number; latencyP99Ms: number; errors: number; non2xx: number }> {
  await autocannon({ url, connections: 10, duration: 2 }); // warm up
  const result = await autocannon({ url, connections: 50, duration: 10 });
  return { requestsPerSecond: result.requests.average, latencyP99Ms: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function serveBenchmark() {
  const dataDir = archiveDir('serve');
  const server = spawn('npx', ['tsx', 'scripts/start.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(PORT), HOST: '127.0.0.1', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Measure only once the start-up's background rendering of the page store is over.
  const storeReady = new Promise<void>((resolve) => {
    server.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Page store')) resolve();
    });
  });
  try {
    await waitFor(`http://127.0.0.1:${PORT}${PAGE}`, 600_000);
    await storeReady;
    const trove = await load(`http://127.0.0.1:${PORT}${PAGE}`);
    const file = new PageStore(path.join(dataDir, 'pages')).fileFor(PAGE);
    const bare = spawn('node', ['bench/bare-server.mjs', file, String(BARE_PORT)], { stdio: ['ignore', 'ignore', 'inherit'] });
    try {
      await waitFor(`http://127.0.0.1:${BARE_PORT}/`, 10_000);
      const baseline = await load(`http://127.0.0.1:${BARE_PORT}/`);
      return { page: PAGE, trove, bare: baseline, ratio: trove.requestsPerSecond / baseline.requestsPerSecond };
    } finally {
      await stop(bare);
    }
  } finally {
    await stop(server);
  }
}
