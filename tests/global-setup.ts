/**
 * Builds the site once before any test file runs (several files render pages through the real build).
 * With TROVE_TEST_DATABASE=postgres, also starts one throwaway PostgreSQL cluster for the whole run and
 * migrates a template database in it; every `tempDb()` is then a copy of that template
 * (tests/api/data/helpers.ts), so the suite runs on PostgreSQL.
 */
import { ensureBuild } from '../scripts/lib/build.ts';
import { startThrowawayCluster } from '../scripts/lib/postgres-cluster.ts';
import { createMigratedTemplate, testEngine } from './helpers/test-engine.ts';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  await ensureBuild((line) => console.log(line));
  if (testEngine() !== 'postgres') return undefined;
  const cluster = await startThrowawayCluster({ fast: true, maxConnections: 500 });
  await createMigratedTemplate(cluster.url);
  // The test files run in forked workers, which inherit this environment.
  process.env.TROVE_TEST_POSTGRES_URL = cluster.url;
  console.log(`Tests run on PostgreSQL: a throwaway cluster at ${cluster.url}.`);
  return () => cluster.stop();
}
