/**
 * Kysely over the archive's better-sqlite3 handle. Kysely's own SQLite driver prepares every statement
 * again on every call and opens transactions with a plain BEGIN; this one keeps each prepared statement
 * (the same statements run thousands of times a second on a busy archive) and opens write transactions
 * with BEGIN IMMEDIATE, so a transaction that reads before it writes cannot fail with SQLITE_BUSY halfway.
 *
 * SQLite has one connection per handle: queries wait their turn behind an open transaction, as they do
 * in Kysely's driver. better-sqlite3 is synchronous, so each query's promise is already settled.
 */
import type Database from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  CompiledQuery as Compiled,
} from 'kysely';

/** Distinct statements kept per handle; the data modules have a few hundred. */
const STATEMENT_CACHE_SIZE = 1000;

class CachedSqliteConnection implements DatabaseConnection {
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();

  constructor(db: Database.Database) {
    this.#db = db;
  }

  #prepare(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.clear();
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.#prepare(compiled.sql);
    const parameters = compiled.parameters.map(toSqliteValue);
    if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as R[] });
    const { changes, lastInsertRowid } = statement.run(parameters);
    return Promise.resolve({ rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) });
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const statement = this.#prepare(compiled.sql);
    for (const row of statement.iterate(compiled.parameters.map(toSqliteValue))) yield { rows: [row as R] };
  }
}

/** better-sqlite3 binds numbers, bigints, strings, buffers and null; booleans are stored as 0 and 1. */
function toSqliteValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  return value;
}

/**
 * The handle's one connection, lent to one query or transaction at a time, first come first served.
 * Taking it when it is free allocates nothing (every query takes it: a promise per query would be
 * garbage on the route's hot path); a waiter is handed the lock directly when it is released.
 */
class Mutex {
  #locked = false;
  readonly #waiting: (() => void)[] = [];

  lock(): Promise<void> | undefined {
    if (!this.#locked) {
      this.#locked = true;
      return undefined;
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  unlock(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#locked = false;
  }
}

class CachedSqliteDriver implements Driver {
  readonly #connection: CachedSqliteConnection;
  readonly #mutex = new Mutex();

  constructor(db: Database.Database) {
    this.#connection = new CachedSqliteConnection(db);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(Compiled.raw('BEGIN IMMEDIATE'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(Compiled.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(Compiled.raw('ROLLBACK'));
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }

  /** The handle belongs to whoever opened it (api/data/db.ts); Kysely does not close it. */
  async destroy(): Promise<void> {}
}

export class CachedSqliteDialect implements Dialect {
  readonly #db: Database.Database;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  createDriver(): Driver {
    return new CachedSqliteDriver(this.#db);
  }

  createQueryCompiler(): SqliteQueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): SqliteAdapter {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): SqliteIntrospector {
    return new SqliteIntrospector(db);
  }
}
