/**
 * Post search over the 1,000,000-post benchmark archive (the rebuild benchmark's; run that first):
 * server-side latency of searchPosts (what GET /api/v1/posts runs) per class of query, and the API's
 * latency at 16 concurrent clients. Prints one JSON object.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { createApp } from '../api/app.ts';
import { migrate, openDatabase } from '../api/data/db.ts';
import { countPosts } from '../api/data/posts.ts';
import { searchPosts } from '../api/data/post-search.ts';
import { readConfig } from '../api/config.ts';
import { PAGE_SIZE } from '../shared/constants.ts';
import { archiveDir } from './lib.ts';

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

export async function searchBenchmark(dataDir = archiveDir('rebuild-1000000')) {
  const file = path.join(dataDir, 'trove.sqlite');
  if (!fs.existsSync(file)) throw new Error(`No archive at ${file}: run \`npm run bench -- rebuild\` first (it seeds 1,000,000 posts).`);
  // Bring an archive seeded by an older build up to date (the short-word index is filled here once).
  const writable = openDatabase(file);
  const migrated = migrate(writable);
  writable.close();
  if (migrated.from !== migrated.to) console.error(`Migrated the archive from version ${migrated.from} to ${migrated.to}.`);
  const db = openDatabase(file, { readonly: true });
  const posts = await countPosts(db);
  const serverSide: Record<string, { p50: number; p95: number; max: number; slowest: string }> = {};
  for (const [name, queries] of Object.entries(QUERY_CLASSES)) {
    const times: { ms: number; q: string }[] = [];
    for (const q of queries) {
      await searchPosts(db, { q, limit: PAGE_SIZE }); // page cache warm, as on a running server
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        await searchPosts(db, { q, limit: PAGE_SIZE });
        times.push({ ms: performance.now() - started, q });
      }
    }
    times.sort((a, b) => a.ms - b.ms);
    const ms = times.map((t) => t.ms);
    serverSide[name] = {
      p50: round(percentile(ms, 50)),
      p95: round(percentile(ms, 95)),
      max: round(ms[ms.length - 1]),
      slowest: times[times.length - 1].q,
    };
    console.error(`${name}: p95 ${serverSide[name].p95} ms (slowest "${serverSide[name].slowest}")`);
  }

  // The API over HTTP, 16 clients cycling through the one- and two-word queries.
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
  server.close();
  db.close();
  return {
    posts,
    serverSide,
    api: {
      connections: 16,
      requestsPerSecond: Math.round(api.requests.average),
      latencyMs: { p50: api.latency.p50, p90: api.latency.p90, p97_5: api.latency.p97_5, p99: api.latency.p99 },
      non2xx: api.non2xx,
    },
  };
}
