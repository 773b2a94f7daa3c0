/**
 * Stored pages through nginx (api/cluster/nginx.ts) against the node serving the same stored pages
 * itself: `npm start` (production, demo archive in bench/.data/nginx-pages) with nginx in front, and
 * autocannon against each in alternating rounds, same pages, same connections, in one run. Reports
 * requests/s, p99 latency and the server side's CPU time per request (nginx: master and workers; the
 * node: its process). `npm run bench -- nginx-pages` (BENCH_ROUNDS, default 3).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import crypto from 'node:crypto';
import { startNginx } from '../api/cluster/nginx.ts';
import { registerFile } from '../api/data/files.ts';
import { closeArchiveDatabase, openArchiveDatabase } from '../api/data/open.ts';
import { storeFile } from '../api/media/store.ts';
import { dataPaths, readConfig } from '../api/config.ts';
import { DIST_DIR } from '../scripts/lib/build.ts';
import { archiveDir, machineLoad, treeCpuMs } from './lib.ts';
import { startTrove, stop } from './serve.ts';

const NODE_PORT = 4571;
const NGINX_PORT = 4572;
const CONNECTIONS = 50;
const SECONDS = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** How many stored pages the load cycles through (listings, creators, posts: whatever the store holds first). */
const PAGES = 40;

/** Stored pages the nginx mapping answers (plain segments, no query or a plain `o`), as URL paths. */
function storedPaths(pagesDir: string): string[] {
  const found: string[] = [];
  const visit = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= PAGES) return;
      if (entry.isDirectory()) {
        if (/^[A-Za-z0-9_~-]+$/.test(entry.name)) visit(path.join(dir, entry.name), `${prefix}/${entry.name}`);
        continue;
      }
      const page = /^index(?:\.o(\d+))?\.html$/.exec(entry.name);
      if (page && prefix) found.push(page[1] ? `${prefix}?o=${page[1]}` : prefix);
    }
  };
  visit(pagesDir, '');
  return found;
}

interface Round {
  requestsPerSecond: number;
  latencyP99Ms: number;
  cpuMsPerRequest: number;
  non2xx: number;
  errors: number;
}

