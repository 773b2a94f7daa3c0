/** Boosty in the per-importer benchmark: the fake Boosty serving benchDataset (3 blogs, an image and a file per post). */
import { FAKE_BOOSTY_KEY, benchDataset, startFakeBoosty } from '../../tests/fakes/boosty.ts';
import type { ImportBenchSite } from './site.ts';

const boosty: ImportBenchSite = {
  service: 'boosty',
  async start(posts) {
    const fake = await startFakeBoosty({ dataset: benchDataset(posts), pageSize: 20 });
    return {
      env: { IMPORTER_BOOSTY_URL: fake.url },
      submission: { session_key: FAKE_BOOSTY_KEY },
      requests: () => fake.requests.length,
      close: fake.close,
    };
  },
};
export default boosty;
