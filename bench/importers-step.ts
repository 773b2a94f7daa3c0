/**
 * One paysite's import for the per-importer benchmark (run by bench/importers.ts with an empty DATA_DIR):
 * starts the site's fake in its own process (bench/importers-fake.ts) with about N posts, submits its key
 * as /importer does (the real submission schema and service), runs the real worker until the import ends,
 * and prints one JSON line: posts/s, files/s, MB/s and what was stored.
 *   npx tsx bench/importers-step.ts <site> --posts N
 */
import { spawnFake } from './lib.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { sharedDatabase, type Db } from '../api/data/db.ts';
import { getImport, getImportLogs } from '../api/data/imports.ts';
import { submitImport } from '../api/importer/submit.ts';
import { startImportWorker } from '../api/importer/worker.ts';
import { dataPaths, readConfig } from '../api/config.ts';
import { importSubmissionSchema } from '../shared/importer.ts';

const { values, positionals } = parseArgs({ options: { posts: { type: 'string' } }, allowPositionals: true });
const site = positionals[0] ?? '';
const posts = Number(values.posts);
/** An import that has not ended by then is a failed run, not a figure. */
const IMPORT_DEADLINE_MS = 10 * 60_000;

async function startFake() {
  const fake = await spawnFake<{ requests: number; cpuSeconds: number }>('bench/importers-fake.ts', [site, `--posts=${posts}`]);
  const ready = JSON.parse(fake.first) as { env: Record<string, string>; submission: Record<string, string> };
  return { ...ready, stop: fake.stop };
}

const counts = (db: Db) =>
  db
    .prepare(`SELECT (SELECT count(*) FROM posts) AS posts, (SELECT count(*) FROM files) AS files,
                     (SELECT coalesce(sum(size), 0) FROM files) AS bytes`)
    .get() as Record<'posts' | 'files' | 'bytes', number>;

const fake = await startFake();
const settings = readConfig({ ...process.env, TROVE_ENV: 'test', IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1', ...fake.env });
const db = sharedDatabase(dataPaths(settings.dataDir).database);
const before = counts(db);
const body = importSubmissionSchema.parse({ service: site, ...fake.submission });
const id = await submitImport({ db, config: settings }, body, { account: null, address: '127.0.0.1' });

const worker = startImportWorker({ db, config: settings }, { autoStart: false });
const cpuBefore = process.cpuUsage();
const started = performance.now();
// A transient error puts the import back in the queue with resuming_at: keep claiming until it ends.
while (!(await getImport(db, id))?.finished_at) {
  if (performance.now() - started > IMPORT_DEADLINE_MS) throw new Error(`the ${site} import did not end in time`);
  if (!(await worker.runOnce())) await sleep(200);
}
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
await worker.stop();
const served = await fake.stop();

const after = counts(db);
const done = (await getImport(db, id))!;
const logs = await getImportLogs(db, id);
const imported = after.posts - before.posts;
if (done.is_key_invalid || logs.at(-1) !== 'Finished.' || imported === 0) {
  throw new Error(`the ${site} import did not finish cleanly (${imported} posts): ${logs.slice(-3).join(' | ')}`);
}
const files = after.files - before.files;
const megabytes = (after.bytes - before.bytes) / 1024 / 1024;
console.log(
  JSON.stringify({
    site,
    seconds,
    postsPerSecond: imported / seconds,
    filesPerSecond: files / seconds,
    megabytesPerSecond: megabytes / seconds,
    posts: imported,
    files,
    megabytes,
    requests: served.requests,
    retries: done.retry_count,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    fakeCpuSeconds: served.cpuSeconds,
    logLines: logs.length,
  }),
);
process.exit(0);
