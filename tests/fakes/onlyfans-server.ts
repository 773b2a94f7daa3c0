/**
 * The fake OnlyFans on its own, to point a server at by hand:
 *   npx tsx tests/fakes/onlyfans-server.ts --port N [--cdn-port M] [--public-port P] [--page-size S] [--rules FILE]
 * Serves demoDataset (Luna, active, 21 posts of every kind; Kai, expired) and accepts the credential
 * printed at start (FAKE_ONLYFANS_CREDENTIAL of ./onlyfans.ts: sess, auth_id, x-bc, User-Agent, as
 * Trove's OnlyFans key form takes them). Requests must be signed with the rules JSON (default
 * tests/fakes/onlyfans-rules.json); the same file is what an importer should be given.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_ONLYFANS_RULES, FAKE_ONLYFANS_CREDENTIAL, startFakeOnlyfans } from './onlyfans.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'cdn-port': { type: 'string', default: '0' },
    'public-port': { type: 'string', default: '0' },
    'page-size': { type: 'string', default: '10' },
    rules: { type: 'string' },
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

const fake = await startFakeOnlyfans({
  port: number(values.port, 'port'),
  cdnPort: number(values['cdn-port'], 'cdn-port'),
  publicPort: number(values['public-port'], 'public-port'),
  pageSize: Math.max(1, number(values['page-size'], 'page-size')),
  rules: values.rules ? JSON.parse(fs.readFileSync(values.rules, 'utf8')) : DEFAULT_ONLYFANS_RULES,
  credential: FAKE_ONLYFANS_CREDENTIAL,
});
console.log(`fake onlyfans listening on ${fake.url} (API ${fake.apiUrl}, CDN ${fake.cdnUrl}, public ${fake.publicUrl})`);
console.log(`credential: ${JSON.stringify(fake.credential)}`);
console.log(`rules: ${values.rules ?? 'tests/fakes/onlyfans-rules.json'}`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
