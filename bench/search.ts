/**
 * Post search over the 1,000,000-post benchmark archive (the rebuild benchmark's; run that first), on
 * both engines in one run: the SQLite file and its copy in the benchmarks' PostgreSQL cluster
 * (postgresCopyOf, copied on the first run). Server-side latency of searchPosts (what GET /api/v1/posts
 * runs) per class of query and engine, the runs of the two engines interleaved so that both see the same
 * machine load; whether both engines gave the same page and count for every query; then the API's latency
 * at 16 concurrent clients on each engine. Prints one JSON object.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { createApp } from '../api/app.ts';
import { migrate, openDatabase } from '../api/data/db.ts';
import { closeArchiveDatabase, openArchiveDatabase } from '../api/data/open.ts';
import type { Engine, Store } from '../api/data/store.ts';
import { countPosts } from '../api/data/posts.ts';
import { searchPosts, type SearchResult } from '../api/data/post-search.ts';
import { readConfig } from '../api/config.ts';
import { PAGE_SIZE } from '../shared/constants.ts';
import { archiveDir, machineLoad, postgresCopyOf } from './lib.ts';

/** Queries a visitor types, by class; several match nothing (the worst case for a scan). */
export const QUERY_CLASSES: Record<string, string[]> = {
  'one word': ['dragon', 'lighthouse', 'witch', 'sketch', 'commission', 'timelapse', 'Leuchtturm', 'маяк', 'xylophone', 'harbour'],
  'two words': [
    'dragon egg',
    'night market',
    'sketch dump',
    'colour study',
    'winter witch',
    'paper boat',
    'robot cat',
    'comic page',
    'forest zebra',
    'quiet harbour',
  ],
  'common words': ['the', 'new', 'part', 'reward', 'weekly'],
  prefixes: ['dra', 'ske', 'illus', 'wit', 'ligh', 'comm'],
  'two characters': ['ca', 'dr', 'of', 'zq', 'ok', '#1'],
  CJK: ['夜', '猫', '夜市', '灯台', '森の精霊', '竜の卵', '机器猫', '등대', '魔女', '鯨'],
};

const RUNS = 5;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

const ENGINES: Engine[] = ['sqlite', 'postgres'];

interface ClassFigures {
  p50: number;
  p95: number;
  max: number;
  slowest: string;
}

/** What a search answered, for comparing the engines: the page's posts in order, the count, capped. */
function answerOf(result: SearchResult): string {
  return JSON.stringify([result.posts.map((post) => `${post.service}/${post.user}/${post.id}`), result.count, result.capped]);
}

function figuresOf(times: { ms: number; q: string }[]): ClassFigures {
  times.sort((a, b) => a.ms - b.ms);
  const ms = times.map((t) => t.ms);
  return {
    p50: round(percentile(ms, 50)),
    p95: round(percentile(ms, 95)),
    max: round(ms[ms.length - 1]),
    slowest: times[times.length - 1].q,
  };
}

/** The API over HTTP on one engine's store: 16 clients cycling through the one- and two-word queries for 10 s. */
async function apiLatency(db: Store, dataDir: string) {
  const app = createApp({ db, config: readConfig({ DATA_DIR: dataDir, TROVE_ENV: 'production' }), logger: { error() {} } });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const paths = [...QUERY_CLASSES['one word'], ...QUERY_CLASSES['two words']].map((q) => `/api/v1/posts?q=${encodeURIComponent(q)}`);
  const api = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 16,
    duration: 10,
    requests: paths.map((p) => ({ method: 'GET' as const, path: p })),
  });
  await new Promise((resolve) => server.close(resolve));
  return {
    connections: 16,
    requestsPerSecond: Math.round(api.requests.average),
    latencyMs: { p50: api.latency.p50, p90: api.latency.p90, p97_5: api.latency.p97_5, p99: api.latency.p99 },
    non2xx: api.non2xx,
  };
}

export async function searchBenchmark(name = 'rebuild-1000000') {
  const dataDir = archiveDir(name);
  const file = path.join(dataDir, 'trove.sqlite');
  if (!fs.existsSync(file)) throw new Error(`No archive at ${file}: run \`npm run bench -- rebuild\` first (it seeds 1,000,000 posts).`);
  // Bring an archive seeded by an older build up to date (the short-word index is filled here once).
  const writable = openDatabase(file);
  const migrated = migrate(writable);
  writable.close();
  if (migrated.from !== migrated.to) console.error(`Migrated the archive from version ${migrated.from} to ${migrated.to}.`);
  const { cluster, copySeconds } = await postgresCopyOf(name);
  const stores: Record<Engine, Store> = {
    sqlite: openDatabase(file, { readonly: true }),
    postgres: await openArchiveDatabase({ databaseUrl: cluster.url, dataDir }),
  };
  try {
    const posts = { sqlite: await countPosts(stores.sqlite), postgres: await countPosts(stores.postgres) };
    const loadBefore = machineLoad();
    const serverSide: Record<Engine, Record<string, ClassFigures>> = { sqlite: {}, postgres: {} };
    /** Queries whose first page or count differ between the engines. */
    const differing: string[] = [];
    for (const [className, queries] of Object.entries(QUERY_CLASSES)) {
      const times: Record<Engine, { ms: number; q: string }[]> = { sqlite: [], postgres: [] };
      for (const q of queries) {
        const answers: string[] = [];
        for (const engine of ENGINES) answers.push(answerOf(await searchPosts(stores[engine], { q, limit: PAGE_SIZE }))); // caches warm, as on a running server
        if (answers[0] !== answers[1]) differing.push(q);
        for (let run = 0; run < RUNS; run++) {
          for (const engine of run % 2 === 0 ? ENGINES : [...ENGINES].reverse()) {
            const started = performance.now();
            await searchPosts(stores[engine], { q, limit: PAGE_SIZE });
            times[engine].push({ ms: performance.now() - started, q });
          }
        }
      }
      for (const engine of ENGINES) {
        serverSide[engine][className] = figuresOf(times[engine]);
        console.error(
          `${engine} ${className}: p95 ${serverSide[engine][className].p95} ms (slowest "${serverSide[engine][className].slowest}")`,
        );
      }
    }
    const api = { sqlite: await apiLatency(stores.sqlite, dataDir), postgres: await apiLatency(stores.postgres, dataDir) };
    return { posts, copySeconds, machine: { before: loadBefore, after: machineLoad() }, serverSide, differing, api };
  } finally {
    stores.sqlite.sqlite?.close();
    await closeArchiveDatabase(stores.postgres);
    await cluster.stop();
  }
}
