/**
 * The fake Gumroad on its own, for trying an importer by hand:
 *   npx tsx tests/fakes/gumroad-server.ts --port N [--cdn-port M] [--page-size P] [--react-on-rails]
 * Serves demoDataset (Alice Brushes and Bob Sounds, 19 purchases in the library) and accepts the
 * _gumroad_app_session in FAKE_GUMROAD_KEY (default FAKE_GUMROAD_KEY of ./gumroad.ts), sent URL-encoded.
 * app.gumroad.com is the printed URL; each seller's {username}.gumroad.com and the file hosts are listed.
 */
import { parseArgs } from 'node:util';
import { FAKE_GUMROAD_KEY, startFakeGumroad } from './gumroad.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'cdn-port': { type: 'string', default: '0' },
    'page-size': { type: 'string', default: '15' },
    'react-on-rails': { type: 'boolean', default: false },
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

const fake = await startFakeGumroad({
  port: number(values.port, 'port'),
  cdnPort: number(values['cdn-port'], 'cdn-port'),
  key: process.env.FAKE_GUMROAD_KEY || FAKE_GUMROAD_KEY,
  pageSize: Math.max(1, number(values['page-size'], 'page-size')),
  generation: values['react-on-rails'] ? 'react_on_rails' : 'inertia',
});
console.log(`fake gumroad listening on ${fake.url} (app.gumroad.com), files on ${fake.cdnUrl}`);
for (const seller of fake.dataset.sellers) console.log(`  ${seller.username}.gumroad.com: ${fake.creatorUrl(seller.username)}`);
console.log(`session key (_gumroad_app_session): ${fake.key}`);
console.log(`as a Cookie header: ${fake.cookie}`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
