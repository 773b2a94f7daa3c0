/**
 * The fake Fansly on its own, to point a server at by hand:
 *   npx tsx tests/fakes/fansly-server.ts --port N [--cdn-port M] [--page-size P]
 * Serves demoDataset (Mika, subscribed, 17 posts of every kind and DMs; Noah, followed only) and
 * accepts the token in FAKE_FANSLY_TOKEN (default FAKE_FANSLY_TOKEN of ./fansly.ts), signed with the
 * check key in FAKE_FANSLY_CHECK_KEY (default FAKE_FANSLY_CHECK_KEY). The API is <url>/api/v1, the
 * home page and main.*.js (with the check key) are <url>/, files are on the printed CDN origin.
 */
import { parseArgs } from 'node:util';
import { FAKE_FANSLY_CHECK_KEY, FAKE_FANSLY_TOKEN, startFakeFansly } from './fansly.ts';

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

const fake = await startFakeFansly({
  port: number(values.port, 'port'),
  cdnPort: number(values['cdn-port'], 'cdn-port'),
  pageSize: Math.max(1, number(values['page-size'], 'page-size')),
  token: process.env.FAKE_FANSLY_TOKEN || FAKE_FANSLY_TOKEN,
  checkKey: process.env.FAKE_FANSLY_CHECK_KEY || FAKE_FANSLY_CHECK_KEY,
});
console.log(`fake fansly listening on ${fake.url} (API ${fake.apiUrl}, CDN ${fake.cdnUrl})`);
console.log(`token: ${fake.token}`);
console.log(`check key: ${fake.checkKey}   session id: ${fake.sessionId}`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
