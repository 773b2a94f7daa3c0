/**
 * The fake CandFans on its own, to point a server at by hand:
 *   npx tsx tests/fakes/candfans-server.ts --port N [--image-port M] [--video-port V] [--page-size P]
 * Serves demoDataset (Sakura: plan 'ライト' joined, 20 posts of every kind; Ren: followed only) and
 * accepts the session cookie printed at start (FAKE_CANDFANS_KEY of ./candfans.ts, the
 * secure_candfans_session value as the browser stores it). Calls need a candfans.jp Referer or Origin
 * and the XSRF handshake (GET /api/sanctum/csrf-cookie, then X-XSRF-TOKEN).
 */
import { parseArgs } from 'node:util';
import { startFakeCandfans } from './candfans.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'image-port': { type: 'string', default: '0' },
    'video-port': { type: 'string', default: '0' },
    'page-size': { type: 'string', default: '12' },
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

const fake = await startFakeCandfans({
  port: number(values.port, 'port'),
  imagePort: number(values['image-port'], 'image-port'),
  videoPort: number(values['video-port'], 'video-port'),
  pageSize: Math.max(1, number(values['page-size'], 'page-size')),
});
console.log(`fake candfans listening on ${fake.url} (API ${fake.url}/api, images ${fake.imageUrl}, video ${fake.videoUrl})`);
console.log(`secure_candfans_session: ${fake.key}`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
