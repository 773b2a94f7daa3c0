/**
 * Stable paging (issue 17): a creator's listing and the global recent listing at deep positions, paged
 * by offset (LIMIT 50 OFFSET n, the kemono parameter) and by cursor (the keyset after the post at n-1),
 * in the same run over one generated archive: `npm run bench -- paging`, or `npx tsx bench/paging.ts`
 * alone. Median of RUNS runs per query, in milliseconds. Prints one JSON object.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, openDatabase } from '../api/data/db.ts';
import { inTransaction } from '../api/data/store.ts';
import { upsertCreator } from '../api/data/creators.ts';
import { archiveCursorOf, listCreatorPosts, listRecentPosts, upsertPost } from '../api/data/posts.ts';
import { PAGE_SIZE } from '../shared/constants.ts';

const POSTS = Number(process.env.PAGING_BENCH_POSTS ?? 200_000);
const DEPTHS = [0, 1_000, 10_000, 50_000, 100_000, POSTS - PAGE_SIZE].filter((depth) => depth < POSTS);
const RUNS = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] * 1000) / 1000;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

export async function pagingBenchmark(): Promise<unknown> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-paging-bench-'));
  try {
    const db = openDatabase(path.join(dir, 'trove.sqlite'));
    migrate(db);
    const seedStart = Date.now();
    await upsertCreator(db, { service: 'patreon', id: 'big', name: 'Big' });
    for (let from = 0; from < POSTS; from += 10_000) {
      await inTransaction(db, async (db) => {
        for (let n = from; n < Math.min(POSTS, from + 10_000); n++) {
          // Two posts a minute (equal dates happen), every 97th undated.
          const at = new Date(Date.UTC(2020, 0, 1) + Math.floor(n / 2) * 60_000).toISOString().slice(0, 19);
          await upsertPost(db, {
            service: 'patreon',
            user: 'big',
            id: String(n),
            title: `Post ${n}`,
            published: n % 97 ? at : null,
            added: at,
          });
        }
      });
    }
    const seedSeconds = (Date.now() - seedStart) / 1000;
    db.exec('ANALYZE');
    const rows = [];
    for (const depth of DEPTHS) {
      const creatorBefore = depth > 0 ? (await listCreatorPosts(db, 'patreon', 'big', depth - 1, 1))[0] : undefined;
      const recentBefore = depth > 0 ? (await listRecentPosts(db, depth - 1, 1))[0] : undefined;
      const recentCursor = recentBefore ? (await archiveCursorOf(db, recentBefore))! : undefined;
      const creatorCursor = creatorBefore ? { published: creatorBefore.published, id: creatorBefore.id } : undefined;
      rows.push({
        depth,
        creator_offset_ms: await timed(() => listCreatorPosts(db, 'patreon', 'big', depth, PAGE_SIZE)),
        creator_cursor_ms: creatorCursor ? await timed(() => listCreatorPosts(db, 'patreon', 'big', 0, PAGE_SIZE, creatorCursor)) : null,
        recent_offset_ms: await timed(() => listRecentPosts(db, depth, PAGE_SIZE)),
        recent_cursor_ms: recentCursor ? await timed(() => listRecentPosts(db, 0, PAGE_SIZE, recentCursor)) : null,
      });
    }
    db.close();
    return { posts: POSTS, seed_seconds: seedSeconds, runs: RUNS, cpus: os.cpus().length, rows };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve('bench/paging.ts')) {
  console.log(JSON.stringify(await pagingBenchmark()));
}
