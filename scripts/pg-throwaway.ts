/**
 * `npm run pg:throwaway [-- --dir FOLDER] [--port N]`: starts a throwaway PostgreSQL cluster
 * (scripts/lib/postgres-cluster.ts), prints its DATABASE_URL and keeps it running until Ctrl-C. Without
 * --dir its folder is temporary and removed at the end; with --dir the cluster (and its data) stays
 * there for the next run.
 */
import { parseArgs } from 'node:util';
import { type ThrowawayCluster, startThrowawayCluster } from './lib/postgres-cluster.ts';

const { values } = parseArgs({ options: { dir: { type: 'string' }, port: { type: 'string' } } });
const port = values.port === undefined ? undefined : Number(values.port);
if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
  console.error(`--port must be a TCP port number, not ${values.port}`);
  process.exit(2);
}
let cluster: ThrowawayCluster | undefined;
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // Ctrl-C during the start stops the cluster as soon as it is up.
    if (!cluster) interrupted = true;
    else void cluster.stop().then(() => process.exit(0));
  });
}
cluster = await startThrowawayCluster({ dir: values.dir, port });
if (interrupted) {
  await cluster.stop();
  process.exit(0);
}
console.log(`PostgreSQL is running in ${cluster.dir}`);
console.log(`DATABASE_URL=${cluster.url}`);
console.log('Ctrl-C stops it.');
// Keeps the process alive until a signal arrives.
setInterval(() => undefined, 1 << 30);
