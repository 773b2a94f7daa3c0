/**
 * Test helpers: a real, migrated database in a fresh temporary directory. A SQLite file by default; on a
 * PostgreSQL run (TROVE_TEST_DATABASE=postgres) a new database copied from the run's migrated template,
 * with the temporary directory still there for the files a test writes.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, openDatabase, type Db } from '@api/data/db.ts';
import { closeStore, postgresStore } from '@api/data/store.ts';
import { postgresBinDir } from '../../../scripts/lib/postgres-cluster.ts';
import { syncPostgres } from '../../helpers/sync-postgres.ts';
import { databaseUrl, POSTGRES_TEMPLATE, testEngine } from '../../helpers/test-engine.ts';

export interface TempDb {
  engine: 'sqlite' | 'postgres';
  /** On a PostgreSQL run: the store, with prepare and exec for the test's own SQL (sync-postgres.ts). */
  db: Db;
  dir: string;
  /** The SQLite file (on PostgreSQL, where it would be: nothing is there). */
  file: string;
  /**
   * The files under dir that hold the database's bytes, for tests that search them (no secret in clear):
   * SQLite's file and its WAL as they are; on PostgreSQL a dump of its rows, written into dir now.
   */
  databaseFiles(): string[];
  cleanup(): void;
}

let databases = 0;
/** PostgreSQL runs: each temporary data folder's database, for the processes a test starts on it. */
const databaseUrls = new Map<string, string>();

/** The DATABASE_URL of the database a temporary data folder goes with (none on SQLite). */
export function tempDatabaseUrl(dataDir: string | undefined): string | undefined {
  return dataDir === undefined ? undefined : databaseUrls.get(dataDir);
}

/** What a child process started on this data folder needs beside DATA_DIR: DATABASE_URL on PostgreSQL. */
export function databaseEnv(dataDir: string | undefined): { DATABASE_URL?: string } {
  const url = tempDatabaseUrl(dataDir);
  return url ? { DATABASE_URL: url } : {};
}

export function tempDb(): TempDb {
  return testEngine() === 'postgres' ? postgresTempDb() : tempSqliteDb();
}

/** A SQLite file whatever the run's engine: for tests of both engines side by side, or of SQLite itself. */
export function tempSqliteDb(): TempDb {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-test-'));
  const file = path.join(dir, 'trove.sqlite');
  const db = openDatabase(file);
  migrate(db);
  return {
    engine: 'sqlite',
    db,
    dir,
    file,
    databaseFiles: () => [file, `${file}-wal`].filter((f) => fs.existsSync(f)),
    cleanup() {
      if (db.open) db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresTempDb(): TempDb {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-test-'));
  const file = path.join(dir, 'trove.sqlite');
  const clusterUrl = process.env.TROVE_TEST_POSTGRES_URL;
  if (!clusterUrl) throw new Error('TROVE_TEST_POSTGRES_URL is unset: tests/global-setup.ts starts the cluster of a PostgreSQL run.');
  databases += 1;
  const name = `t_${process.pid}_${databases}`;
  // Synchronous, as tempDb is: psql creates the copy (a few milliseconds for an empty template).
  const create = `CREATE DATABASE ${name} TEMPLATE ${POSTGRES_TEMPLATE}`;
  execFileSync(path.join(postgresBinDir(), 'psql'), ['-X', '-q', '-d', clusterUrl, '-c', create], { stdio: 'pipe' });
  const url = databaseUrl(clusterUrl, name);
  const raw = syncPostgres(url);
  // The store the code under test gets, with the synchronous calls the tests' own SQL makes.
  const db = Object.assign(postgresStore(url, { max: 4 }), {
    prepare: raw.prepare,
    exec: raw.exec,
    open: true,
  }) as unknown as Db;
  databaseUrls.set(dir, url);
  return {
    engine: 'postgres',
    db,
    dir,
    file,
    databaseFiles() {
      const dump = path.join(dir, 'postgres-rows.sql');
      execFileSync(path.join(postgresBinDir(), 'pg_dump'), ['--data-only', '-d', url, '-f', dump], { stdio: 'pipe' });
      return [dump];
    },
    cleanup() {
      databaseUrls.delete(dir);
      Promise.all([closeStore(db), raw.end()]).catch((error: unknown) => console.error(`Closing ${name}: ${(error as Error).message}`));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A digest of every row of every table but those `skip` names (search indexes, counters), in any
 * order: two digests are equal when nothing was written. For proving a refused call changed nothing.
 */
export function rowsDigest(db: Db, skip: (table: string) => boolean): string {
  const tables =
    db.engine === 'sqlite'
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
      : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name";
  const hash = crypto.createHash('sha256');
  for (const { name } of db.prepare(tables).all() as Array<{ name: string }>) {
    if (skip(name)) continue;
    hash.update(name);
    const rows = (db.prepare(`SELECT * FROM "${name}"`).all() as unknown[]).map((row) => JSON.stringify(row));
    for (const row of rows.sort()) hash.update(row);
  }
  return hash.digest('hex');
}
