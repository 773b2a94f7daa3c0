/**
 * `npm run auto-import`: runs auto-import rounds on the machine that holds the operator's private key
 * (the web server has only the public half and cannot open kept keys). Same DATA_DIR as the server.
 *   npm run auto-import -- --private-key <private.pem>          a round every 24 h, and whenever an
 *                                                               administrator asks (checked every minute)
 *   npm run auto-import -- --private-key <private.pem> --once   one round now, then exit
 * The key file may also come from OPERATOR_PRIVATE_KEY. One progress line per key, naming it by id only.
 */
import { parseArgs } from 'node:util';
import { closeArchiveDatabase, missingArchiveDatabase, openArchiveDatabase } from '../api/data/open.ts';
import { requestAutoImportRound } from '../api/data/auto-import.ts';
import { nowIso } from '../api/data/util.ts';
import { startAutoImportScheduler } from '../api/importer/auto-import-scheduler.ts';
import { startLeadership } from '../api/cluster/locks.ts';
import { config } from '../api/config.ts';
import { createLogger, lineLogger } from '../api/server/logger.ts';

const USAGE = 'Usage: npm run auto-import -- [--private-key <private.pem>] [--once]   (or OPERATOR_PRIVATE_KEY=<private.pem>)';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function parseOptions() {
  try {
    return parseArgs({ options: { 'private-key': { type: 'string' }, once: { type: 'boolean', default: false } } }).values;
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
}
const values = parseOptions();
const privateKeyPath = values['private-key'] ?? process.env.OPERATOR_PRIVATE_KEY;
if (!privateKeyPath) fail(USAGE);

const settings = config();
const log = lineLogger(createLogger(settings, { name: 'auto-import' }));
const missing = missingArchiveDatabase(settings);
if (missing) fail(missing);
const db = await openArchiveDatabase(settings);

async function startScheduler(keyPath: string, autoStart: boolean) {
  try {
    return startAutoImportScheduler({ db, config: settings, privateKeyPath: keyPath, log }, { autoStart });
  } catch (error) {
    await closeArchiveDatabase(db);
    fail((error as Error).message);
  }
}
// The key is checked now, before any waiting; the watching scheduler starts only while this process
// leads (several machines may run this command; one runs the rounds, another takes over if it dies).
const scheduler = await startScheduler(privateKeyPath, false);

if (values.once) {
  // --once is "a round now": the request makes it run even when the last one was under 24 h ago.
  await requestAutoImportRound(db, null, nowIso());
  const ran = await scheduler.tick();
  await closeArchiveDatabase(db);
  process.exit(ran ? 0 : 1);
}

scheduler.stop();
const leadership = startLeadership({
  databaseUrl: settings.databaseUrl,
  name: 'auto-import',
  log,
  lead: () => {
    log(`Watching ${settings.dataDir} for auto-import rounds.`);
    const watching = startAutoImportScheduler({ db, config: settings, privateKeyPath, log });
    return () => watching.stop();
  },
});
const shutdown = () => {
  void leadership
    .stop()
    .then(() => closeArchiveDatabase(db))
    .finally(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
