import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The path aliases of tsconfig.json (Vite does not read its `paths`; Astro, tsx and Playwright do). */
const folder = (name: string) => fileURLToPath(new URL(`./${name}/`, import.meta.url));

/**
 * On a PostgreSQL run (TROVE_TEST_DATABASE=postgres), the files that already test both engines side by
 * side (tests/helpers/engines.ts, the demo archive on both engines of engine-parity-archive.ts, or a
 * cluster of their own) ran their PostgreSQL half in the SQLite run: leave them out.
 */
function bothEngineFiles(): string[] {
  if (process.env.TROVE_TEST_DATABASE !== 'postgres') return [];
  const files = fs.readdirSync('tests', { recursive: true, encoding: 'utf8' }).map((file) => path.join('tests', file));
  return files.filter(
    (file) =>
      /\.test\.tsx?$/.test(file) && /engineDatabases\(|demoOnBothEngines\(|startThrowawayCluster\(/.test(fs.readFileSync(file, 'utf8')),
  );
}

/** The cluster test starts a dozen processes: it runs alone, as `npm test`'s cluster suite. */
const CLUSTER_TEST = 'tests/scripts/cluster.test.ts';
const clusterSuite = process.env.TROVE_TEST_SUITE === 'cluster';

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@shared\//, replacement: folder('shared') },
      { find: /^@api\//, replacement: folder('api') },
      { find: /^@site\//, replacement: folder('src') },
    ],
  },
  test: {
    include: clusterSuite ? [CLUSTER_TEST] : ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    exclude: ['tests/e2e/**', 'node_modules/**', ...bothEngineFiles(), ...(clusterSuite ? [] : [CLUSTER_TEST])],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['tests/global-setup.ts'],
  },
});
