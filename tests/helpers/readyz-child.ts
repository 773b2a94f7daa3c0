/**
 * Run as a separate process (by tests/api/server/health.test.ts, as an unprivileged user): answers
 * /healthz and /readyz for the data folder given as argv[2] with the operator handler, over an
 * in-memory database, and prints the port it listens on.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase } from '@api/data/db.ts';
import { createOperatorHandler } from '@api/server/operator.ts';

const dataDir = process.argv[2];
const handle = createOperatorHandler({
  db: openDatabase(':memory:'),
  config: { dataDir, minFreeDiskMb: 0, metricsToken: '', trustProxy: false },
});
const server = http.createServer((req, res) => {
  const answered = handle(req, res, (req.url ?? '/').split('?')[0]);
  if (!answered) {
    res.statusCode = 404;
    res.end();
  }
});
server.listen(0, '127.0.0.1', () => console.log(`port ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => process.exit(0));
