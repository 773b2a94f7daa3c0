/**
 * DLsite in the per-importer benchmark: the fake DLsite (tests/fakes/dlsite.ts) serving a generated library
 * of about `posts` bought works over three circles, each with a cover, an inline sample image and a zip.
 */
import { FAKE_DLSITE_KEY, generatedDataset, startFakeDlsite } from '../../tests/fakes/dlsite.ts';
import type { ImportBenchSite } from './site.ts';

const site: ImportBenchSite = {
  service: 'dlsite',
  async start(posts) {
    const fake = await startFakeDlsite({ dataset: generatedDataset(Math.max(1, posts)) });
    return {
      env: { IMPORTER_DLSITE_URL: fake.url, IMPORTER_DLSITE_PLAY_URL: fake.url },
      submission: { session_key: FAKE_DLSITE_KEY },
      requests: () => fake.requests.length,
      close: () => fake.close(),
    };
  },
};

export default site;
