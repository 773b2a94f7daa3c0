/**
 * Fansly in the per-importer benchmark: the fake Fansly (tests/fakes/fansly.ts) in-process with
 * benchDataset(posts) (three subscribed creators, two real JPEG files per post), signed API and
 * CloudFront-signed CDN as in the importer tests.
 */
import { benchDataset, startFakeFansly } from '../../tests/fakes/fansly.ts';
import type { ImportBenchSite } from './site.ts';

const fansly: ImportBenchSite = {
  service: 'fansly',
  async start(posts) {
    const fake = await startFakeFansly({ dataset: benchDataset(posts), pageSize: 15 });
    return {
      env: { IMPORTER_FANSLY_URL: fake.url },
      submission: { session_key: fake.token },
      requests: () => fake.requests.length,
      close: fake.close,
    };
  },
};

export default fansly;
