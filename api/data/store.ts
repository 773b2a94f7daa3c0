/**
 * The archive's database behind one asynchronous interface for both engines: the embedded SQLite file
 * (the default) and PostgreSQL (DATABASE_URL=postgres://...). Data modules query through `store.k`
 * (Kysely: one query for both engines where one can serve) and branch on `store.engine` only for what
 * differs (search, some upserts, pragmas), inside the module.
 *
 * On SQLite the store is the better-sqlite3 handle itself (api/data/db.ts opens it with the store's
 * fields attached), so that code still reaching the handle directly and code on the store share one
 * connection and one transaction.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, type RawBuilder, sql } from 'kysely';
import pg from 'pg';
import type { Db } from './db.ts';
import type { Schema } from './schema.ts';
import { CachedSqliteDialect } from './sqlite-dialect.ts';

export type Engine = 'sqlite' | 'postgres';

export interface Store {
  readonly engine: Engine;
  readonly k: Kysely<Schema>;
  /** SQLite only: the handle itself (FTS5, pragmas, backups); undefined on PostgreSQL. */
  readonly sqlite: Db | undefined;
  /** PostgreSQL only: the connection pool (for libraries that bring their own queries). */
  readonly pool?: pg.Pool;
}

/**
 * The store over a better-sqlite3 handle: the handle itself with `engine`, `k` and `sqlite` attached
 * (once; openDatabase does it for every handle it opens).
 */
export function sqliteStore(handle: Database.Database): Db {
  const db = handle as Db;
  if (db.k) return db;
  return Object.assign(handle, {
    engine: 'sqlite' as const,
    k: new Kysely<Schema>({ dialect: new CachedSqliteDialect(handle) }),
    sqlite: db,
  });
}

/**
 * PostgreSQL answers 64-bit integers (bigint ids, millisecond times, sizes) and numerics as strings;
 * the archive's values fit in a double, so they come back as numbers, as SQLite gives them.
 */
const numberTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

export interface PostgresOptions {
  /** Connections in the pool (default 10). */
  max?: number;
}

/** A PostgreSQL pool whose rows look like SQLite's (numbers for 64-bit integers and numerics). */
export function postgresPool(url: string, options: PostgresOptions = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types: numberTypes });
  // An idle connection that the server ends (a restart, a failover, an administrator) is dropped by the
  // pool and replaced on the next checkout; unheard, its error would end the process.
  pool.on('error', () => {});
  return pool;
}

/** A store over a PostgreSQL pool; `closeStore` ends the pool. */
export function postgresStore(url: string, options: PostgresOptions = {}): Store {
  const pool = postgresPool(url, options);
  return {
    engine: 'postgres',
    k: new Kysely<Schema>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) }),
    sqlite: undefined,
    pool,
  };
}

/**
 * Searches (LIKE patterns, tsqueries) stay unnamed: a named statement may settle on one generic plan
 * after five runs, and a search's best plan depends on how common its words are.
 */
const PLANNED_PER_CALL = /\bLIKE\b|@@/i;
const statementNames = new Map<string, string>();

