/**
 * `npm test`: every test. Unit and API tests (vitest), then the browser tests (Playwright in Chromium)
 * against a fresh demo archive. Says which Chromium it used and whether it had to install one.
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
if (only && only !== 'unit' && only !== 'e2e') {
  console.error(`Unknown test suite "${only}": use unit, e2e, or nothing for both.`);
  process.exit(2);
}
const results: Array<[string, boolean]> = [];

if (!only || only === 'unit') {
  results.push(['unit and API tests (vitest)', run('vitest', 'npx', ['vitest', 'run'])]);
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
