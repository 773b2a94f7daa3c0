/**
 * Applies the forward-only PostgreSQL migrations (api/data/migrations/postgres), the twin of migrate() in
 * db.ts: the same version numbers, kept in a one-row `schema_version` table instead of SQLite's
 * user_version. Safe to call from several processes at once: every transaction that reads the version
 * first takes one transaction-scoped advisory lock, so a migration is applied once and a caller that
 * waited finds it done.
 */
import pg from 'pg';
import { POSTGRES_MIGRATIONS, type PostgresMigration } from './migrations/postgres/index.ts';

/** The advisory lock key of the migrations (any fixed bigint; this one reads 'trove-mg' in ASCII). */
const MIGRATION_LOCK = '8390891592720590695';

async function inTransaction<T>(client: pg.PoolClient, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/** Takes the migration lock, held until the transaction ends. */
async function lock(client: pg.PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK]);
}

async function readVersion(client: pg.PoolClient): Promise<number> {
  const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_version WHERE id = 1');
  return rows[0].version;
}

/**
 * Applies every migration newer than the database's schema version, each in its own transaction: a
 * failing one is rolled back whole and stops the run, leaving the version at the last one applied.
 * `migrations` is for tests; the archive's are the default.
 */
export async function migratePostgres(
  pool: pg.Pool,
  migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS,
): Promise<{ from: number; to: number }> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const from = await inTransaction(client, async () => {
      await lock(client);
      await client.query(`CREATE TABLE IF NOT EXISTS schema_version (
        id integer PRIMARY KEY CHECK (id = 1),
        version integer NOT NULL
      )`);
      await client.query('INSERT INTO schema_version (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING');
      return readVersion(client);
    });
    let to = from;
    for (const migration of migrations) {
      if (migration.version <= to) continue;
      to = await inTransaction(client, async () => {
        await lock(client);
        const current = await readVersion(client);
        if (current >= migration.version) return current;
        await client.query(migration.sql);
        await client.query('UPDATE schema_version SET version = $1 WHERE id = 1', [migration.version]);
        return migration.version;
      });
    }
    return { from, to };
  } catch (error) {
    // A connection that failed mid-transaction is not handed back to the pool for reuse.
    broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * Moves every identity sequence of the current schema past the largest id its column holds, so that rows
 * inserted with explicit ids (a copy from SQLite keeps them) are followed by new ids instead of collisions.
 * Returns the next id of each identity column, keyed 'table.column'.
 */
export async function resetIdentitySequences(pool: pg.Pool): Promise<Record<string, number>> {
  const { rows: columns } = await pool.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND is_identity = 'YES'
      ORDER BY table_name, column_name`,
  );
  const next: Record<string, number> = {};
  for (const { table_name: table, column_name: column } of columns) {
    const { rows } = await pool.query<{ next: string }>(
      `SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max(${pg.escapeIdentifier(column)}), 0) + 1, false) AS next FROM ${pg.escapeIdentifier(table)}`,
      [pg.escapeIdentifier(table), column],
    );
    next[`${table}.${column}`] = Number(rows[0].next);
  }
  return next;
}
