/**
 * The PostgreSQL schema against the SQLite one: a real throwaway cluster migrated by migratePostgres and
 * a real SQLite file migrated by migrate() must end with the same tables, columns, keys and indexes
 * (FTS5 tables excepted: their replacement is checked on its own), the migrations must be idempotent
 * and safe to run concurrently, and the triggers and identity columns must behave as SQLite's do.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '@api/data/migrations/index.ts';
import { POSTGRES_MIGRATIONS } from '@api/data/migrations/postgres/index.ts';
import { migratePostgres, resetIdentitySequences } from '@api/data/postgres-migrate.ts';
import { startThrowawayCluster, type ThrowawayCluster } from '../../../scripts/lib/postgres-cluster.ts';
import { tempSqliteDb, type TempDb } from './helpers.ts';

/** SQLite's FTS5 tables and the PostgreSQL index that answers their searches instead. */
const SEARCH_REPLACEMENTS: Record<string, string> = {
  posts_fts: 'post_search_trigrams',
  posts_words: 'post_search_words',
};

/** PostgreSQL's own indexes, for orders and lookups SQLite serves from its others (migrations 015 and 016). */
const POSTGRES_ONLY_INDEXES = ['posts_creator_newest', 'post_tags_creator_newest', 'search_terms_term', 'search_terms_trigrams'];

/** PostgreSQL's data types that hold what a column of each SQLite declared type holds. */
const TYPE_FAMILIES: Record<string, string[]> = {
  INTEGER: ['integer', 'bigint'],
  TEXT: ['text'],
  REAL: ['double precision'],
  BLOB: ['bytea'],
};

const LATEST = MIGRATIONS[MIGRATIONS.length - 1].version;

interface SqliteColumn {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

interface PgColumn {
  table_name: string;
  column_name: string;
  data_type: string;
  is_nullable: 'YES' | 'NO';
  column_default: string | null;
  collation_name: string | null;
  is_identity: 'YES' | 'NO';
}

interface IndexShape {
  table: string;
  unique: boolean;
  partial: boolean;
  columns: string[];
}

let cluster: ThrowawayCluster;
let pool: pg.Pool;
let sqlite: TempDb;

beforeAll(async () => {
  cluster = await startThrowawayCluster({ fast: true });
  pool = new pg.Pool({ connectionString: cluster.url, max: 4 });
  sqlite = tempSqliteDb();
  await migratePostgres(pool);
});

afterAll(async () => {
  await pool?.end();
  await cluster?.stop();
  sqlite?.cleanup();
});

/** A fresh database in the cluster, and a pool on it (ended by the caller). */
async function freshDatabase(name: string): Promise<pg.Pool> {
  await pool.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  return new pg.Pool({ connectionString: cluster.url.replace(/\/[^/]+$/, `/${name}`), max: 2 });
}

/** SQLite's tables less the FTS5 tables, their shadow tables and SQLite's own. */
function sqliteTables(): string[] {
  const all = sqlite.db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
    name: string;
    sql: string;
  }[];
  const fts = all.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
  expect(fts.sort()).toEqual(Object.keys(SEARCH_REPLACEMENTS).sort());
  return all.map((t) => t.name).filter((name) => !name.startsWith('sqlite_') && !fts.some((f) => name === f || name.startsWith(`${f}_`)));
}

function sqliteColumns(table: string): SqliteColumn[] {
  return sqlite.db.prepare(`PRAGMA table_info(${JSON.stringify(table)})`).all() as SqliteColumn[];
}

async function pgColumns(): Promise<Map<string, PgColumn[]>> {
  const { rows } = await pool.query<PgColumn>(
    `SELECT table_name, column_name, data_type, is_nullable, column_default, collation_name, is_identity
       FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  const tables = new Map<string, PgColumn[]>();
  for (const row of rows) tables.set(row.table_name, [...(tables.get(row.table_name) ?? []), row]);
  return tables;
}

async function pgPrimaryKey(table: string): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT a.attname AS name
       FROM pg_index x CROSS JOIN LATERAL unnest(x.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
      WHERE x.indrelid = $1::regclass AND x.indisprimary ORDER BY k.ord`,
    [pg.escapeIdentifier(table)],
  );
  return rows.map((r) => r.name);
}

