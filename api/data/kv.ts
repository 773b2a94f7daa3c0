/**
 * The process-state table (kv): small values the processes keep between runs, such as the rebuild's
 * position in the change log ('pages.last_change_id') and named counters ('seq:<name>').
 */
import { stmt, type Db } from './db.ts';

/** Reads a value of the process-state table (e.g. 'pages.last_change_id'); undefined when unset. */
export async function getKv(db: Db, key: string): Promise<string | undefined> {
  const row = stmt<{ value: string | null }>(db, 'SELECT value FROM kv WHERE key = ?').get(key);
  return row ? (row.value ?? undefined) : undefined;
}

/** Writes (inserts or replaces) a value of the process-state table. */
export async function setKv(db: Db, key: string, value: string): Promise<void> {
  stmt(db, 'INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** Increments an integer counter kept in kv and returns the new value (call inside a write transaction). */
export async function nextSequence(db: Db, name: string): Promise<number> {
  const row = stmt<{ value: string }>(
    db,
    `INSERT INTO kv (key, value) VALUES (?, '1')
     ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(kv.value AS INTEGER) + 1 AS TEXT)
     RETURNING value`,
  ).get(`seq:${name}`);
  return Number(row!.value);
}
