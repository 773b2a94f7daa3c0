/**
 * OnlyFans in the per-importer benchmark: the fake OnlyFans of the tests (tests/fakes/onlyfans.ts) with
 * a generated dataset of `posts` visible posts over 3 active creators (two photos each, every third a
 * video too) and one expired creator, signing with the fake's rules file, which Trove is pointed at.
 */
import type { ImportBenchSite } from './site.ts';
import { FAKE_ONLYFANS_CREDENTIAL, generatedDataset, startFakeOnlyfans } from '../../tests/fakes/onlyfans.ts';

const site: ImportBenchSite = {
  service: 'onlyfans',
  async start(posts) {
    const fake = await startFakeOnlyfans({ dataset: generatedDataset({ posts, creators: 3 }) });
    const c = FAKE_ONLYFANS_CREDENTIAL;
    return {
      env: { IMPORTER_ONLYFANS_URL: fake.url, IMPORTER_ONLYFANS_RULES: 'tests/fakes/onlyfans-rules.json' },
      submission: { session_key: c.session_key, auth_id: c.auth_id, 'x-bc': c['x-bc'], user_agent: c.user_agent },
      requests: () => fake.requests.length,
      close: fake.close,
    };
  },
};

export default site;
