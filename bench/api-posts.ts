/**
 * API throughput for a creator's posts (`GET /api/v1/{service}/user/{id}/posts`, first page and a deep
 * offset) on `npm start` over the demo archive, against a bare node:http server answering the same JSON
 * in the same run. It is the figure the move of the data layer to the asynchronous store is held to
 * (docs/benchmarks.md): the ratio to the bare server, before and after, on the same machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { dataPaths } from '../api/config.ts';
import { archiveDir } from './lib.ts';
import { load, startBare, startTrove, stop } from './serve.ts';

const PORT = 4571;
const BARE_PORT = 4572;

export async function apiPostsBenchmark() {
  const dataDir = archiveDir('api-posts');
  const server = await startTrove(dataDir, PORT);
  const results = [];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-'));
  try {
    const db = new Database(dataPaths(dataDir).database, { readonly: true });
    const creator = db
      .prepare(`SELECT service, "user" AS id, count(*) AS posts FROM posts GROUP BY service, "user" ORDER BY posts DESC LIMIT 1`)
      .get() as { service: string; id: string; posts: number };
    db.close();
    const deep = Math.max(0, Math.floor((creator.posts - 1) / 50) * 50);
    for (const offset of [0, deep]) {
      const url = `/api/v1/${creator.service}/user/${creator.id}/posts${offset ? `?o=${offset}` : ''}`;
      const body = await fetch(`http://127.0.0.1:${PORT}${url}`).then((response) => response.text());
      const file = path.join(scratch, `posts-${offset}.json`);
      fs.writeFileSync(file, body);
      const trove = await load(`http://127.0.0.1:${PORT}${url}`);
      const bare = await startBare(file, BARE_PORT, 'application/json');
      try {
        const baseline = await load(`http://127.0.0.1:${BARE_PORT}/`);
        results.push({
          url,
          creatorPosts: creator.posts,
          trove,
          bare: baseline,
          ratio: trove.requestsPerSecond / baseline.requestsPerSecond,
        });
      } finally {
        await stop(bare);
      }
    }
  } finally {
    await stop(server);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return results;
}
