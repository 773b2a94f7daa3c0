/**
 * Copies a SQLite archive into an empty PostgreSQL database (`npm run db:copy`), so that an archive can
 * move when it outgrows one file. Both sides are at the newest migration first; every table is copied
 * row for row (ids kept), parents before children, in one PostgreSQL transaction: a copy that fails
 * leaves the target as empty as it found it. SQLite's FTS5 tables are not copied; PostgreSQL's search
 * tables are filled from the copied posts instead.
 */
import type pg from 'pg';
import type { Db } from './db.ts';
import { migratePostgres, resetIdentitySequences } from './postgres-migrate.ts';
import { postgresSearchRow } from './search-index.ts';

export interface CopyHooks {
  /** Before a table: its name and row count. */
  onTable?: (table: string, rows: number) => void;
  /** After each batch of a table: rows copied so far. */
  onRows?: (table: string, done: number) => void;
}

export interface CopySummary {
  tables: { name: string; rows: number }[];
}

export class TargetNotEmptyError extends Error {}

/**
 * Tables a PostgreSQL trigger fills from another table's rows: copied last, from the source. The copy
 * turns those triggers off meanwhile: it is one transaction, so each post_tags row would update its
 * tag's row again over versions no vacuum can remove yet (quadratic: about 100 rows a second at a
 * million posts).
 */
const FILLED_BY_TRIGGERS = new Set(['tag_counts']);
const TRIGGERS_OFF_WHILE_COPYING = ['post_tags'];
/** PostgreSQL allows 65,535 parameters per statement. */
const MAX_PARAMETERS = 60_000;
const MAX_BATCH_ROWS = 1_000;

