/**
 * The per-importer benchmark's entries (bench/importers/<site>.ts): each is named after its paysite, and
 * each fake it starts serves posts that its importer imports (checked for Patreon end to end by the
 * benchmark itself; here the entries' names and a small start).
 */
import { describe, expect, it } from 'vitest';
import { isPaysite } from '@shared/paysites/index.ts';
import { benchSites } from '../../bench/importers.ts';
import type { ImportBenchSite } from '../../bench/importers/site.ts';

const load = async (site: string) => ((await import(`../../bench/importers/${site}.ts`)) as { default: ImportBenchSite }).default;

describe('bench/importers', () => {
  it('lists Patreon first and only paysites, each entry naming its own paysite', async () => {
    const sites = benchSites();
    expect(sites[0]).toBe('patreon');
    for (const site of sites) {
      expect(isPaysite(site)).toBe(true);
      expect((await load(site)).service).toBe(site);
    }
  });

  it('starts each fake with a key for the importer form and closes it', async () => {
    for (const site of benchSites()) {
      const fake = await (await load(site)).start(5);
      try {
        expect(fake.submission.session_key, site).toBeTruthy();
        expect(
          Object.keys(fake.env).some((name) => name.startsWith(`IMPORTER_${site.toUpperCase()}`)),
          site,
        ).toBe(true);
      } finally {
        await fake.close();
      }
    }
  });
});
