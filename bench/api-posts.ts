/**
 * API throughput for a creator's posts (`GET /api/v1/{service}/user/{id}/posts`, first page and a deep
 * offset) on `npm start` over the demo archive, against a bare node:http server answering the same JSON
 * in the same run: each path on the SQLite file then on the bare server, then (unless BENCH_POSTGRES=0)
 * the same paths with the same archive copied into a throwaway PostgreSQL cluster (DATABASE_URL). The
 * figure the move of the data layer to the asynchronous store is held to (docs/benchmarks.md) is
 * SQLite's ratio to the bare server, before and after, on the same machine. Each Trove load also reports
 * the server's CPU time per request (/proc/<pid>/stat), steadier than requests per second on a machine
 * shared with other work.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { dataPaths } from '../api/config.ts';
import { openDatabase } from '../api/data/db.ts';
import { copyToPostgres } from '../api/data/copy-to-postgres.ts';
import { startThrowawayCluster } from '../scripts/lib/postgres-cluster.ts';
import { archiveDir } from './lib.ts';
import { type LoadResult, load, startBare, startTrove, stop } from './serve.ts';

const PORT = 4571;
const BARE_PORT = 4572;
const POSTGRES_PORT = 4573;

/** Each path's answer and load on a running server (with its CPU time per request). */
async function measure(server: ChildProcess, port: number, paths: string[]): Promise<{ body: string; load: LoadResult }[]> {
  const out = [];
  for (const url of paths) {
    const body = await fetch(`http://127.0.0.1:${port}${url}`).then((response) => response.text());
    out.push({ body, load: await load(`http://127.0.0.1:${port}${url}`, { server }) });
  }
  return out;
}

export async function apiPostsBenchmark() {
  const dataDir = archiveDir('api-posts');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-'));
  try {
    // SQLite (the first run seeds the demo archive into the data folder), each path then the bare
    // server answering the same bytes, as before the PostgreSQL run was added.
    const server = await startTrove(dataDir, PORT);
    const results = [];
    try {
      const db = new Database(dataPaths(dataDir).database, { readonly: true });
      const creator = db
        .prepare(`SELECT service, "user" AS id, count(*) AS posts FROM posts GROUP BY service, "user" ORDER BY posts DESC LIMIT 1`)
        .get() as { service: string; id: string; posts: number };
      db.close();
      const deep = Math.max(0, Math.floor((creator.posts - 1) / 50) * 50);
      for (const offset of [0, deep]) {
        const url = `/api/v1/${creator.service}/user/${creator.id}/posts${offset ? `?o=${offset}` : ''}`;
        const [{ body, load: sqlite }] = await measure(server, PORT, [url]);
        const file = path.join(scratch, `posts-${offset}.json`);
        fs.writeFileSync(file, body);
        const bare = await startBare(file, BARE_PORT, 'application/json');
        try {
          const baseline = await load(`http://127.0.0.1:${BARE_PORT}/`);
          results.push({ url, creatorPosts: creator.posts, body, sqlite, bare: baseline });
        } finally {
          await stop(bare);
        }
      }
    } finally {
      await stop(server);
    }
    const postgres =
      process.env.BENCH_POSTGRES === '0'
        ? undefined
        : await postgresLoads(
            dataDir,
            results.map((result) => result.url),
          );
    return results.map(({ body, ...result }, i) => ({
      ...result,
      ratio: result.sqlite.requestsPerSecond / result.bare.requestsPerSecond,
      ...(postgres && {
        // The figures compare only if both engines give the same answer.
        sameAnswerOnPostgres: postgres[i].body === body,
        postgres: postgres[i].load,
        postgresRatio: postgres[i].load.requestsPerSecond / result.bare.requestsPerSecond,
      }),
    }));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The same paths on PostgreSQL: the archive copied (npm run db:copy's function) into a throwaway
 * cluster, served by `npm start` on the same data folder with DATABASE_URL. BENCH_POSTGRES=0 skips it
 * (a machine without PostgreSQL, or a run compared with a commit that had no PostgreSQL).
 */
async function postgresLoads(dataDir: string, paths: string[]): Promise<{ body: string; load: LoadResult }[]> {
  const cluster = await startThrowawayCluster({ fast: true });
  try {
    const source = openDatabase(dataPaths(dataDir).database, { readonly: true });
    const pool = new pg.Pool({ connectionString: cluster.url, max: 2 });
    try {
      await copyToPostgres(source, pool);
    } finally {
      await pool.end();
      source.close();
    }
    const server = await startTrove(dataDir, POSTGRES_PORT, '/', { DATABASE_URL: cluster.url });
    try {
      return await measure(server, POSTGRES_PORT, paths);
    } finally {
      await stop(server);
    }
  } finally {
    await cluster.stop();
  }
}
