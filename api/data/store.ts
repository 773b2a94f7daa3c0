/**
 * The archive's database behind one asynchronous interface for both engines: the embedded SQLite file
 * (the default) and PostgreSQL (DATABASE_URL=postgres://...). Data modules query through `store.k`
 * (Kysely: one query for both engines where one can serve) and branch on `store.engine` only for what
 * differs (search, some upserts, pragmas), inside the module.
 *
 * On SQLite the store wraps the same better-sqlite3 handle the synchronous modules use, one Kysely
 * instance per handle, so that its transactions and theirs queue on one connection.
 */
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
}

const sqliteStores = new WeakMap<Db, Store>();

/** The store over an open SQLite handle (api/data/db.ts), the same one for every caller. */
export function sqliteStore(db: Db): Store {
  let store = sqliteStores.get(db);
  if (!store) {
    store = { engine: 'sqlite', k: new Kysely<Schema>({ dialect: new CachedSqliteDialect(db) }), sqlite: db };
    sqliteStores.set(db, store);
  }
  return store;
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
  return { engine: 'postgres', k: new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) }), sqlite: undefined };
}

/**
 * The store of a set of dependencies (createApp's, the pages'): theirs when they name one, else the
 * store over their SQLite handle. While the data modules move to the store one by one, the callers of a
 * moved module reach it through this.
 */
export function storeOf(deps: { db: Db; store?: Store }): Store {
  return deps.store ?? sqliteStore(deps.db);
}

/**
 * Runs fn in one transaction (BEGIN IMMEDIATE on SQLite), with a store whose queries are part of it;
 * inside one already, fn simply joins it. On SQLite the synchronous modules' statements and
 * transactions (savepoints) on the same handle join it too, so a moved function can open the
 * transaction that its not-yet-moved callees write in. fn must only query: awaiting anything else
 * (files, the network) would let other requests' statements into the open transaction.
 */
export function inTransaction<T>(store: Store, fn: (store: Store) => Promise<T>): Promise<T> {
  if (store.k.isTransaction) return fn(store);
  return store.k.transaction().execute((trx) => fn({ ...store, k: trx }));
}

/** Ends a PostgreSQL pool; a SQLite store's handle is closed by whoever opened it. */
export async function closeStore(store: Store): Promise<void> {
  if (store.engine === 'postgres') await store.k.destroy();
}
