/**
 * The fake Afdian on its own, for trying the importer by hand:
 *   npx tsx tests/fakes/afdian-server.ts --port N [--cdn-port M] [--page-size P] [--refusal http401|ec]
 * Serves demoDataset (星野工作室, Lumen Audio, 旧梦) and prints the API and CDN URLs and the accepted
 * auth_token cookie.
 */
import { parseArgs } from 'node:util';
import { FAKE_AFDIAN_KEY, startFakeAfdian } from './afdian.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'cdn-port': { type: 'string', default: '0' },
    'page-size': { type: 'string', default: '5' },
    refusal: { type: 'string', default: 'http401' },
  },
});
const number = (raw: string | undefined, name: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a whole number`);
    process.exit(2);
  }
  return n;
};
if (values.refusal !== 'http401' && values.refusal !== 'ec') {
  console.error('--refusal must be http401 or ec');
  process.exit(2);
}

const fake = await startFakeAfdian({
  port: number(values.port, 'port'),
  cdnPort: number(values['cdn-port'], 'cdn-port'),
  pageSize: Math.max(1, number(values['page-size'], 'page-size')),
  refusal: values.refusal,
  key: process.env.FAKE_AFDIAN_KEY || FAKE_AFDIAN_KEY,
});
console.log(`fake afdian API (ifdian.net) on ${fake.url}`);
console.log(`fake afdian CDN (pic1/vod.afdiancdn.com) on ${fake.cdnUrl}`);
console.log(`key (the auth_token cookie): ${process.env.FAKE_AFDIAN_KEY || FAKE_AFDIAN_KEY}`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
