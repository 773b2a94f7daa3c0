/**
 * `npm run cluster -- --nodes 2 --workers 2 [--port 8080] [--dir cluster]`: a whole multi-machine Trove
 * on this machine (scripts/lib/cluster.ts): PostgreSQL, the shared data folder, the web nodes, the import
 * workers and nginx in front of the nodes. The folder keeps the database and files between runs; Ctrl-C
 * stops everything this started.
 */
import { parseArgs } from 'node:util';
import { type RunningCluster, startCluster } from './lib/cluster.ts';

const USAGE = 'Usage: npm run cluster -- [--nodes 2] [--workers 2] [--port 8080] [--dir cluster]';

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function count(value: string, name: string, least: number, most: number): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < least || number > most)
    fail(`--${name} must be a whole number from ${least} to ${most}, not ${value}.`);
  return number;
}

function options() {
  try {
    return parseArgs({
      options: {
        nodes: { type: 'string', default: '2' },
        workers: { type: 'string', default: '2' },
        port: { type: 'string', default: process.env.PORT ?? '8080' },
        dir: { type: 'string', default: 'cluster' },
      },
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
}

const values = options();
const port = count(values.port, 'port', 1, 65535 - 16);
const log = (line: string) => console.log(line);
let cluster: RunningCluster | undefined;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log('Stopping the cluster...');
    // A signal during the start: the members started so far are stopped when startCluster gives up.
    void (cluster?.stop() ?? Promise.resolve()).finally(() => process.exit(0));
  });
}

cluster = await startCluster({
  nodes: count(values.nodes, 'nodes', 1, 16),
  workers: count(values.workers, 'workers', 0, 16),
  dir: values.dir,
  port,
  host: process.env.HOST,
  log,
});
log(`Trove is running at ${cluster.url} (${cluster.nodes.length} web nodes, ${cluster.workers.length} workers). Ctrl-C stops it.`);
for (const member of [...cluster.nodes, ...cluster.workers]) {
  void member.exited.then(() => {
    if (!stopping)
      log(`${member.name} exited (code ${member.child.exitCode ?? member.child.signalCode}); see ${values.dir}/logs/${member.name}.log.`);
  });
}
