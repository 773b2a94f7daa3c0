/** Patreon in the per-importer benchmark: the fake Patreon with the sized runs' dataset over four creators. */
import { FAKE_PATREON_KEY, startFakePatreon } from '../../tests/fakes/patreon.ts';
import { benchDataset } from '../patreon-dataset.ts';
import type { ImportBenchSite } from './site.ts';

const patreon: ImportBenchSite = {
  service: 'patreon',
  async start(posts) {
    const fake = await startFakePatreon({ key: FAKE_PATREON_KEY, dataset: benchDataset(4, posts), pageSize: 20 });
    return {
      env: { IMPORTER_PATREON_URL: fake.url },
      submission: { session_key: FAKE_PATREON_KEY },
      requests: () => fake.requests.length,
      close: fake.close,
    };
  },
};
export default patreon;
