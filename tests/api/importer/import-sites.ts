/**
 * Every paysite importer against its fake, run by the real worker over a real SQLite file: the ten
 * benchmark entries (bench/importers/<site>.ts, the same fakes the benchmark uses) plus Fanbox, whose
 * fake has no benchmark entry. Discord has one server only and is driven by its own test.
 * For tests that need "run this importer once more on the same archive" for every importer alike.
 */
import { createImport, getImport, getImportLogs } from '@api/data/imports.ts';
import { submitImport } from '@api/importer/submit.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { startImportWorker } from '@api/importer/worker.ts';
import { readConfig, type Config } from '@api/config.ts';
import type { Db } from '@api/data/db.ts';
import { importSubmissionSchema } from '@shared/importer.ts';
import { benchSites } from '../../../bench/importers.ts';
import type { ImportBenchSite } from '../../../bench/importers/site.ts';
import { startFakeFanbox } from '../../fakes/fanbox.ts';

export interface SiteFake {
  env: Record<string, string>;
  /** Queues an import of this fake's account; returns its id. */
  queue(db: Db, config: Config): Promise<string>;
  /** Requests the fake answered so far. */
  requests(): number;
  close(): Promise<void>;
}

const FANBOX_KEY = '12345678_sEcReTsEsSiOnKeYfAnBoX0123';
let fanboxImports = 0;

async function startFanbox(): Promise<SiteFake> {
  const fake = await startFakeFanbox({ key: FANBOX_KEY });
  return {
    env: { IMPORTER_FANBOX_URL: fake.url },
    async queue(db, config) {
      const id = `fanbox-${++fanboxImports}-${Date.now()}`;
      await createImport(db, { id, service: 'fanbox', key_id: null, work_key: sealForWorker(config, id, FANBOX_KEY) });
      return id;
    },
    requests: () => fake.requests.length,
    close: fake.close,
  };
}

async function startBench(site: string, posts: number): Promise<SiteFake> {
  const entry = ((await import(`../../../bench/importers/${site}.ts`)) as { default: ImportBenchSite }).default;
  const fake = await entry.start(posts);
  return {
    env: fake.env,
    async queue(db, config) {
      const body = importSubmissionSchema.parse({ service: site, ...fake.submission });
      return submitImport({ db, config }, body, { account: null, address: '127.0.0.1' });
    },
    requests: fake.requests,
    close: fake.close,
  };
}

/** The paysites this harness runs: Patreon first, then the other benchmark entries, then Fanbox. */
export function importSites(): string[] {
  return [...benchSites(), 'fanbox'];
}

/** Starts a site's fake serving about `posts` posts. */
export function startSite(site: string, posts = 6): Promise<SiteFake> {
  return site === 'fanbox' ? startFanbox() : startBench(site, posts);
}

export function siteConfig(dir: string, fake: SiteFake): Config {
  return readConfig({ DATA_DIR: dir, TROVE_ENV: 'test', IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1', ...fake.env });
}

/** Runs one import of the fake's account to its end with the real worker; returns its log. */
export async function runSiteImport(db: Db, config: Config, fake: SiteFake): Promise<string[]> {
  const id = await fake.queue(db, config);
  const worker = startImportWorker({ db, config }, { autoStart: false, backoffMs: 100 });
  try {
    for (let tries = 0; !(await getImport(db, id))?.finished_at && tries < 20; tries++) await worker.runOnce();
  } finally {
    await worker.stop();
  }
  return await getImportLogs(db, id);
}
