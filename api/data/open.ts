/**
 * The archive's database for this process: the PostgreSQL database DATABASE_URL names (its migrations
 * applied on first open, safe from several processes at once), else the SQLite file in DATA_DIR. One
 * store per database per process: the API, the pages and the import worker of a process share it.
 */
import fs from 'node:fs';
import type { Config } from '../config.ts';
import { dataPaths } from '../config.ts';
import { sharedDatabase } from './db.ts';
import { migratePostgres } from './postgres-migrate.ts';
import { closeStore, postgresPool, postgresStore, type Store } from './store.ts';

const opened = new Map<string, Promise<Store>>();

/**
 * Why a command that reads an existing archive cannot start, or undefined: without DATABASE_URL the
 * SQLite file must be there already (opening it would create an empty one).
 */
export function missingArchiveDatabase(settings: Pick<Config, 'databaseUrl' | 'dataDir'>): string | undefined {
  if (settings.databaseUrl) return undefined;
  const file = dataPaths(settings.dataDir).database;
  return fs.existsSync(file) ? undefined : `No database at ${file} (set DATA_DIR or DATABASE_URL).`;
}

export function openArchiveDatabase(
  settings: Pick<Config, 'databaseUrl' | 'dataDir'>,
  options: { connections?: number } = {},
): Promise<Store> {
  const url = settings.databaseUrl;
  if (!url) return Promise.resolve(sharedDatabase(dataPaths(settings.dataDir).database));
  let store = opened.get(url);
  if (!store) {
    store = (async () => {
      const pool = postgresPool(url, { max: 1 });
      try {
        await migratePostgres(pool);
      } finally {
        await pool.end();
      }
      return postgresStore(url, { max: options.connections ?? 10 });
    })();
    opened.set(url, store);
    store.catch(() => opened.delete(url));
  }
  return store;
}

/** Closes the archive's database (the SQLite handle, or the PostgreSQL pool). */
export async function closeArchiveDatabase(db: Store): Promise<void> {
  if (db.sqlite) {
    db.sqlite.close();
    return;
  }
  for (const [url, store] of opened) if ((await store) === db) opened.delete(url);
  await closeStore(db);
}
