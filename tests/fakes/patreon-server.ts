/**
 * The fake Patreon on its own, for the end-to-end test and the benchmark:
 *   npx tsx tests/fakes/patreon-server.ts --port N [--posts K] [--page-size P]
 * Serves demoDataset (one campaign 'Fake Patreon Creator' with K posts, default 12) and accepts the
 * session key in FAKE_PATREON_KEY (default FAKE_PATREON_KEY of ./patreon.ts). Point the server at it
 * with IMPORTER_PATREON_URL=<url> TROVE_ENV=test IMPORTER_ALLOW_PRIVATE_ADDRESSES=1.
 */
import { parseArgs } from 'node:util';
import { FAKE_PATREON_KEY, demoDataset, startFakePatreon } from './patreon.ts';

const { values } = parseArgs({
  options: { port: { type: 'string' }, posts: { type: 'string', default: '12' }, 'page-size': { type: 'string', default: '5' } },
});
const number = (raw: string | undefined, name: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a whole number`);
    process.exit(2);
  }
  return n;
};

const fake = await startFakePatreon({
  port: number(values.port ?? '0', 'port'),
  key: process.env.FAKE_PATREON_KEY || FAKE_PATREON_KEY,
  dataset: demoDataset({ posts: number(values.posts, 'posts') }),
  pageSize: Math.max(1, number(values['page-size'], 'page-size')),
});
console.log(`fake patreon listening on ${fake.url}`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
