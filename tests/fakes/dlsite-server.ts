/**
 * The fake DLsite on its own, for trying the importer by hand:
 *   npx tsx tests/fakes/dlsite-server.ts --port N [--cdn-port M] [--page-limit P]
 * Serves demoDataset (eleven works of three makers) and prints the .dlsite.com origin, the img.dlsite.jp
 * origin, the accepted __DLsite_SID and the login of the password form.
 */
import { parseArgs } from 'node:util';
import { FAKE_DLSITE_KEY, FAKE_DLSITE_LOGIN, startFakeDlsite } from './dlsite.ts';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, 'cdn-port': { type: 'string', default: '0' }, 'page-limit': { type: 'string', default: '50' } },
});
const number = (raw: string | undefined, name: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a whole number`);
    process.exit(2);
  }
  return n;
};

const key = process.env.FAKE_DLSITE_KEY || FAKE_DLSITE_KEY;
const fake = await startFakeDlsite({
  key,
  port: number(values.port, 'port'),
  cdnPort: number(values['cdn-port'], 'cdn-port'),
  pageLimit: Math.max(1, number(values['page-limit'], 'page-limit')),
});
console.log(`fake dlsite (www/play/login/download .dlsite.com) on ${fake.url}`);
console.log(`fake dlsite images (img.dlsite.jp) on ${fake.cdnUrl}`);
console.log(`key (the __DLsite_SID cookie): ${key}`);
console.log(`password login: ${FAKE_DLSITE_LOGIN.loginId} / ${FAKE_DLSITE_LOGIN.password}`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
