/**
 * The fake Boosty on its own, for trying the importer by hand:
 *   npx tsx tests/fakes/boosty-server.ts --port N [--cdn-port M] [--page-size P]
 * Serves demoDataset (blogs 'mariya-art' and 'synthwave-lab') and prints the API and CDN URLs and the key:
 * the `auth` cookie value (URL-encoded JSON of accessToken, refreshToken, expiresAt).
 */
import { parseArgs } from 'node:util';
import { FAKE_BOOSTY_AUTH, FAKE_BOOSTY_KEY, startFakeBoosty } from './boosty.ts';

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

const fake = await startFakeBoosty({
  port: number(values.port, 'port'),
  cdnPort: number(values['cdn-port'], 'cdn-port'),
  pageSize: Math.max(1, number(values['page-size'], 'page-size')),
});
console.log(`fake boosty API (api.boosty.to) on ${fake.url}`);
console.log(`fake boosty CDN (images/cdn.boosty.to, video) on ${fake.cdnUrl}`);
console.log(`key (the auth cookie): ${FAKE_BOOSTY_KEY}`);
console.log(`bearer token: ${FAKE_BOOSTY_AUTH.accessToken}`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
