/**
 * `npm run worker`: the import worker alone (the server runs one too unless IMPORT_WORKER=0). Same
 * DATA_DIR as the server; several workers may run at once, the leases keep them apart. SIGTERM or
 * SIGINT stops it between two steps and gives the running import's lease back, so another worker
 * resumes it at once.
 */
import { closeArchiveDatabase, openArchiveDatabase } from '../api/data/open.ts';
import { startImportWorker } from '../api/importer/worker.ts';
import { config } from '../api/config.ts';
import { createLogger, lineLogger } from '../api/server/logger.ts';

const settings = config();
const log = lineLogger(createLogger(settings, { name: 'worker' }));
const db = await openArchiveDatabase(settings);
const worker = startImportWorker({ db, config: settings, log }, { leaseMs: settings.importLeaseSeconds * 1000 });
log(`Import worker ${worker.owner} started on ${settings.dataDir}.`);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  log('Stopping.');
  await worker.stop();
  await closeArchiveDatabase(db);
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
