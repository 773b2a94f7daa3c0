/**
 * `npm run db:copy`: the demo archive, seeded into a real SQLite file, copied into a real throwaway
 * PostgreSQL database, has every table's rows there, value for value; identities continue after the
 * copied ids; the command refuses a target that already holds data and a missing or wrong --to.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '@api/config.ts';
import { copyableTables, copyToPostgres } from '@api/data/copy-to-postgres.ts';
import { migrate, openDatabase, type Db } from '@api/data/db.ts';
import { postgresPool } from '@api/data/store.ts';
import { seedDemoArchive } from '../../../scripts/seed/index.ts';
import { startThrowawayCluster, type ThrowawayCluster } from '../../../scripts/lib/postgres-cluster.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Rows as comparable text, in a stable order (Buffers as hex). */
function canonical(rows: Record<string, unknown>[], columns: string[]): string[] {
  return rows
    .map((row) =>
      JSON.stringify(columns.map((column) => (Buffer.isBuffer(row[column]) ? `hex:${row[column].toString('hex')}` : row[column]))),
    )
    .sort();
}

describe('db:copy', () => {
  let dir: string;
  let db: Db;
  let cluster: ThrowawayCluster;
  let pool: pg.Pool;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-copy-'));
    db = openDatabase(dataPaths(dir).database);
    migrate(db);
    await seedDemoArchive(db, { dataDir: dir, creators: 24, posts: 300, seed: 11, images: 4 });
    cluster = await startThrowawayCluster({ fast: true });
    pool = postgresPool(cluster.url, { max: 2 });
  }, 180_000);
  afterAll(async () => {
    await pool?.end();
    await cluster?.stop();
    db?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies every table of the demo archive, row for row', async () => {
    const seen: string[] = [];
    const summary = await copyToPostgres(db, pool, { onTable: (table) => seen.push(table) });
    const tables = copyableTables(db);
    expect(seen).toEqual([...tables.map((table) => table.name), 'post_search']);
    expect(summary.tables.find((table) => table.name === 'posts')?.rows).toBe(300);
    let compared = 0;
    for (const table of tables) {
      const columns = table.columns;
      const list = columns.map((column) => `"${column}"`).join(', ');
      const source = db.prepare(`SELECT ${list} FROM "${table.name}"`).all() as Record<string, unknown>[];
      const copied = (await pool.query(`SELECT ${list} FROM "${table.name}"`)).rows as Record<string, unknown>[];
      expect(copied.length, table.name).toBe(source.length);
      expect(canonical(copied, columns), table.name).toEqual(canonical(source, columns));
      compared += source.length;
    }
    expect(compared).toBeGreaterThan(1000);
    // PostgreSQL's kept count of the posts (migration 015) follows the copied rows.
    expect((await pool.query('SELECT sum(n) AS n FROM post_count')).rows).toEqual([{ n: 300 }]);

    // The tag counts' triggers, off while copying, are on again: a new tag row counts.
    await pool.query(`INSERT INTO post_tags (service, "user", post_id, tag, published, post_seq)
      SELECT service, "user", id, 'after-copy', published, seq FROM posts ORDER BY seq LIMIT 1`);
    expect((await pool.query("SELECT post_count FROM tag_counts WHERE tag = 'after-copy'")).rows).toEqual([{ post_count: 1 }]);
    await pool.query("DELETE FROM post_tags WHERE tag = 'after-copy'");
  }, 120_000);

  it("writes PostgreSQL's search table from the posts: the same posts match as in SQLite's FTS5 tables", async () => {
    expect((await pool.query('SELECT count(*) AS n FROM post_search')).rows[0].n).toBe(300);
    const sqliteSeqs = (sql: string, match: string) =>
      (db.prepare(sql).all(match) as { seq: number }[]).map((row) => row.seq).sort((a, b) => a - b);
    const postgresSeqs = async (sql: string, value: string) =>
      (await pool.query<{ seq: number }>(sql, [value])).rows.map((row) => row.seq).sort((a, b) => a - b);
    const titles = (db.prepare('SELECT title FROM posts ORDER BY seq LIMIT 40').all() as { title: string }[]).map((row) => row.title);
    const long = [...new Set(titles.flatMap((title) => title.split(/\s+/)).filter((word) => /^[\p{L}]{4,}$/u.test(word)))].slice(0, 8);
    expect(long.length).toBeGreaterThan(3);
    for (const word of long) {
      const fts = sqliteSeqs('SELECT rowid AS seq FROM posts_fts WHERE posts_fts MATCH ?', `"${word}"`);
      expect(fts.length, word).toBeGreaterThan(0);
      expect(await postgresSeqs(`SELECT seq FROM post_search WHERE search_text ILIKE '%' || $1 || '%'`, word), word).toEqual(fts);
    }
    for (const prefix of ['th', 'dr', 'sk', 'wi']) {
      const fts = sqliteSeqs('SELECT rowid AS seq FROM posts_words WHERE posts_words MATCH ?', `"${prefix}"*`);
      expect(await postgresSeqs(`SELECT seq FROM post_search WHERE words @@ ($1 || ':*')::tsquery`, prefix), prefix).toEqual(fts);
    }
  });

  it('continues identities after the copied ids', async () => {
    const { rows } = await pool.query<{ id: number }>(
      `INSERT INTO notifications (account_id, type, extra_info, is_seen, created_at)
       SELECT id, 1, NULL, 0, '2030-01-01T00:00:00.000Z' FROM accounts ORDER BY id LIMIT 1 RETURNING id`,
    );
    const highest = (db.prepare('SELECT max(id) AS id FROM notifications').get() as { id: number }).id;
    expect(rows[0].id).toBeGreaterThan(highest);
  });

  it('refuses a target that already holds data, and a missing or wrong --to', () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/db-copy.ts', ...args], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dir },
        encoding: 'utf8',
      });
    const full = run(['--to', cluster.url]);
    expect(full.status).toBe(1);
    expect(full.stderr).toContain('db:copy only fills an empty one');
    expect(run([]).status).toBe(2);
    const wrong = run(['--to', 'mysql://example']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('--to must be a postgres:// URL');
  }, 60_000);
});
