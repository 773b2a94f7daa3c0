/**
 * One size of the import benchmark (run by bench/import.ts with DATA_DIR set), in two processes:
 *   --phase=prepare  seeds the demo archive into the (empty) DATA_DIR and renders every stored page,
 *                    as a first `npm start` leaves it;
 *   --phase=import   starts the fake Patreon (bench/import-fake.ts, own process) with N posts, queues one
 *                    import and runs the real worker until it ends, then times the rebuild of the pages
 *                    the import touched as `scripts/rebuild` does it.
 * Each prints one JSON line. The import phase opens only the database until the import is over, so its
 * peak resident set is the importer's (worker, database, downloads), not the page renderer's.
 */
import { spawnFake } from './lib.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { sharedDatabase, type Db } from '../api/data/db.ts';
import { createImport, getImport, getImportLogs } from '../api/data/imports.ts';
import { applyRebuild, planRebuild } from '../api/pages/rebuild.ts';
import { sealForWorker } from '../api/importer/work-key.ts';
import { startImportWorker } from '../api/importer/worker.ts';
import { seedDemoArchive } from '../scripts/seed/index.ts';
import { openSite, storeRendererFor, WORKER_THRESHOLD_PAGES } from '../scripts/lib/site.ts';
import { config, dataPaths, readConfig } from '../api/config.ts';
import { FAKE_PATREON_KEY } from '../tests/fakes/patreon.ts';

process.env.NODE_ENV ??= 'production';
const { values } = parseArgs({
  options: {
    phase: { type: 'string' },
    posts: { type: 'string' },
    creators: { type: 'string', default: '4' },
    threads: { type: 'string' },
  },
});
/** An import that has not ended by then is a failed run, not a figure. */
const IMPORT_DEADLINE_MS = 10 * 60_000;

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function prepare() {
  const site = await openSite();
  const seedStarted = performance.now();
  await seedDemoArchive(site.db, { dataDir: site.config.dataDir });
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  site.store.adoptBuild(site.storeId);
  const plan = await planRebuild(site.db, { all: true });
  const renderer = await storeRendererFor(site, { pages: plan.keys.length });
  const summary = await applyRebuild(site.db, site.store, renderer, plan, { freshStore: true });
  await renderer.close();
  await site.close();
  if (summary.failed.length > 0) throw new Error(`full render failed: ${summary.failed.slice(0, 3).join('; ')}`);
  return { seedSeconds, storedPages: plan.keys.length, renderSeconds: summary.seconds };
}

/** The fake Patreon in a child process; resolves once it listens. stop() returns its request counts. */
async function startFake(posts: number, creators: number) {
  const fake = await spawnFake<{ requests: number; failed: number; byKind: Record<string, number>; cpuSeconds: number }>(
    'bench/import-fake.ts',
    [`--posts=${posts}`, `--creators=${creators}`],
  );
  const url = /^listening (\S+)/.exec(fake.first)?.[1];
  if (!url) throw new Error('the fake Patreon did not start');
  return { url, stop: fake.stop };
}

const counts = (db: Db) =>
  db
    .prepare(`SELECT (SELECT count(*) FROM posts) AS posts, (SELECT count(*) FROM comments) AS comments,
                     (SELECT count(*) FROM files) AS files, (SELECT coalesce(sum(size), 0) FROM files) AS bytes`)
    .get() as Record<'posts' | 'comments' | 'files' | 'bytes', number>;

async function runImport(posts: number, creators: number) {
  const fake = await startFake(posts, creators);
  const settings = readConfig({ ...process.env, TROVE_ENV: 'test', IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1', IMPORTER_PATREON_URL: fake.url });
  const db = sharedDatabase(dataPaths(settings.dataDir).database);
  const before = counts(db);
  const rssBefore = process.memoryUsage().rss;
  const id = 'bench-import';
  await createImport(db, { id, service: 'patreon', work_key: sealForWorker(settings, id, FAKE_PATREON_KEY) });

  const worker = startImportWorker({ db, config: settings }, { autoStart: false });
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  // A transient error puts the import back in the queue with resuming_at: keep claiming until it ends.
  while (!(await getImport(db, id))?.finished_at) {
    if (performance.now() - started > IMPORT_DEADLINE_MS) throw new Error('the import did not end in time');
    if (!(await worker.runOnce())) await sleep(200);
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const peakRssMb = mb(process.resourceUsage().maxRSS * 1024);
  await worker.stop();
  const served = await fake.stop();

  const after = counts(db);
  const done = (await getImport(db, id))!;
  const logs = await getImportLogs(db, id);
  const imported = after.posts - before.posts;
  if (done.is_key_invalid || logs.at(-1) !== 'Finished.' || imported !== posts) {
    throw new Error(`the import did not finish cleanly (${imported} of ${posts} posts): ${logs.slice(-3).join(' | ')}`);
  }
  const files = after.files - before.files;
  return {
    seconds,
    postsPerSecond: imported / seconds,
    filesPerSecond: files / seconds,
    requestsPerSecond: served.requests / seconds,
    posts: imported,
    comments: after.comments - before.comments,
    files,
    megabytes: (after.bytes - before.bytes) / 1024 / 1024,
    requests: served.requests,
    failedRequests: served.failed,
    requestsByKind: served.byKind,
    retries: done.retry_count,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    fakeCpuSeconds: served.cpuSeconds,
    rssBeforeMb: mb(rssBefore),
    peakRssMb,
    logLines: logs.length,
  };
}

async function rebuildAfterImport() {
  const site = await openSite();
  const started = performance.now();
  const plan = await planRebuild(site.db);
  const planSeconds = (performance.now() - started) / 1000;
  const threads = Number(values.threads) || undefined;
  const renderer = await storeRendererFor(site, { pages: plan.keys.length, threads });
  const summary = await applyRebuild(site.db, site.store, renderer, plan);
  await renderer.close();
  const seconds = (performance.now() - started) / 1000;
  await site.close();
  return {
    changes: plan.changes,
    pages: plan.keys.length,
    planSeconds,
    seconds,
    pagesPerSecond: plan.keys.length / seconds,
    written: summary.written,
    removed: summary.removed,
    failed: summary.failed.length,
    renderer: threads ? `${threads} worker threads` : plan.keys.length >= WORKER_THRESHOLD_PAGES ? 'worker pool' : 'in-process',
  };
}

if (values.phase === 'prepare') {
  if (!config().dataDir) throw new Error('DATA_DIR is not set');
  console.log(JSON.stringify(await prepare()));
} else if (values.phase === 'import') {
  const posts = Number(values.posts);
  const creators = Number(values.creators);
  const importing = await runImport(posts, creators);
  const rebuild = await rebuildAfterImport();
  console.log(JSON.stringify({ posts, creators, import: importing, rebuild }));
} else {
  throw new Error('--phase=prepare or --phase=import');
}
process.exit(0);
