/**
 * Which engine this test run's databases are on: SQLite (the default) or PostgreSQL when
 * TROVE_TEST_DATABASE=postgres (`npm run test:postgres`). On PostgreSQL, tests/global-setup.ts starts
 * the run's cluster and `tempDb()` copies its migrated template.
 */
export type TestEngine = 'sqlite' | 'postgres';

export const POSTGRES_TEMPLATE = 'trove_test_template';

export function testEngine(): TestEngine {
  const wanted = process.env.TROVE_TEST_DATABASE;
  if (wanted === undefined || wanted === '' || wanted === 'sqlite') return 'sqlite';
  if (wanted === 'postgres') return 'postgres';
  throw new Error(`TROVE_TEST_DATABASE must be sqlite or postgres, not "${wanted}".`);
}
