/** Afdian in the per-importer benchmark: the fake Afdian (API and CDN) with benchDataset over three creators. */
import { FAKE_AFDIAN_KEY, benchDataset, startFakeAfdian } from '../../tests/fakes/afdian.ts';
import type { ImportBenchSite } from './site.ts';

const afdian: ImportBenchSite = {
  service: 'afdian',
  async start(posts) {
    const fake = await startFakeAfdian({ key: FAKE_AFDIAN_KEY, dataset: benchDataset(posts, 3) });
    return {
      env: { IMPORTER_AFDIAN_URL: fake.url },
      submission: { session_key: FAKE_AFDIAN_KEY },
      requests: () => fake.requests.length,
      close: fake.close,
    };
  },
};
export default afdian;
