// The other half of tests/helpers/sync-postgres.ts: runs each query it is sent on one pg connection and
// wakes the waiting thread. Plain JavaScript, as a worker thread loads it without the test's transform.
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';

const { url, port, signal } = workerData;
// 64-bit integers and numerics as numbers, as the archive's PostgreSQL store reads them.
const types = {
  getTypeParser: (oid, format) =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC ? Number : pg.types.getTypeParser(oid, format ?? 'text'),
};
const client = new pg.Client({ connectionString: url, types });
const connected = client.connect();

parentPort.on('message', async ({ text, params }) => {
  try {
    await connected;
    const result = await client.query(params === undefined ? text : { text, values: params });
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    port.postMessage({ rows: last.rows ?? [], rowCount: last.rowCount ?? 0 });
  } catch (error) {
    port.postMessage({ error: { message: error.message, code: error.code } });
  }
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
