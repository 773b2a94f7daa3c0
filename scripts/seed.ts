/**
 * `npm run seed -- [--data-dir DIR] [--creators N] [--posts M] [--seed S] [--images K] [--force]`
 *
 * Seeds the demo archive (scripts/seed/index.ts) into DIR (default: $DATA_DIR or ./data).
 * Refuses a database that already has creators unless --force is given (then the seeded data is
 * added; the same --seed again re-applies the same rows). Prints the account credentials at the end.
 * A progress bar is shown on a terminal, plain progress lines otherwise.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeArchiveDatabase, openArchiveDatabase } from '../api/data/open.ts';
import { countCreators } from '../api/data/creators.ts';
import { config, dataPaths } from '../api/config.ts';
import { createProgress, type Progress } from './lib/progress.ts';
import { DEFAULT_CREATORS, DEFAULT_POSTS, DEFAULT_SEED, DEFAULT_IMAGES, seedDemoArchive, type SeedProgress } from './seed/index.ts';

const USAGE = `Usage: npm run seed -- [options]
  --data-dir DIR   data folder (default: $DATA_DIR or ./data)
  --creators N     number of creators (default ${DEFAULT_CREATORS})
  --posts M        total number of posts (default ${DEFAULT_POSTS})
  --seed S         PRNG seed (default ${DEFAULT_SEED})
  --images K       size of the generated image pool (default ${DEFAULT_IMAGES})
  --force          seed even when the database already has creators
  --help           show this help`;

function positiveInt(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    console.error(`${name} must be an integer >= ${min}, got ${value}`);
    process.exit(2);
  }
  return n;
}

function parseArguments() {
  try {
    return parseArgs({
      options: {
        'data-dir': { type: 'string' },
        creators: { type: 'string' },
        posts: { type: 'string' },
        seed: { type: 'string' },
        images: { type: 'string' },
        force: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      allowPositionals: false,
    }).values;
  } catch (error) {
    console.error((error as Error).message);
    console.error(USAGE);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const args = parseArguments();
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const dataDir = path.resolve(args['data-dir'] ?? (process.env.DATA_DIR || 'data'));
  const creators = positiveInt('--creators', args.creators, DEFAULT_CREATORS, 1);
  const posts = positiveInt('--posts', args.posts, DEFAULT_POSTS, 0);
  const images = positiveInt('--images', args.images, DEFAULT_IMAGES, 3);
  const seed = args.seed === undefined ? DEFAULT_SEED : /^\d+$/.test(args.seed) ? Number(args.seed) : args.seed;

  const { databaseUrl } = config();
  // The URL may hold a password: the messages name the variable, not its value.
  const where = databaseUrl ? 'The PostgreSQL database of DATABASE_URL' : dataPaths(dataDir).database;
  const db = await openArchiveDatabase({ databaseUrl, dataDir });
  const existing = await countCreators(db);
  if (existing > 0 && !args.force) {
    console.error(`${where} already has ${existing} creators; use --force to add the demo archive anyway.`);
    await closeArchiveDatabase(db);
    process.exit(1);
  }
  // Bigger page cache for the bulk insert (this connection only).
  db.sqlite?.pragma('cache_size = -262144');

  console.log(`Seeding ${creators} creators and ${posts} posts (seed ${String(seed)}) into ${dataDir}`);
  const bars = new Map<string, Progress>();
  let current: string | undefined;
  const onProgress = (p: SeedProgress) => {
    if (p.phase === 'done') return;
    if (current !== p.phase) {
      if (current) bars.get(current)?.stop();
      current = p.phase;
      const bar = createProgress(p.phase);
      bars.set(p.phase, bar);
      bar.start(p.total);
    }
    bars.get(p.phase)!.update(p.done, p.total);
  };
  const result = await seedDemoArchive(db, { dataDir, creators, posts, seed, images, onProgress });
  if (current) bars.get(current)?.stop();
  db.sqlite?.pragma('wal_checkpoint(TRUNCATE)');
  await closeArchiveDatabase(db);

  console.log(
    `Seeded ${result.counts.creators} creators, ${result.counts.posts} posts and ${result.counts.files} files in ${result.seconds.toFixed(1)} s.`,
  );
  console.log('Accounts:');
  for (const account of result.credentials) console.log(`  ${account.role.padEnd(13)} ${account.username} / ${account.password}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
