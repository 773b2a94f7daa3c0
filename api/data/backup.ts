/** What backups and restores read from the database itself: its migration version and the file records' paths. */
import { openDatabase, stmt, type Db } from './db.ts';
import { hashPath } from './util.ts';

/** The migration the database is at (its user_version). */
export async function migrationVersion(db: Db): Promise<number> {
  return db.pragma('user_version', { simple: true }) as number;
}

/** `PRAGMA integrity_check`: 'ok', or SQLite's first problems joined by newlines. */
export async function integrityCheck(db: Db): Promise<string> {
  const rows = db.pragma('integrity_check(20)') as { integrity_check: string }[];
  return rows.map((row) => row.integrity_check).join('\n');
}

/** The public path ('/ab/cd/<sha256>.<ext>') of every file record, one at a time. */
export async function* fileRecordPaths(db: Db): AsyncGenerator<string> {
  for (const row of stmt<{ hash: string; ext: string }>(db, 'SELECT hash, ext FROM files ORDER BY id').iterate())
    yield hashPath(row.hash, row.ext);
}

/**
 * Whether another process has the database open (the server, a worker): it then holds a lock on the
 * file in WAL mode, and an exclusive lock cannot be had at once.
 */
export function databaseInUse(file: string): boolean {
  const db = openDatabase(file);
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw error;
  } finally {
    db.close();
  }
}
