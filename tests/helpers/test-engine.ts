/**
 * Which engine this test run's databases are on: SQLite (the default) or PostgreSQL when
 * TROVE_TEST_DATABASE=postgres (`npx tsx scripts/test.ts postgres`). On PostgreSQL, tests/global-setup.ts
 * starts the run's cluster and `tempDb()` copies its migrated template.
 */
import { migratePostgres } from '@api/data/postgres-migrate.ts';
import { postgresPool } from '@api/data/store.ts';

export type TestEngine = 'sqlite' | 'postgres';

export const POSTGRES_TEMPLATE = 'trove_test_template';

export function testEngine(): TestEngine {
  const wanted = process.env.TROVE_TEST_DATABASE;
  if (wanted === undefined || wanted === '' || wanted === 'sqlite') return 'sqlite';
  if (wanted === 'postgres') return 'postgres';
  throw new Error(`TROVE_TEST_DATABASE must be sqlite or postgres, not "${wanted}".`);
}

/** The URL of another database of the same cluster. */
export function databaseUrl(clusterUrl: string, database: string): string {
  const url = new URL(clusterUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Creates the template database in the cluster and migrates it; test databases are copies of it. */
export async function createMigratedTemplate(clusterUrl: string): Promise<void> {
  const admin = postgresPool(clusterUrl, { max: 1 });
  await admin.query(`CREATE DATABASE ${POSTGRES_TEMPLATE}`);
  await admin.end();
  const template = postgresPool(databaseUrl(clusterUrl, POSTGRES_TEMPLATE), { max: 1 });
  await migratePostgres(template);
  await template.end();
}
