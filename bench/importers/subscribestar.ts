/**
 * SubscribeStar in the per-importer benchmark: the fake www.subscribestar.com (tests/fakes/subscribestar.ts)
 * serving a generated dataset of about `posts` visible posts over three stars, each with a gallery image
 * and a PDF, ten posts a page. The key is the fake's .com `_personalization_id`.
 */
import { FAKE_SUBSCRIBESTAR_KEY, generatedDataset, startFakeSubscribestar } from '../../tests/fakes/subscribestar.ts';
import type { ImportBenchSite } from './site.ts';

const site: ImportBenchSite = {
  service: 'subscribestar',
  async start(posts) {
    const fake = await startFakeSubscribestar({ dataset: generatedDataset(posts), pageSize: 10 });
    return {
      env: { IMPORTER_SUBSCRIBESTAR_URL: fake.url, IMPORTER_SUBSCRIBESTAR_ADULT_URL: fake.adultUrl },
      submission: { session_key: FAKE_SUBSCRIBESTAR_KEY },
      requests: () => fake.requests.length,
      close: fake.close,
    };
  },
};

export default site;
