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
import type Database from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
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
  return new pg.Pool({ connectionString: url, max: options.max ?? 10, types: numberTypes });
}

/** A store over a PostgreSQL pool; `closeStore` ends the pool. */
export function postgresStore(url: string, options: PostgresOptions = {}): Store {
  const pool = postgresPool(url, options);
  return { engine: 'postgres', k: new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) }), sqlite: undefined, pool };
}

/**
 * The store of a set of dependencies (createApp's, the pages'): theirs when they name one, else their
 * SQLite handle's.
 */
export function storeOf(deps: { db: Db; store?: Store }): Store {
  return deps.store ?? deps.db;
}

/**
 * Runs fn in one write transaction and gives it the store to query in it; fn must only query: awaiting
 * anything else (files, the network) would hold the transaction open meanwhile.
 *
 * SQLite: BEGIN IMMEDIATE on the handle (a transaction that reads before it writes cannot fail with
 * SQLITE_BUSY halfway), or a savepoint when one is already open, so that a caller catching an inner
 * failure keeps its own writes. fn gets the same store: every statement on the one connection is part
 * of the open transaction. PostgreSQL: a transaction on one pooled connection, whose store fn gets;
 * inside one already, fn joins it.
 */
export async function inTransaction<D extends Store, T>(db: D, fn: (db: D) => Promise<T>): Promise<T> {
  const handle = db.sqlite;
  if (!handle) {
    if (db.k.isTransaction) return fn(db);
    return db.k.transaction().execute((trx) => fn({ ...db, k: trx }));
  }
  const nested = handle.inTransaction;
  control(handle, nested ? 'SAVEPOINT nested' : 'BEGIN IMMEDIATE');
  try {
    const result = await fn(db);
    control(handle, nested ? 'RELEASE nested' : 'COMMIT');
    return result;
  } catch (error) {
    if (nested) {
      control(handle, 'ROLLBACK TO nested');
      control(handle, 'RELEASE nested');
    } else if (handle.inTransaction) control(handle, 'ROLLBACK');
    throw error;
  }
}

/**
 * Like inTransaction, but inside an open transaction fn runs directly in it, without a savepoint. Used by
 * the writers of the SQLite FTS index: FTS5 flushes its pending index data on every savepoint, which
 * makes one savepoint per post about ten times slower in bulk loads. An error still propagates.
 */
export async function inTransactionNoSavepoint<D extends Store, T>(db: D, fn: (db: D) => Promise<T>): Promise<T> {
  return db.sqlite?.inTransaction || db.k.isTransaction ? fn(db) : await inTransaction(db, fn);
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

/** Ends a PostgreSQL pool; a SQLite store's handle is closed by whoever opened it. */
export async function closeStore(store: Store): Promise<void> {
  if (store.engine === 'postgres') await store.k.destroy();
}
