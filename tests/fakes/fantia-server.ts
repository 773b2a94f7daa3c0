/**
 * The fake Fantia on its own, for trying an importer by hand:
 *   npx tsx tests/fakes/fantia-server.ts --port N [--cdn-port M] [--page-size P]
 * Serves demoDataset (ゆめかわ工房 with 22 posts, Night Owl Studio, one fanclub only followed) and
 * accepts the _session_id in FAKE_FANTIA_KEY (default FAKE_FANTIA_KEY of ./fantia.ts). fantia.jp is
 * the printed URL; c.fantia.jp and cc.fantia.jp are the CDN URL.
 */
import { parseArgs } from 'node:util';
import { FAKE_FANTIA_KEY, startFakeFantia } from './fantia.ts';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, 'cdn-port': { type: 'string', default: '0' }, 'page-size': { type: 'string', default: '5' } },
});
const number = (raw: string | undefined, name: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a whole number`);
    process.exit(2);
  }
  return n;
};

const fake = await startFakeFantia({
  port: number(values.port, 'port'),
  cdnPort: number(values['cdn-port'], 'cdn-port'),
  key: process.env.FAKE_FANTIA_KEY || FAKE_FANTIA_KEY,
  pageSize: Math.max(1, number(values['page-size'], 'page-size')),
});
console.log(`fake fantia listening on ${fake.url} (files on ${fake.cdnUrl})`);
console.log(`session key (_session_id): ${fake.key}`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
