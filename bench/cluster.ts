/**
 * Requests per second through nginx with 1 and with 2 web nodes (`npm run bench -- cluster`): one
 * cluster (scripts/lib/cluster.ts, demo archive on PostgreSQL in bench/.data/cluster) with two nodes and
 * two nginx instances in front of it, one balancing both nodes and one sending everything to the first,
 * loaded in alternating rounds with the same mix of requests that only a node can answer (API answers
 * and search pages; stored pages nginx sends itself, bench/nginx-pages.ts). Also the CPU time per
 * request of the nodes, of PostgreSQL and of nginx: the per-request costs of the capacity model in
 * docs/benchmarks.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { startNginx } from '../api/cluster/nginx.ts';
import { readConfig } from '../api/config.ts';
import { startCluster } from '../scripts/lib/cluster.ts';
import { CLIENT_DIR } from '../scripts/lib/site.ts';
import { freePort } from '../scripts/lib/postgres-cluster.ts';
import { archiveDir, machineLoad, treeCpuMs } from './lib.ts';

const CONNECTIONS = 32;
const SECONDS = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

function pidFile(file: string): number {
  return Number(fs.readFileSync(file, 'utf8').split('\n')[0]);
}

export async function clusterBenchmark() {
  const dir = archiveDir('cluster');
  const cluster = await startCluster({
    nodes: 2,
    workers: 0,
    dir,
    port: await freePort(),
    firstNodePort: await freePort(),
    fastPostgres: true,
  });
  const singlePort = await freePort();
  const single = await startNginx({
    listenPort: singlePort,
    upstreams: [new URL(cluster.nodes[0].url as string).host],
    dataDir: cluster.dataDir,
    clientDir: CLIENT_DIR,
    runDir: path.join(dir, 'nginx-one-node'),
    config: readConfig({ ...process.env, DATABASE_URL: cluster.databaseUrl, DATA_DIR: cluster.dataDir }),
  });
  try {
    const singleUrl = `http://127.0.0.1:${singlePort}`;
    const creators = ((await (await fetch(`${cluster.url}/api/v1/creators`)).json()) as Array<{ service: string; id: string }>).slice(0, 8);
    const requests = [
      ...creators.map(({ service, id }) => ({ path: `/api/v1/${service}/user/${id}/posts` })),
      ...['music', 'sketch', 'summer', 'portrait'].map((word) => ({ path: `/posts?q=${word}` })),
    ];
    const postgresPid = pidFile(path.join(dir, 'postgres', 'data', 'postmaster.pid'));
    const nodePids = cluster.nodes.map((node) => node.child.pid as number);
    const fronts = { 'one node': singleUrl, 'two nodes': cluster.url };
    const rounds: Array<Record<string, unknown>> = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, url] of Object.entries(fronts)) {
        await autocannon({ url, requests, connections: 8, duration: 2 }); // warm up
        const cpu = () => ({ nodes: nodePids.reduce((sum, pid) => sum + treeCpuMs(pid), 0), postgres: treeCpuMs(postgresPid) });
        const before = cpu();
        const result = await autocannon({ url, requests, connections: CONNECTIONS, duration: SECONDS });
        const after = cpu();
        const total = result.requests.total;
        rounds.push({
          round: round + 1,
          front: name,
          requestsPerSecond: result.requests.average,
          latencyP99Ms: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors,
          nodeCpuMsPerRequest: (after.nodes - before.nodes) / total,
          postgresCpuMsPerRequest: (after.postgres - before.postgres) / total,
        });
        console.error(JSON.stringify(rounds.at(-1)));
      }
    }
    return {
      machine: machineLoad(),
      connections: CONNECTIONS,
      seconds: SECONDS,
      requests: requests.map((request) => request.path),
      rounds,
    };
  } finally {
    await single.stop();
    await cluster.stop();
  }
}