/** One name per SQL text, the same in every connection (each prepares it once, on first use). */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `trove_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * The pool Kysely gets: its parameterised queries run as named prepared statements, so each connection
 * parses and plans a query once rather than on every call (unnamed, PostgreSQL did both every time: about
 * a third of its time rendering pages, docs/benchmarks.md). Other users of the pool (migrations,
 * db:copy, the rate limiter) are unchanged. Needs session pooling between Trove and PostgreSQL, as any
 * pg client with prepared statements does (README, "PostgreSQL").
 */
function preparingPool(pool: pg.Pool): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      const query = (text: unknown, parameters?: ReadonlyArray<unknown>) => {
        if (typeof text !== 'string' || !parameters?.length || PLANNED_PER_CALL.test(text)) {
          return client.query(text as string, parameters as unknown[]);
        }
        return client.query({ name: statementName(text), text, values: parameters as unknown[] });
      };
      return { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
    },
    end: () => pool.end(),
  };
}

/**
 * Runs fn in one write transaction and gives it the store to query in it; fn must only query: awaiting
 * anything else (files, the network) would hold the transaction open meanwhile.
 *
 * SQLite: BEGIN IMMEDIATE on the handle (a transaction that reads before it writes cannot fail with
 * SQLITE_BUSY halfway); fn gets the same store, every statement on the one connection being part of the
 * open transaction. Transactions started side by side (Promise.all, two requests meeting at an await)
 * take turns on the handle; a transaction started from inside another (the same async context) is a
 * savepoint in it, so a caller catching an inner failure keeps its own writes. PostgreSQL: a
 * transaction on one pooled connection, whose store fn gets; inside one already, fn joins it.
 */
export async function inTransaction<D extends Store, T>(db: D, fn: (db: D) => Promise<T>): Promise<T> {
  const handle = db.sqlite;
  if (!handle) {
    if (db.k.isTransaction) return fn(db);
    return db.k.transaction().execute((trx) => fn({ ...db, k: trx }));
  }
  if (insideTransaction(handle)) return savepoint(handle, () => fn(db));
  const turn = takeTurn(handle);
  await turn.ready;
  try {
    control(handle, 'BEGIN IMMEDIATE');
    try {
      const result = await openTransactions.run(withHandle(handle), () => fn(db));
      control(handle, 'COMMIT');
      return result;
    } catch (error) {
      if (handle.inTransaction) control(handle, 'ROLLBACK');
      throw error;
    }
  } finally {
    turn.done();
    // No transaction open or waiting on any handle: no context needs to know it is inside one. Node
    // runs an AsyncLocalStorage's hook on every promise the process makes while it is enabled (about
    // 0.12 µs each, ~100 per API request); the next transaction's run() enables it again.
    if (turns.size === 0) openTransactions.disable();
  }
}

/**
 * Like inTransaction, but inside an open transaction fn runs directly in it, without a savepoint. Used by
 * the writers of the SQLite FTS index: FTS5 flushes its pending index data on every savepoint, which
 * makes one savepoint per post about ten times slower in bulk loads. An error still propagates.
 */
export async function inTransactionNoSavepoint<D extends Store, T>(db: D, fn: (db: D) => Promise<T>): Promise<T> {
  const inside = db.sqlite ? insideTransaction(db.sqlite) : db.k.isTransaction;
  return inside ? fn(db) : await inTransaction(db, fn);
}

/** The SQLite handles whose transaction the current async context runs inside. */
const openTransactions = new AsyncLocalStorage<ReadonlySet<Database.Database>>();

function withHandle(handle: Database.Database): ReadonlySet<Database.Database> {
  return new Set([...(openTransactions.getStore() ?? []), handle]);
}

function insideTransaction(handle: Database.Database): boolean {
  // A transaction opened by synchronous better-sqlite3 code (the migrations) around this call counts too.
  return (openTransactions.getStore()?.has(handle) ?? false) || (handle.inTransaction && !turns.has(handle));
}

async function savepoint<T>(handle: Database.Database, fn: () => Promise<T>): Promise<T> {
  control(handle, 'SAVEPOINT nested');
  try {
    const result = await fn();
    control(handle, 'RELEASE nested');
    return result;
  } catch (error) {
    control(handle, 'ROLLBACK TO nested');
    control(handle, 'RELEASE nested');
    throw error;
  }
}

/** The last transaction waiting or running on each handle; a new one starts when it has finished. */
const turns = new Map<Database.Database, Promise<void>>();

function takeTurn(handle: Database.Database): { ready: Promise<void>; done: () => void } {
  const previous = turns.get(handle) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => {
    done = resolve;
  });
  turns.set(handle, mine);
  return {
    ready: previous,
    done: () => {
      if (turns.get(handle) === mine) turns.delete(handle);
      done();
    },
  };
}

const controlStatements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** Runs a transaction-control statement, prepared once per handle. */
function control(handle: Database.Database, sql: string): void {
  let statements = controlStatements.get(handle);
  if (!statements) controlStatements.set(handle, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = handle.prepare(sql)));
  statement.run();
}

/** The cursor of eachRow on PostgreSQL (one at a time: the loops over rows run no query meanwhile). */
const LONG_READ_CURSOR = sql.raw('long_read');

/**
 * The rows of a long read without holding them all: SQLite iterates the statement; PostgreSQL fetches
 * from a cursor inside the caller's transaction, a thousand rows at a time, and outside one reads them
 * in one go (streaming on a pool connection would take pg-cursor). The caller must read to the end and
 * run no query meanwhile (SQLite's one connection is held until the last row).
 */
export async function* eachRow<R>(db: Store, query: RawBuilder<R>): AsyncGenerator<R> {
  if (db.engine === 'sqlite') {
    for await (const result of db.k.getExecutor().stream<R>(query.compile(db.k), 1)) yield* result.rows;
    return;
  }
  if (!db.k.isTransaction) {
    yield* (await query.execute(db.k)).rows;
    return;
  }
  await sql`DECLARE ${LONG_READ_CURSOR} NO SCROLL CURSOR FOR ${query}`.execute(db.k);
  for (;;) {
    const { rows } = await sql<R>`FETCH 1000 FROM ${LONG_READ_CURSOR}`.execute(db.k);
    if (rows.length === 0) break;
    yield* rows;
  }
  // An error above aborts the transaction, which closes the cursor with it.
  await sql`CLOSE ${LONG_READ_CURSOR}`.execute(db.k);
}

/** Whether the database answers a query (the readiness check). */
export async function databaseAnswers(db: Store): Promise<boolean> {
  const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(db.k);
  return Number(rows[0]?.one) === 1;
}

/** Ends a PostgreSQL pool; a SQLite store's handle is closed by whoever opened it. */
export async function closeStore(store: Store): Promise<void> {
  if (store.engine === 'postgres') await store.k.destroy();
}
