/**
 * The fake SubscribeStar on its own, for trying an importer by hand:
 *   npx tsx tests/fakes/subscribestar-server.ts --port N [--adult-port M] [--cdn-port C] [--page-size P]
 * Serves demoDataset: Ada Studio on the .com site (17 posts), 夜桜アトリエ on the adult site (5), a star
 * asking for verification. The .com key is FAKE_SUBSCRIBESTAR_KEY and the adult one
 * FAKE_SUBSCRIBESTAR_ADULT_KEY (env or the defaults of ./subscribestar.ts), both as the
 * _personalization_id cookie; the adult site also wants 18_plus_agreement_generic=true.
 */
import { parseArgs } from 'node:util';
import { FAKE_SUBSCRIBESTAR_ADULT_KEY, FAKE_SUBSCRIBESTAR_KEY, startFakeSubscribestar } from './subscribestar.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'adult-port': { type: 'string', default: '0' },
    'cdn-port': { type: 'string', default: '0' },
    'page-size': { type: 'string', default: '5' },
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

const fake = await startFakeSubscribestar({
  port: number(values.port, 'port'),
  adultPort: number(values['adult-port'], 'adult-port'),
  cdnPort: number(values['cdn-port'], 'cdn-port'),
  keys: { com: process.env.FAKE_SUBSCRIBESTAR_KEY || FAKE_SUBSCRIBESTAR_KEY, adult: process.env.FAKE_SUBSCRIBESTAR_ADULT_KEY || FAKE_SUBSCRIBESTAR_ADULT_KEY },
  pageSize: Math.max(1, number(values['page-size'], 'page-size')),
});
console.log(`fake subscribestar listening on ${fake.url} (www.subscribestar.com), ${fake.adultUrl} (subscribestar.adult), files on ${fake.cdnUrl}`);
console.log(`session keys (the ${fake.cookieName} cookie of each site):`);
console.log(`  .com:  ${fake.keys.com}`);
console.log(`  adult: ${fake.keys.adult} (with 18_plus_agreement_generic=true)`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
