/** Opens what the server, `scripts/rebuild` and the benchmarks share: database, page store, SSR renderer. */
import path from 'node:path';
import { closeArchiveDatabase, openArchiveDatabase } from '@api/data/open.ts';
import type { Store } from '@api/data/store.ts';
import { PageStore } from '@api/server/page-store.ts';
import { createPageRenderer, loadSsrHandler, type PageRenderer, type SsrHandler } from '@api/server/ssr.ts';
import { config, dataPaths, type Config } from '@api/config.ts';
import crypto from 'node:crypto';
import { DIST_DIR, RENDER_WORKER, builtId } from './build.ts';
import { inProcessRenderer, workerPoolRenderer, type StoreRenderer } from '@api/pages/render-into-store.ts';

export interface Site {
  config: Config;
  db: Store;
  store: PageStore;
  ssr: SsrHandler;
  renderer: PageRenderer;
  /** The page store's identity: the build plus the settings rendered into pages. */
  storeId: string;
  close(): Promise<void>;
}

export function storeIdentity(buildId: string, settings: Config): string {
  const rendered = [
    settings.siteName,
    settings.environment,
    settings.imageHost,
    settings.iconsPath,
    settings.bannersPath,
    settings.discordContentHost,
  ];
  return `${buildId}-${crypto.createHash('sha256').update(rendered.join('\n')).digest('hex').slice(0, 8)}`;
}

export async function openSite(): Promise<Site> {
  const settings = config();
  const paths = dataPaths(settings.dataDir);
  const db = await openArchiveDatabase(settings);
  const buildId = builtId();
  if (!buildId) throw new Error('The site is not built: run `npm run build` (or `npm start`) first.');
  const ssr = await loadSsrHandler(DIST_DIR);
  const renderer = createPageRenderer(ssr, { db, config: settings });
  const store = new PageStore(paths.pages);
  return {
    config: settings,
    db,
    store,
    ssr,
    renderer,
    storeId: storeIdentity(buildId, settings),
    async close() {
      await renderer.close();
      await closeArchiveDatabase(db);
    },
  };
}

export const CLIENT_DIR = path.join(DIST_DIR, 'client');

/**
 * Below this many pages a rebuild renders in this thread (compression and writes still go to the thread
 * pool). Starting the workers costs about as much as rendering 250-400 pages here (around that size the
 * figures vary more from run to run than the two differ); above 500 pages the workers win clearly.
 * Two workers against this thread (bench/import-step.ts and bench/rebuild-step.ts --threads): 663 pages
 * 2.51 s vs 3.11 s, 2,091 pages 4.9 s vs 7.1 s, 1,280 pages of the 1M-post archive 5.6-5.8 s vs 7.9-8.9 s.
 */
export const WORKER_THRESHOLD_PAGES = 500;

/** The renderer for a rebuild: worker threads (one per core) for large rebuilds, this thread otherwise. */
export async function storeRendererFor(site: Site, options: { pages: number; threads?: number }): Promise<StoreRenderer> {
  const threads = options.threads ?? (options.pages >= WORKER_THRESHOLD_PAGES ? undefined : 1);
  if (threads === 1) return inProcessRenderer(site.renderer, site.store);
  return workerPoolRenderer({ workerFile: RENDER_WORKER, distDir: DIST_DIR, storeRoot: site.store.root, config: site.config, threads });
}
