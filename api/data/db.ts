/**
 * Opens the SQLite database and applies the forward-only migrations in api/data/migrations.
 * Every data module receives the handle this returns; nothing else opens the file.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './migrations/index.ts';
import { sqliteStore, type Store } from './store.ts';

/** An open SQLite handle, which is also the archive's store (api/data/store.ts). */
export type Db = Database.Database & Store;

export function openDatabase(file: string, options: { readonly?: boolean } = {}): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = sqliteStore(new Database(file, { readonly: options.readonly ?? false }));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  return db;
}

/** Applies every migration newer than the database's user_version, each in its own transaction. */
export function migrate(db: Db): { from: number; to: number } {
  const from = db.pragma('user_version', { simple: true }) as number;
  for (const migration of MIGRATIONS) {
    if (migration.version <= from) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      migration.fill?.(db);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
  const to = db.pragma('user_version', { simple: true }) as number;
  return { from, to };
}

/** One handle per database file per process (the API and the SSR pages share it). */
export function sharedDatabase(file: string): Db {
  const registry = ((globalThis as Record<string, unknown>).__troveDatabases ??= new Map()) as Map<string, Db>;
  let db = registry.get(file);
  if (!db?.open) {
    db = openDatabase(file);
    migrate(db);
    registry.set(file, db);
  }
  return db;
}

const statementCache = new WeakMap<Db, Map<string, Database.Statement>>();

/** A prepared statement, prepared once per database handle. */
export function stmt<T = unknown>(db: Db, sql: string): Database.Statement<unknown[], T> {
  let cache = statementCache.get(db);
  if (!cache) statementCache.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) cache.set(sql, (statement = db.prepare(sql)));
  return statement as Database.Statement<unknown[], T>;
}