/** A default as a comparable string: the time-of-now defaults as NOW, literals without their casts. */
function normalizeDefault(value: string | null): string | null {
  if (value === null) return null;
  if (/strftime|to_char/.test(value)) return 'NOW';
  return value.replace(/::[a-z ]+$/, '');
}

describe('PostgreSQL migrations', () => {
  it('have the versions and names of the SQLite migrations, in order', () => {
    expect(POSTGRES_MIGRATIONS.map((m) => [m.version, m.name])).toEqual(MIGRATIONS.map((m) => [m.version, m.name]));
  });

  it('give every SQLite table with the same columns, types, nullability, defaults and primary key', async () => {
    const columns = await pgColumns();
    const tables = sqliteTables();
    expect(tables.length).toBeGreaterThan(40);
    for (const table of tables) {
      const lite = sqliteColumns(table);
      const foreign = new Set(foreignKeys(table).map((fk) => fk.from));
      const post = columns.get(table);
      expect(post, table).toBeDefined();
      expect(
        post!.map((c) => c.column_name),
        table,
      ).toEqual(lite.map((c) => c.name));
      for (const [i, column] of lite.entries()) {
        const twin = post![i];
        const where = `${table}.${column.name}`;
        expect(TYPE_FAMILIES[column.type], where).toContain(twin.data_type);
        // A SQLite primary key column may hold NULL unless declared NOT NULL (a legacy quirk no writer uses).
        expect(twin.is_nullable === 'NO', where).toBe(column.notnull === 1 || column.pk > 0);
        expect(normalizeDefault(twin.column_default), where).toBe(normalizeDefault(column.dflt_value));
        if (twin.data_type === 'text') expect(twin.collation_name, where).toBe('C');
        // SQLite's rowid aliases (INTEGER PRIMARY KEY) are exactly the identity columns, less those that
        // take their value from a foreign key (favorites_news.account_id).
        const rowid = column.type === 'INTEGER' && column.pk === 1 && lite.filter((c) => c.pk > 0).length === 1;
        const generated = rowid && !/WITHOUT ROWID/i.test(tableSql(table)) && !foreign.has(column.name);
        expect(twin.is_identity === 'YES', where).toBe(generated);
      }
      const key = lite.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
      expect(await pgPrimaryKey(table), table).toEqual(key.map((c) => c.name));
    }
  });

  it('give the same foreign keys, typed as what they reference, and as many CHECK constraints per table', async () => {
    const actions: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };
    const { rows } = await pool.query<{
      table: string;
      contype: string;
      cols: string[];
      target: string | null;
      refs: string[];
      del: string;
      types: string[];
      ref_types: string[];
    }>(
      `SELECT c.conrelid::regclass::text AS table, c.contype, c.confrelid::regclass::text AS target, c.confdeltype AS del,
              array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, o)
                      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS cols,
              array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, o)
                      JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS refs,
              array(SELECT format_type(a.atttypid, a.atttypmod) FROM unnest(c.conkey) WITH ORDINALITY k(n, o)
                      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS types,
              array(SELECT format_type(a.atttypid, a.atttypmod) FROM unnest(c.confkey) WITH ORDINALITY k(n, o)
                      JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS ref_types
         FROM pg_constraint c JOIN pg_namespace s ON s.oid = c.connamespace
        WHERE s.nspname = current_schema() AND c.contype IN ('f', 'c')`,
    );
    for (const table of sqliteTables()) {
      const lite = foreignKeys(table);
      const grouped = new Map<number, typeof lite>();
      for (const row of lite) grouped.set(row.id, [...(grouped.get(row.id) ?? []), row]);
      const expected = [...grouped.values()].map(
        (fk) => `(${fk.map((c) => c.from)}) -> ${fk[0].table}(${fk.map((c) => c.to)}) ON DELETE ${fk[0].on_delete}`,
      );
      const mine = rows.filter((r) => r.table.replace(/"/g, '') === table);
      const actual = mine
        .filter((r) => r.contype === 'f')
        .map((r) => `(${r.cols}) -> ${r.target!.replace(/"/g, '')}(${r.refs}) ON DELETE ${actions[r.del]}`);
      expect(actual.sort(), table).toEqual(expected.sort());
      // A reference has the type of what it references (no integer column pointing at a bigint id).
      for (const fk of mine.filter((r) => r.contype === 'f')) expect(fk.types, `${table} -> ${fk.target}`).toEqual(fk.ref_types);
      const checks = (tableSql(table).match(/\bCHECK \(/g) ?? []).length;
      expect(mine.filter((r) => r.contype === 'c').length, table).toBe(checks);
    }
  });

  it('give every named SQLite index a PostgreSQL index of the same name and shape, and no other', async () => {
    const pgIndexes = await postgresIndexes();
    const named = sqlite.db.prepare("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all() as {
      name: string;
      tbl_name: string;
    }[];
    expect(named.length).toBeGreaterThan(50);
    for (const { name, tbl_name: table } of named) {
      expect(pgIndexes.get(name), name).toEqual(sqliteIndex(table, name));
    }
    const expected = [...named.map((i) => i.name), ...Object.values(SEARCH_REPLACEMENTS), ...POSTGRES_ONLY_INDEXES].sort();
    expect([...pgIndexes.keys()].sort()).toEqual(expected);
  });

  it('replace the FTS5 tables with post_search: trigram substrings (CJK too) and short-word prefixes, through the indexes', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO creators (service, id, name, indexed, updated) VALUES ('fanbox', 'c1', 'C', 0, 0)`);
      await client.query(`INSERT INTO posts (service, "user", id, seq, added) VALUES ('fanbox', 'c1', 'p1', 1, '2024-01-01T00:00:00')`);
      await client.query(
        `INSERT INTO post_search (seq, search_text, words) VALUES (1, E'バイノーラル音声\\nA CAFÉ in town', array_to_tsvector($1::text[]))`,
        [['a', 'cafe', 'in', 'town', '音', '声', '音声']],
      );
      const find = async (where: string, value: string) =>
        (await client.query(`SELECT seq FROM post_search WHERE ${where}`, [value])).rows.map((r) => Number(r.seq));
      expect(await find('search_text ILIKE $1', '%イノー%')).toEqual([1]);
      expect(await find('search_text ILIKE $1', '%café%')).toEqual([1]);
      expect(await find('search_text ILIKE $1', '%声A%')).toEqual([]);
      // 014: the same tests on the text lower-cased when written, which the trigram index now covers.
      expect(await find('search_lower LIKE lower($1)', '%イノー%')).toEqual([1]);
      expect(await find('search_lower LIKE lower($1)', '%CAFÉ%')).toEqual([1]);
      expect(await find('search_lower LIKE lower($1)', '%声A%')).toEqual([]);
      expect(await find('words @@ $1::tsquery', `'ca':*`)).toEqual([1]);
      expect(await find('words @@ $1::tsquery', `'tow':* & 'in':*`)).toEqual([1]);
      expect(await find('words @@ $1::tsquery', `'音声'`)).toEqual([1]);
      expect(await find('words @@ $1::tsquery', `'声音'`)).toEqual([]);
      expect(await find(`words @@ to_tsquery('simple', $1)`, `'CA':*`)).toEqual([1]);
      await client.query('SET LOCAL enable_seqscan = off');
      const plan = async (where: string) =>
        (await client.query(`EXPLAIN SELECT seq FROM post_search WHERE ${where}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(await plan(`search_lower LIKE lower('%イノー%')`)).toContain('post_search_trigrams');
      expect(await plan(`words @@ to_tsquery('simple', '''ca'':*')`)).toContain('post_search_words');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('fill the time defaults in SQLite’s text format, in UTC', async () => {
    sqlite.db.prepare(`INSERT INTO accounts (username, password_hash) VALUES ('time', 'x')`).run();
    const lite = (sqlite.db.prepare(`SELECT created_at FROM accounts WHERE username = 'time'`).get() as { created_at: string }).created_at;
    const { rows } = await pool.query(`INSERT INTO accounts (username, password_hash) VALUES ('time', 'x') RETURNING created_at`);
    await pool.query(`DELETE FROM accounts WHERE username = 'time'`);
    const format = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;
    expect(lite).toMatch(format);
    expect(rows[0].created_at).toMatch(format);
    expect(Math.abs(Date.parse(`${rows[0].created_at}Z`) - Date.parse(`${lite}Z`))).toBeLessThan(5_000);
    expect(Math.abs(Date.parse(`${rows[0].created_at}Z`) - Date.now())).toBeLessThan(5_000);
  });

  it('is a no-op the second time, and two concurrent runs both succeed with each migration applied once', async () => {
    const snapshot = async (on: pg.Pool) =>
      (
        await on.query(
          `SELECT c.relname, c.relkind, count(a.attnum) AS columns FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
            WHERE n.nspname = current_schema() GROUP BY c.relname, c.relkind ORDER BY c.relname`,
        )
      ).rows;
    const before = await snapshot(pool);
    expect(await migratePostgres(pool)).toEqual({ from: LATEST, to: LATEST });
    expect(await snapshot(pool)).toEqual(before);

    // Two processes starting at once: two pools on one fresh database, three callers.
    const a = await freshDatabase('trove_race');
    const b = new pg.Pool({ connectionString: cluster.url.replace(/\/[^/]+$/, '/trove_race'), max: 2 });
    try {
      // Every migration creates tables without IF NOT EXISTS: a migration applied twice would fail a caller.
      const results = await Promise.all([migratePostgres(a), migratePostgres(b), migratePostgres(a)]);
      for (const result of results) expect(result.to).toBe(LATEST);
      expect(results.filter((r) => r.from === 0).length).toBeGreaterThan(0);
      expect((await a.query('SELECT id, version FROM schema_version')).rows).toEqual([{ id: 1, version: LATEST }]);
      expect(await snapshot(b)).toEqual(before);
    } finally {
      await a.end();
      await b.end();
    }
  });

  it('apply each migration in its own transaction: a failing one leaves no trace and stops the run', async () => {
    const db = await freshDatabase('trove_failing');
    const first = { version: 1, name: 'first', sql: 'CREATE TABLE first_table (x integer)' };
    const failing = { version: 2, name: 'second', sql: 'CREATE TABLE second_table (x integer); SELECT 1 / 0' };
    const third = { version: 3, name: 'third', sql: 'CREATE TABLE third_table (x integer)' };
    const tables = async () =>
      (await db.query(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`)).rows.map(
        (r) => r.tablename,
      );
    try {
      await expect(migratePostgres(db, [first, failing, third])).rejects.toThrow(/division by zero/);
      expect(await tables()).toEqual(['first_table', 'schema_version']);
      expect((await db.query('SELECT version FROM schema_version')).rows).toEqual([{ version: 1 }]);
      const fixed = { ...failing, sql: 'CREATE TABLE second_table (x integer)' };
      expect(await migratePostgres(db, [first, fixed, third])).toEqual({ from: 1, to: 3 });
      expect(await tables()).toEqual(['first_table', 'schema_version', 'second_table', 'third_table']);
    } finally {
      await db.end();
    }
  });

  it('keep tag_counts in step with post_tags through their triggers', async () => {
    const client = await pool.connect();
    const counts = async () =>
      Object.fromEntries(
        (await client.query<{ tag: string; post_count: number }>('SELECT tag, post_count FROM tag_counts ORDER BY tag')).rows.map((r) => [
          r.tag,
          r.post_count,
        ]),
      );
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO creators (service, id, name, indexed, updated) VALUES ('fanbox', 'c1', 'C', 0, 0)`);
      for (const [id, seq] of [
        ['p1', 1],
        ['p2', 2],
      ] as const) {
        await client.query(`INSERT INTO posts (service, "user", id, seq, added) VALUES ('fanbox', 'c1', $1, $2, '2024-01-01T00:00:00')`, [
          id,
          seq,
        ]);
      }
      const tag = (post: string, seq: number, name: string) =>
        client.query(`INSERT INTO post_tags (service, "user", post_id, tag, post_seq) VALUES ('fanbox', 'c1', $1, $2, $3)`, [
          post,
          name,
          seq,
        ]);
      await tag('p1', 1, 'art');
      await tag('p1', 1, 'sketch');
      await tag('p2', 2, 'art');
      expect(await counts()).toEqual({ art: 2, sketch: 1 });
      await client.query(`DELETE FROM post_tags WHERE post_id = 'p1' AND tag = 'art'`);
      expect(await counts()).toEqual({ art: 1, sketch: 1 });
      await client.query(`UPDATE post_tags SET tag = 'ink' WHERE tag = 'sketch'`);
      expect(await counts()).toEqual({ art: 1, ink: 1 });
      await client.query(`DELETE FROM posts WHERE id = 'p2'`);
      expect(await counts()).toEqual({ ink: 1 });
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('keep the audit log append-only', async () => {
    const { rows } = await pool.query(`INSERT INTO audit_log (action, target) VALUES ('flag.clear', 'fanbox/c1') RETURNING id`);
    const id = Number(rows[0].id);
    const refused = 'the audit log is append-only';
    await expect(pool.query(`UPDATE audit_log SET target = 'forged' WHERE id = $1`, [id])).rejects.toThrow(refused);
    await expect(pool.query('DELETE FROM audit_log WHERE id = $1', [id])).rejects.toThrow(refused);
    await expect(pool.query('DELETE FROM audit_log')).rejects.toThrow(refused);
    await expect(pool.query('TRUNCATE audit_log')).rejects.toThrow(refused);
    await expect(pool.query(`INSERT INTO audit_log (id, action, target) VALUES ($1, 'x', 'y')`, [id])).rejects.toThrow(refused);
    await expect(
      pool.query(`INSERT INTO audit_log (id, action, target) VALUES ($1, 'x', 'y') ON CONFLICT (id) DO UPDATE SET target = 'y'`, [id]),
    ).rejects.toThrow(refused);
    const kept = await pool.query('SELECT action, target FROM audit_log WHERE id = $1', [id]);
    expect(kept.rows).toEqual([{ action: 'flag.clear', target: 'fanbox/c1' }]);
  });

  it('take explicit ids, then number new rows after them once the sequences are reset', async () => {
    const db = await freshDatabase('trove_ids');
    try {
      await migratePostgres(db);
      await db.query(`INSERT INTO accounts (id, username, password_hash) VALUES (5, 'five', 'x'), (9, 'nine', 'x')`);
      await db.query(`INSERT INTO files (id, hash, size, ext) VALUES (3, 'abc', 1, '.png')`);
      await db.query(`INSERT INTO creators (service, id, name, indexed, updated) VALUES ('fanbox', 'c1', 'C', 0, 0)`);
      await db.query(`INSERT INTO posts (service, "user", id, seq, added) VALUES ('fanbox', 'c1', 'p1', 7, '2024-01-01T00:00:00')`);
      await db.query(
        `INSERT INTO post_revisions (revision_id, service, "user", post_id, data, added) VALUES (40, 'fanbox', 'c1', 'p1', '{}', 'x')`,
      );
      // Before the reset the identity still starts at 1: an id that a copy already used collides.
      await db.query(`INSERT INTO changes (id, kind, action) VALUES (1, 'post', 'add')`);
      await expect(db.query(`INSERT INTO changes (kind, action) VALUES ('post', 'add')`)).rejects.toThrow(/duplicate key/);

      const next = await resetIdentitySequences(db);
      expect(next).toMatchObject({ 'accounts.id': 10, 'files.id': 4, 'post_revisions.revision_id': 41, 'changes.id': 2, 'shares.id': 1 });
      const identity = (
        await db.query(`SELECT table_name || '.' || column_name AS name FROM information_schema.columns
                         WHERE table_schema = current_schema() AND is_identity = 'YES'`)
      ).rows.map((r) => r.name);
      expect(Object.keys(next).sort()).toEqual(identity.sort());

      const inserted = async (sql: string) => Number((await db.query(sql)).rows[0].id);
      expect(await inserted(`INSERT INTO accounts (username, password_hash) VALUES ('ten', 'x') RETURNING id`)).toBe(10);
      expect(await inserted(`INSERT INTO files (hash, size, ext) VALUES ('def', 1, '.png') RETURNING id`)).toBe(4);
      expect(await inserted(`INSERT INTO changes (kind, action) VALUES ('post', 'add') RETURNING id`)).toBe(2);
      expect(
        await inserted(
          `INSERT INTO post_revisions (service, "user", post_id, data, added) VALUES ('fanbox', 'c1', 'p1', '{}', 'x') RETURNING revision_id AS id`,
        ),
      ).toBe(41);
      expect(await inserted(`INSERT INTO shares (name, added) VALUES ('s', 'x') RETURNING id`)).toBe(1);
      // Resetting again moves nothing back.
      expect((await resetIdentitySequences(db))['accounts.id']).toBe(11);
    } finally {
      await db.end();
    }
  });
});

function foreignKeys(table: string): { id: number; table: string; from: string; to: string; on_delete: string }[] {
  return sqlite.db.prepare(`PRAGMA foreign_key_list(${JSON.stringify(table)})`).all() as ReturnType<typeof foreignKeys>;
}

function tableSql(table: string): string {
  return (sqlite.db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as { sql: string }).sql;
}

/** A named SQLite index's table, uniqueness, partiality and key columns ('(expression)' for expressions). */
function sqliteIndex(table: string, name: string): IndexShape {
  const list = sqlite.db.prepare(`PRAGMA index_list(${JSON.stringify(table)})`).all() as {
    name: string;
    unique: number;
    partial: number;
  }[];
  const entry = list.find((i) => i.name === name)!;
  const columns = (
    sqlite.db.prepare(`PRAGMA index_xinfo(${JSON.stringify(name)})`).all() as { name: string | null; desc: number; key: number }[]
  )
    .filter((c) => c.key === 1)
    .map((c) => `${c.name ?? '(expression)'}${c.desc ? ' DESC' : ''}`);
  return { table, unique: entry.unique === 1, partial: entry.partial === 1, columns };
}

/** PostgreSQL's indexes that back no constraint, by name, in the shape of sqliteIndex. */
async function postgresIndexes(): Promise<Map<string, IndexShape>> {
  const { rows } = await pool.query<IndexShape & { name: string }>(
    `SELECT i.relname AS name, t.relname AS table, x.indisunique AS unique, x.indpred IS NOT NULL AS partial,
            array(SELECT coalesce(a.attname, '(expression)') || CASE WHEN x.indoption[k.ord - 1] & 1 = 1 THEN ' DESC' ELSE '' END
                    FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
                    LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum AND k.attnum > 0
                   WHERE k.ord <= x.indnkeyatts ORDER BY k.ord)::text[] AS columns
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema()
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.oid AND c.contype IN ('p', 'u', 'x'))`,
  );
  return new Map(rows.map(({ name, ...shape }) => [name, shape]));
}