async function measure(base: string, paths: string[], encoding: string, cpuOf: () => number): Promise<Round> {
  const requests = paths.map((target) => ({ method: 'GET' as const, path: target }));
  const headers = { 'accept-encoding': encoding };
  await autocannon({ url: base, requests, headers, connections: 10, duration: 2 }); // warm up
  const before = cpuOf();
  const result = await autocannon({ url: base, requests, headers, connections: CONNECTIONS, duration: SECONDS });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyP99Ms: result.latency.p99,
    cpuMsPerRequest: Math.round(((cpuOf() - before) / result.requests.total) * 1000) / 1000,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * Checks that both answer every page, nginx from disk (strong ETag) and the node from its store (weak).
 * Pages of a full render have no .br/.gz yet: the first compressed request for each goes to the node,
 * which writes them, so one request per page and encoding comes first.
 */
async function checkServedFromStore(nodeBase: string, nginxBase: string, paths: string[], encoding: string): Promise<void> {
  const headers = { 'accept-encoding': encoding };
  for (const target of paths) await (await fetch(nginxBase + target, { headers })).arrayBuffer();
  for (const target of paths) {
    const [node, nginx] = await Promise.all([fetch(nodeBase + target, { headers }), fetch(nginxBase + target, { headers })]);
    const [nodeBody, nginxBody] = [Buffer.from(await node.arrayBuffer()), Buffer.from(await nginx.arrayBuffer())];
    const nginxTag = nginx.headers.get('etag') ?? '';
    if (node.status !== 200 || nginx.status !== 200 || !nodeBody.equals(nginxBody) || nginxTag.startsWith('W/') || !nginxTag) {
      throw new Error(
        `${target}: node ${node.status}, nginx ${nginx.status} (${nginxTag}), bodies ${nodeBody.equals(nginxBody) ? 'equal' : 'differ'}`,
      );
    }
  }
}

/** The stored file the files rounds ask for: incompressible, the size of a large thumbnail. */
const FILE_BYTES = 256 * 1024;

/**
 * A stored file sent by the node itself against nginx sending it (X-Accel-Redirect: the node answers
 * the headers only). The node's CPU per request is the figure: what a file costs the web nodes.
 */
async function fileRounds(dataDir: string, nodeBase: string, nginxBase: string, nodePid: number, nginxPid: number) {
  const db = await openArchiveDatabase(readConfig({ ...process.env, DATA_DIR: dataDir }));
  const stored = await storeFile(dataPaths(dataDir).files, crypto.randomBytes(FILE_BYTES), 'bin');
  await registerFile(db, { hash: stored.sha256, size: FILE_BYTES, ext: 'bin', mime: 'application/octet-stream' });
  const target = `/data${stored.path}`;
  const rounds: Array<{ round: number; node: Round & { nodeCpuMsPerRequest: number }; nginx: Round & { nodeCpuMsPerRequest: number } }> =
    [];
  const both = () => treeCpuMs(nodePid) + treeCpuMs(nginxPid);
  for (let round = 1; round <= ROUNDS; round += 1) {
    const measureWithNode = async (base: string, cpuOf: () => number) => {
      const nodeBefore = treeCpuMs(nodePid);
      const figures = await measure(base, [target], 'identity', cpuOf);
      const answered = figures.requestsPerSecond * SECONDS;
      return { ...figures, nodeCpuMsPerRequest: Math.round(((treeCpuMs(nodePid) - nodeBefore) / answered) * 1000) / 1000 };
    };
    const node = await measureWithNode(nodeBase, () => treeCpuMs(nodePid));
    const nginx = await measureWithNode(nginxBase, both);
    rounds.push({ round, node, nginx });
    console.error(`files round ${round}: node ${node.requestsPerSecond}/s, nginx ${nginx.requestsPerSecond}/s`);
  }
  await closeArchiveDatabase(db);
  return { bytes: FILE_BYTES, rounds };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function nginxPagesBenchmark() {
  const dataDir = archiveDir('nginx-pages');
  const server = await startTrove(dataDir, NODE_PORT, '/posts');
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-nginx-'));
  try {
    const config = readConfig({ ...process.env, DATA_DIR: dataDir, PORT: String(NODE_PORT), NODE_ENV: 'production' });
    const nginx = await startNginx({
      listenPort: NGINX_PORT,
      upstreams: [`127.0.0.1:${NODE_PORT}`],
      dataDir,
      clientDir: path.join(DIST_DIR, 'client'),
      runDir,
      config,
    });
    try {
      const nodeBase = `http://127.0.0.1:${NODE_PORT}`;
      const nginxBase = `http://127.0.0.1:${NGINX_PORT}`;
      const nginxPid = Number(fs.readFileSync(path.join(runDir, 'nginx.pid'), 'utf8'));
      const paths = storedPaths(path.join(dataDir, 'pages'));
      for (const encoding of ['br', 'identity']) await checkServedFromStore(nodeBase, nginxBase, paths, encoding);
      const machine = { before: machineLoad() };
      const rounds: Array<{ round: number; encoding: string; node: Round; nginx: Round }> = [];
      for (let round = 1; round <= ROUNDS; round += 1) {
        for (const encoding of ['br', 'identity']) {
          // Alternate which goes first, so a slow patch of the machine does not always hit the same one.
          const order = round % 2 === 1 ? (['node', 'nginx'] as const) : (['nginx', 'node'] as const);
          const figures: Partial<Record<'node' | 'nginx', Round>> = {};
          for (const which of order) {
            figures[which] =
              which === 'node'
                ? await measure(nodeBase, paths, encoding, () => treeCpuMs(server.pid!))
                : await measure(nginxBase, paths, encoding, () => treeCpuMs(nginxPid));
          }
          rounds.push({ round, encoding, node: figures.node!, nginx: figures.nginx! });
          console.error(
            `round ${round} ${encoding}: node ${figures.node!.requestsPerSecond}/s, nginx ${figures.nginx!.requestsPerSecond}/s`,
          );
        }
      }
      const summary = Object.fromEntries(
        ['br', 'identity'].map((encoding) => {
          const of = rounds.filter((round) => round.encoding === encoding);
          const node = median(of.map((round) => round.node.requestsPerSecond));
          const proxied = median(of.map((round) => round.nginx.requestsPerSecond));
          return [
            encoding,
            {
              nodeRequestsPerSecond: node,
              nginxRequestsPerSecond: proxied,
              ratio: Math.round((proxied / node) * 100) / 100,
              nodeCpuMsPerRequest: median(of.map((round) => round.node.cpuMsPerRequest)),
              nginxCpuMsPerRequest: median(of.map((round) => round.nginx.cpuMsPerRequest)),
            },
          ];
        }),
      );
      const files = await fileRounds(dataDir, nodeBase, nginxBase, server.pid!, nginxPid);
      return {
        pages: paths.length,
        connections: CONNECTIONS,
        seconds: SECONDS,
        machine: { ...machine, after: machineLoad() },
        rounds,
        summary,
        files,
      };
    } finally {
      await nginx.stop();
    }
  } finally {
    await stop(server);
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

function table(result: Awaited<ReturnType<typeof nginxPagesBenchmark>>): string {
  const lines = [
    '| round | Accept-Encoding | node req/s (p99, CPU ms/req) | nginx req/s (p99, CPU ms/req) | nginx / node |',
    '|---|---|---|---|---|',
  ];
  const cell = (figures: Round) => `${figures.requestsPerSecond} (${figures.latencyP99Ms} ms, ${figures.cpuMsPerRequest})`;
  for (const { round, encoding, node, nginx } of result.rounds) {
    lines.push(
      `| ${round} | ${encoding} | ${cell(node)} | ${cell(nginx)} | ${(nginx.requestsPerSecond / node.requestsPerSecond).toFixed(2)} |`,
    );
  }
  return lines.join('\n');
}

/** The benchmark, with its table printed to stderr (run.ts prints and saves the result). */
export async function nginxPagesBenchmarkWithTable() {
  const result = await nginxPagesBenchmark();
  console.error(table(result));
  return result;
}
