/**
 * The process-state table (kv): small values the processes keep between runs, such as the rebuild's
 * position in the change log ('pages.last_change_id') and named counters ('seq:<name>').
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';

/** Reads a value of the process-state table (e.g. 'pages.last_change_id'); undefined when unset. */
export async function getKv(db: Store, key: string): Promise<string | undefined> {
  const { rows } = await sql<{ value: string | null }>`SELECT value FROM kv WHERE key = ${key}`.execute(db.k);
  return rows[0]?.value ?? undefined;
}

/** Writes (inserts or replaces) a value of the process-state table. */
export async function setKv(db: Store, key: string, value: string): Promise<void> {
  await sql`INSERT INTO kv (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`.execute(db.k);
}

/**
 * Increments an integer counter kept in kv and returns the new value (call inside a write transaction).
 * BIGINT: a 64-bit integer on both engines (SQLite's INTEGER is one; PostgreSQL's is 32 bits).
 */
export async function nextSequence(db: Store, name: string): Promise<number> {
  const { rows } = await sql<{ value: string }>`INSERT INTO kv (key, value) VALUES (${`seq:${name}`}, '1')
     ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(kv.value AS BIGINT) + 1 AS TEXT)
     RETURNING value`.execute(db.k);
  return Number(rows[0].value);
}
