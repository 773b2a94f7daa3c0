/**
 * `npm start`: one process, one port. Migrates the database, seeds the demo archive when it is empty,
 * builds the site when dist/ is missing or stale, serves, and brings the page store up to date
 * in the background (pages missing from the store are rendered on first request meanwhile).
 */
import { openArchiveDatabase } from '../api/data/open.ts';
import { countCreators } from '../api/data/creators.ts';
import { getFileByHash } from '../api/data/files.ts';
import { createApp } from '../api/app.ts';
import { createFrontServer } from '../api/server/front.ts';
import { rebuildPages } from '../api/pages/rebuild.ts';
import { startRebuildLoop, type RebuildLoop } from '../api/pages/rebuild-loop.ts';
import { operatorPublicKey } from '../api/importer/operator-key.ts';
import { startImportWorker, type ImportWorker } from '../api/importer/worker.ts';
import { startDemoAutoImport } from '../api/importer/auto-import-scheduler.ts';
import { startLeadership, withClusterLock, type Leadership } from '../api/cluster/locks.ts';
import { inProcessRenderer } from '../api/pages/render-into-store.ts';
import { config, dataPaths } from '../api/config.ts';
import { buildInfo } from '../api/build-info.ts';
import { appLogger, createLogger, lineLogger } from '../api/server/logger.ts';
import { createServerMetrics } from '../api/server/metrics.ts';
import { seedDemoArchive } from './seed/index.ts';
import { ensureBuild } from './lib/build.ts';
import { CLIENT_DIR, openSite } from './lib/site.ts';

// npm start is the production server: React's production build renders several times faster.
process.env.NODE_ENV ??= 'production';

const settings = config();
const logger = createLogger(settings, { name: 'trove' });
const log = lineLogger(logger);
const paths = dataPaths(settings.dataDir);
const started = Date.now();

log(`Data folder: ${settings.dataDir}`);
const db = await openArchiveDatabase(settings);
if ((await countCreators(db)) === 0) {
  log('The archive is empty: seeding the demo archive...');
  const seeded = await seedDemoArchive(db, { dataDir: settings.dataDir });
  log(`Seeded the demo archive in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  if (seeded?.credentials) {
    for (const account of seeded.credentials) log(`  ${account.role}: ${account.username} / ${account.password}`);
  }
}

await ensureBuild(log);
const site = await openSite();
// Web nodes of a cluster share the page store: the first to start a new build empties it, the others
// find it adopted (and the full render that follows is one node's, under the same lock). A store of this
// build is used as it is, without waiting for a rebuild another node may be running.
const fresh =
  site.store.buildId() !== site.storeId &&
  (await withClusterLock(site.db, 'page-rebuild', async () => site.store.adoptBuild(site.storeId).fresh));

// The operator key is checked (or the demo pair made, once) now rather than in the first request that keeps a key.
operatorPublicKey(settings);

const metrics = createServerMetrics(site.db);
const onRebuilt = (summary: { seconds: number }) => metrics.observeRebuild(summary.seconds);

// A takedown reaches the stored pages before its answer: the rebuild loop runs now (once the start-up
// rebuild is done; with REBUILD_INTERVAL_SECONDS=0 the loop only runs when asked).
let startLoop: (loop: RebuildLoop) => void = () => {};
const rebuildLoop = new Promise<RebuildLoop>((resolve) => (startLoop = resolve));
const pagesChanged = (): Promise<unknown> =>
  rebuildLoop.then((loop) => loop.runNow()).catch((error: unknown) => log(`Page store refresh failed: ${(error as Error).message}`));
const api = createApp({ db: site.db, config: settings, build: buildInfo(), logger: appLogger(logger), pagesChanged });
const server = createFrontServer({
  api,
  clientDir: CLIENT_DIR,
  media: {
    ...paths,
    mimeOf: async (hash) => (await getFileByHash(site.db, hash))?.mime,
    iconsPath: settings.iconsPath,
    bannersPath: settings.bannersPath,
  },
  store: site.store,
  ssr: site.ssr,
  renderer: site.renderer,
  site: { db: site.db, config: settings },
  log,
  logger,
  metrics,
});

// Submitted imports are worked on in this process unless IMPORT_WORKER=0 (then by `npm run worker`).
let worker: ImportWorker | undefined;
let autoImport: Leadership | undefined;

server.listen(settings.port, settings.host, () => {
  const shownHost = settings.host === '0.0.0.0' ? 'localhost' : settings.host;
  log(`Serving http://${shownHost}:${settings.port} (up in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (settings.importWorker)
    worker = startImportWorker({ db: site.db, config: settings, log }, { leaseMs: settings.importLeaseSeconds * 1000 });
  // Demo only (no OPERATOR_PUBLIC_KEY): the generated private key is here, so this process runs auto-import rounds.
  // One process of a cluster runs the rounds (the others take over within a minute if it dies).
  autoImport = startLeadership({
    databaseUrl: settings.databaseUrl,
    name: 'auto-import',
    log,
    lead: () => {
      const scheduler = startDemoAutoImport({ db: site.db, config: settings, log });
      return scheduler && (() => scheduler.stop());
    },
  });
  const renderer = inProcessRenderer(site.renderer, site.store, 2);
  void withClusterLock(site.db, 'page-rebuild', () => rebuildPages(site.db, site.store, renderer, { all: fresh, onDone: onRebuilt }))
    .then(
      (summary) =>
        log(
          `Page store ${fresh ? 'rendered' : 'refreshed'}: ${summary.considered} pages in ${summary.seconds.toFixed(1)} s ` +
            `(${summary.written} written, ${summary.unchanged} unchanged, ${summary.removed} removed, ${summary.failed.length} failed).`,
        ),
      (error: unknown) => log(`Page store rebuild failed: ${(error as Error).message}`),
    )
    .finally(() => {
      // From now on, writes (imports, favourites, approvals, uploads) reach the stored pages by themselves.
      startLoop(startRebuildLoop({ db: site.db, store: site.store, renderer, log, onRebuilt }, settings.rebuildIntervalSeconds * 1000));
    });
});

let stopping = false;
function shutdown() {
  if (stopping) return;
  stopping = true;
  log('Shutting down.');
  server.close();
  server.closeAllConnections();
  // The running import's lease is given back and a running rebuild finishes before the database closes.
  const loop = Promise.race([rebuildLoop, Promise.resolve(undefined)]);
  void Promise.all([worker?.stop(), autoImport?.stop(), loop.then((started) => started?.stop())])
    .then(() => site.close())
    .finally(() => process.exit(0));
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
