/**
 * Gumroad in the per-importer benchmark: the fake Gumroad (tests/fakes/gumroad.ts) in this process,
 * serving benchDataset(posts) (three sellers; each product an image cover, a ZIP and a PNG), 15 library
 * results a page as Gumroad pages them.
 */
import { benchDataset, FAKE_GUMROAD_KEY, startFakeGumroad } from '../../tests/fakes/gumroad.ts';
import type { ImportBenchSite } from './site.ts';

const site: ImportBenchSite = {
  service: 'gumroad',
  async start(posts) {
    const fake = await startFakeGumroad({ dataset: benchDataset(posts), key: FAKE_GUMROAD_KEY });
    return {
      env: { IMPORTER_GUMROAD_URL: fake.url },
      submission: { session_key: FAKE_GUMROAD_KEY },
      requests: () => fake.requests.length,
      close: fake.close,
    };
  },
};

export default site;
