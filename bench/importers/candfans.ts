/**
 * CandFans in the per-importer benchmark: the fake CandFans (tests/fakes/candfans.ts) in-process with
 * benchDataset(posts) (three creators whose plans the key joined, a thumbnail and an image per post),
 * with the XSRF handshake and the rotating session cookie as in the importer tests.
 */
import { benchDataset, startFakeCandfans } from '../../tests/fakes/candfans.ts';
import type { ImportBenchSite } from './site.ts';

const candfans: ImportBenchSite = {
  service: 'candfans',
  async start(posts) {
    // Laravel's default throttle would slow a large run down; the benchmark measures the importer.
    const fake = await startFakeCandfans({ dataset: benchDataset(posts), pageSize: 20, perMinute: 1_000_000 });
    return {
      env: { IMPORTER_CANDFANS_URL: fake.url, IMPORTER_CANDFANS_CDN_URL: fake.imageUrl },
      submission: { session_key: fake.key },
      requests: () => fake.requests.length,
      close: fake.close,
    };
  },
};

export default candfans;
