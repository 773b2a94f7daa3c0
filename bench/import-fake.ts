/**
 * The import benchmark's paysite: the fake Patreon of the tests (tests/fakes/patreon.ts) in its own
 * process, so serving it does not share an event loop with the importer being measured.
 *   npx tsx bench/import-fake.ts --posts N [--creators C] [--page-size 20]
 * Prints `listening <url>` once up; on SIGTERM prints one JSON line with the requests it answered.
 */
import { parseArgs } from 'node:util';
import { FAKE_PATREON_KEY, startFakePatreon } from '../tests/fakes/patreon.ts';
import { benchDataset } from './patreon-dataset.ts';

const { values } = parseArgs({
  options: { posts: { type: 'string' }, creators: { type: 'string', default: '4' }, 'page-size': { type: 'string', default: '20' } },
});

const fake = await startFakePatreon({
  key: FAKE_PATREON_KEY,
  dataset: benchDataset(Number(values.creators), Number(values.posts)),
  pageSize: Number(values['page-size']),
});
console.log(`listening ${fake.url}`);

process.on('SIGTERM', () => {
  const byKind: Record<string, number> = {};
  for (const request of fake.requests) {
    const kind = request.path.startsWith('/api/posts/')
      ? 'comments'
      : request.path.startsWith('/api/')
        ? request.path
        : request.path === '/file'
          ? 'attachment redirects'
          : 'files';
    byKind[kind] = (byKind[kind] ?? 0) + 1;
  }
  const failed = fake.requests.filter((request) => request.status >= 400).length;
  const cpu = process.cpuUsage();
  console.log(JSON.stringify({ requests: fake.requests.length, failed, byKind, cpuSeconds: (cpu.user + cpu.system) / 1e6 }));
  void fake.close().then(() => process.exit(0));
});
