/**
 * `npm test`: every check and test. First the static checks: Biome (lint and format), `astro check` (the
 * .astro files; it also generates the .astro/ types), `tsc --noEmit` and knip (unused exports, files and
 * dependencies); then the unit and API tests
 * (vitest), then the browser tests (Playwright in Chromium) against a fresh demo archive. Says which
 * Chromium it used and whether it had to install one. `unit` runs the checks and vitest, `e2e` the
 * browser tests, `checks` the static checks alone, `postgres` the database-backed vitest files (API,
 * data, importer, page store, loaders) again on PostgreSQL (one throwaway cluster for the run,
 * started by tests/global-setup.ts), `cluster` the multi-machine test (PostgreSQL, two web nodes, two
 * workers and nginx as real processes).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureChromium } from './lib/chromium.ts';

function run(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  return result.status === 0;
}

const only = process.argv[2];
const SUITES = ['checks', 'unit', 'postgres', 'cluster', 'e2e'];
if (only && !SUITES.includes(only)) {
  console.error(`Unknown test suite "${only}": use checks, unit, postgres, cluster, e2e, or nothing for all.`);
  process.exit(2);
}
const results: Array<[string, boolean]> = [];

if (!only || only === 'unit' || only === 'checks') {
  results.push(['lint and format (biome check)', run('biome', 'npx', ['biome', 'check', '.'])]);
  results.push(['Astro files (astro check)', run('astro check', 'npx', ['astro', 'check'])]);
  // tsc reads the types Astro generates into .astro/; astro check writes them, but a fresh clone whose
  // astro check failed early may not have them yet.
  const astroTypes = fs.existsSync(path.resolve('.astro/types.d.ts')) || run('astro sync', 'npx', ['astro', 'sync']);
  results.push(['types (tsc --noEmit)', astroTypes && run('tsc', 'npx', ['tsc', '--noEmit'])]);
  // Exports, files and dependencies nothing uses (knip.json says what the entry points are).
  results.push(['unused exports (knip)', run('knip', 'npx', ['knip', '--no-progress'])]);
}

if (!only || only === 'unit') {
  results.push(['unit and API tests (vitest)', run('vitest', 'npx', ['vitest', 'run'])]);
}

if (!only || only === 'postgres') {
  // The files that reach the database; the rest (shared code, islands, components) has no engine.
  const onPostgres = { ...process.env, TROVE_TEST_DATABASE: 'postgres' };
  const files = ['tests/api', 'tests/loaders'];
  results.push([
    'API, data and importer tests on PostgreSQL (vitest)',
    run('vitest on PostgreSQL', 'npx', ['vitest', 'run', ...files], onPostgres),
  ]);
}

if (!only || only === 'cluster') {
  // PostgreSQL, two web nodes, two workers and nginx as real processes (tests/scripts/cluster.test.ts).
  const cluster = { ...process.env, TROVE_TEST_SUITE: 'cluster' };
  results.push(['the cluster (vitest)', run('vitest, the cluster', 'npx', ['vitest', 'run'], cluster)]);
}

if (!only || only === 'e2e') {
  const chromium = ensureChromium();
  console.log(`\nBrowser tests: ${chromium.how}.`);
  const dataDir = path.resolve('.tmp/e2e-data');
  fs.rmSync(dataDir, { recursive: true, force: true });
  const env = { ...process.env, E2E_DATA_DIR: dataDir, CHROMIUM_PATH: chromium.executablePath ?? '' };
  results.push(['browser tests (Playwright)', run('playwright', 'npx', ['playwright', 'test'], env)]);
}

console.log('\n=== Summary');
for (const [label, ok] of results) console.log(`${ok ? 'PASS' : 'FAIL'}  ${label}`);
const failed = results.filter(([, ok]) => !ok).length;
console.log(`suites: ${results.length - failed} passed, ${failed} failed`);
process.exit(results.every(([, ok]) => ok) ? 0 : 1);