interface TableInfo {
  name: string;
  columns: string[];
  /** ORDER BY for a stable read (rowid, or the key of a WITHOUT ROWID table). */
  order: string;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The archive's ordinary tables (no FTS5 or internal ones), parents before the tables referring to them. */
export function copyableTables(db: Db): TableInfo[] {
  const listed = db.prepare(`SELECT name, type, wr FROM pragma_table_list WHERE schema = 'main' ORDER BY name`).all() as {
    name: string;
    type: string;
    wr: number;
  }[];
  const tables = listed.filter((table) => table.type === 'table' && !table.name.startsWith('sqlite_'));
  const names = new Set(tables.map((table) => table.name));
  const parents = new Map<string, string[]>();
  for (const { name } of tables) {
    const references = db.prepare('SELECT DISTINCT "table" AS parent FROM pragma_foreign_key_list(?)').all(name) as { parent: string }[];
    parents.set(
      name,
      references.map((reference) => reference.parent).filter((parent) => parent !== name && names.has(parent)),
    );
  }
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (name: string, path: string[]) => {
    if (placed.has(name)) return;
    if (path.includes(name)) throw new Error(`Foreign keys form a cycle: ${[...path, name].join(' → ')}`);
    for (const parent of parents.get(name) ?? []) visit(parent, [...path, name]);
    placed.add(name);
    ordered.push(name);
  };
  for (const { name } of tables) if (!FILLED_BY_TRIGGERS.has(name)) visit(name, []);
  for (const name of FILLED_BY_TRIGGERS) if (names.has(name)) ordered.push(name);

  return ordered.map((name) => {
    const info = db.prepare('SELECT name, pk FROM pragma_table_info(?) ORDER BY cid').all(name) as { name: string; pk: number }[];
    const withoutRowid = tables.find((table) => table.name === name)?.wr === 1;
    const key = info
      .filter((column) => column.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((column) => quote(column.name));
    return { name, columns: info.map((column) => column.name), order: withoutRowid ? key.join(', ') : 'rowid' };
  });
}

/**
 * Inserts rows (values in column order) with `head` ("INSERT INTO t (a, b)") in multi-row statements of
 * at most batchRows rows; `tuple` writes one row's placeholders (plain by default). @returns rows written
 */
async function insertAll(
  client: pg.PoolClient,
  head: string,
  rows: Iterable<unknown[]>,
  options: { batchRows: number; onRows: (done: number) => void; tuple?: (slots: string[]) => string },
): Promise<number> {
  const tuple = options.tuple ?? ((slots: string[]) => `(${slots.join(', ')})`);
  let batch: unknown[][] = [];
  let done = 0;
  const flush = async () => {
    const values: unknown[] = [];
    const tuples = batch.map((row) =>
      tuple(
        row.map((value) => {
          values.push(value);
          return `$${values.length}`;
        }),
      ),
    );
    await client.query(`${head} VALUES ${tuples.join(', ')}`, values);
    done += batch.length;
    batch = [];
    options.onRows(done);
  };
  for (const row of rows) {
    batch.push(row);
    if (batch.length >= options.batchRows) await flush();
  }
  if (batch.length > 0) await flush();
  return done;
}

/** The tables of the target that already hold rows (an archive is there). */
async function occupiedTables(client: pg.PoolClient, tables: TableInfo[]): Promise<string[]> {
  const occupied: string[] = [];
  for (const table of tables) {
    const { rows } = await client.query(`SELECT EXISTS (SELECT 1 FROM ${quote(table.name)}) AS found`);
    if (rows[0].found) occupied.push(table.name);
  }
  return occupied;
}

/** PostgreSQL's search table, written from the posts rather than copied (SQLite's is FTS5). */
const SEARCH_TABLE = 'post_search';
const SEARCH_BATCH_ROWS = 500;

async function fillSearch(db: Db, client: pg.PoolClient, hooks: CopyHooks): Promise<number> {
  const total = (db.prepare('SELECT count(*) AS n FROM posts').get() as { n: number }).n;
  hooks.onTable?.(SEARCH_TABLE, total);
  const posts = db.prepare('SELECT seq, title, content FROM posts ORDER BY seq').iterate() as Iterable<{
    seq: number;
    title: string;
    content: string;
  }>;
  function* rows(): Generator<unknown[]> {
    for (const post of posts) {
      const row = postgresSearchRow(post.title, post.content);
      yield [post.seq, row.search_text, row.words];
    }
  }
  return insertAll(client, `INSERT INTO ${SEARCH_TABLE} (seq, search_text, words)`, rows(), {
    batchRows: SEARCH_BATCH_ROWS,
    onRows: (done) => hooks.onRows?.(SEARCH_TABLE, done),
    tuple: ([seq, text, words]) => `(${seq}, ${text}, array_to_tsvector(${words}::text[]))`,
  });
}

export async function copyToPostgres(db: Db, pool: pg.Pool, hooks: CopyHooks = {}): Promise<CopySummary> {
  await migratePostgres(pool);
  const tables = copyableTables(db);
  const client = await pool.connect();
  const summary: CopySummary = { tables: [] };
  try {
    const occupied = await occupiedTables(client, tables);
    if (occupied.length > 0) {
      throw new TargetNotEmptyError(
        `The PostgreSQL database already holds data (${occupied.slice(0, 5).join(', ')}${occupied.length > 5 ? ', ...' : ''}): db:copy only fills an empty one.`,
      );
    }
    await client.query('BEGIN');
    // Inside the transaction: a failed copy rolls this back with everything else.
    for (const name of TRIGGERS_OFF_WHILE_COPYING) await client.query(`ALTER TABLE ${quote(name)} DISABLE TRIGGER USER`);
    for (const table of tables) {
      const total = (db.prepare(`SELECT count(*) AS n FROM ${quote(table.name)}`).get() as { n: number }).n;
      hooks.onTable?.(table.name, total);
      const columns = table.columns.map(quote).join(', ');
      const read = db.prepare(`SELECT ${columns} FROM ${quote(table.name)} ORDER BY ${table.order}`).raw();
      const done = await insertAll(
        client,
        `INSERT INTO ${quote(table.name)} (${columns}) OVERRIDING SYSTEM VALUE`,
        read.iterate() as Iterable<unknown[]>,
        {
          batchRows: Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / table.columns.length))),
          onRows: (rows) => hooks.onRows?.(table.name, rows),
        },
      );
      summary.tables.push({ name: table.name, rows: done });
    }
    summary.tables.push({ name: SEARCH_TABLE, rows: await fillSearch(db, client, hooks) });
    for (const name of TRIGGERS_OFF_WHILE_COPYING) await client.query(`ALTER TABLE ${quote(name)} ENABLE TRIGGER USER`);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      throw new AggregateError([error, rollbackError], 'The copy failed and so did its rollback.');
    });
    throw error;
  } finally {
    client.release();
  }
  await resetIdentitySequences(pool);
  return summary;
}
