/**
 * The per-importer benchmark's entries (bench/importers/<site>.ts): each is named after its paysite, and
 * the fake it starts with N posts gives the importer exactly N posts with their files, submitted as
 * /importer does and run by the real worker over a real SQLite file, so the benchmark's posts/s and
 * files/s compare like with like.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getImport, getImportLogs } from '@api/data/imports.ts';
import { submitImport } from '@api/importer/submit.ts';
import { startImportWorker } from '@api/importer/worker.ts';
import { readConfig } from '@api/config.ts';
import { importSubmissionSchema } from '@shared/importer.ts';
import { isPaysite } from '@shared/paysites/index.ts';
import { benchSites } from '../../bench/importers.ts';
import type { ImportBenchSite } from '../../bench/importers/site.ts';
import { tempDb, type TempDb } from '../api/data/helpers.ts';

const load = async (site: string) => ((await import(`../../bench/importers/${site}.ts`)) as { default: ImportBenchSite }).default;

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.cleanup());

describe('bench/importers', () => {
  it('lists Patreon first and only paysites, each entry naming its own paysite', async () => {
    const sites = benchSites();
    expect(sites[0]).toBe('patreon');
    for (const site of sites) {
      expect(isPaysite(site)).toBe(true);
      expect((await load(site)).service).toBe(site);
    }
  });

  it.each(benchSites())(
    '%s: the fake started with 5 posts gives its importer 5 posts, each with a file',
    { timeout: 60_000 },
    async (site) => {
      const fake = await (await load(site)).start(5);
      try {
        const config = readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test', IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1', ...fake.env });
        const body = importSubmissionSchema.parse({ service: site, ...fake.submission });
        const id = await submitImport({ db: t.db, config }, body, { account: null, address: '127.0.0.1' });
        const worker = startImportWorker({ db: t.db, config }, { autoStart: false, backoffMs: 100 });
        try {
          for (let tries = 0; !(await getImport(t.db, id))?.finished_at && tries < 20; tries++) await worker.runOnce();
        } finally {
          await worker.stop();
        }
        expect((await getImportLogs(t.db, id)).at(-1)).toBe('Finished.');
        const posts = t.db.prepare('SELECT file, attachments FROM posts WHERE service = ?').all(site) as {
          file: string;
          attachments: string;
        }[];
        expect(posts).toHaveLength(5);
        for (const post of posts) {
          const files = [JSON.parse(post.file), ...JSON.parse(post.attachments)].filter((file) => file?.path);
          expect(files.length).toBeGreaterThanOrEqual(1);
        }
        expect(fake.requests()).toBeGreaterThan(5);
      } finally {
        await fake.close();
      }
    },
  );
});
