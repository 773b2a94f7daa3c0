/**
 * One paysite's fake for the per-importer benchmark, in its own process (bench/importers/<site>.ts):
 *   npx tsx bench/importers-fake.ts <site> --posts N
 * Prints one JSON line {env, submission} once it listens; on SIGTERM prints {requests, cpuSeconds} and exits.
 */
import { parseArgs } from 'node:util';
import type { ImportBenchSite } from './importers/site.ts';

const { values, positionals } = parseArgs({ options: { posts: { type: 'string' } }, allowPositionals: true });
const site = positionals[0] ?? '';
if (!/^[a-z]+$/.test(site)) throw new Error('usage: bench/importers-fake.ts <site> --posts N');
const entry = ((await import(`./importers/${site}.ts`)) as { default: ImportBenchSite }).default;
const fake = await entry.start(Number(values.posts));
console.log(JSON.stringify({ env: fake.env, submission: fake.submission }));

process.on('SIGTERM', () => {
  const cpu = process.cpuUsage();
  console.log(JSON.stringify({ requests: fake.requests(), cpuSeconds: (cpu.user + cpu.system) / 1e6 }));
  void fake.close().then(() => process.exit(0));
});
