/**
 * The real front server for tests: a temporary data folder with a migrated SQLite file, the built SSR
 * handler and the page store, listening on a free port. Tests add their data before calling start().
 */
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '@api/app.ts';
import { migrate, openDatabase, type Db } from '@api/data/db.ts';
import { getFileByHash } from '@api/data/files.ts';
import { createFrontServer } from '@api/server/front.ts';
import type { MediaOptions } from '@api/server/media.ts';
import { PageStore } from '@api/server/page-store.ts';
import { createPageRenderer, loadSsrHandler, type PageRenderer, type SsrHandler } from '@api/server/ssr.ts';
import { dataPaths, readConfig, type Config } from '@api/config.ts';
import { DIST_DIR } from '../../scripts/lib/build.ts';
import { listen } from './http.ts';

export interface TestSite {
  dataDir: string;
  paths: ReturnType<typeof dataPaths>;
  db: Db;
  /** The settings of the API and the pages (DATA_DIR is the temporary folder, environment 'test'). */
  config: Config;
  /** Set by start(). */
  base: string;
  store: PageStore;
  handler: SsrHandler;
  renderer: PageRenderer;
  /** `log` receives the front server's log lines (none by default). */
  start(media?: Partial<MediaOptions>, options?: { log?: (line: string) => void }): Promise<string>;
  close(): Promise<void>;
}

export async function createTestSite(prefix: string): Promise<TestSite> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `trove-${prefix}-`));
  const paths = dataPaths(dataDir);
  const db = openDatabase(paths.database);
  migrate(db);
  const config: Config = { ...readConfig({ DATA_DIR: dataDir }), environment: 'test' };
  // Pages render with this database and these settings (the SSR handler's locals), as the API does.
  const handler = await loadSsrHandler(DIST_DIR);
  const renderer = createPageRenderer(handler, { db, config });
  const store = new PageStore(paths.pages);
  let server: http.Server | undefined;
  const site: TestSite = {
    dataDir,
    paths,
    db,
    config,
    base: '',
    store,
    handler,
    renderer,
    async start(media = {}, options = {}) {
      server = createFrontServer({
        api: createApp({ db, config }),
        clientDir: path.join(DIST_DIR, 'client'),
        media: { ...paths, mimeOf: async (hash) => (await getFileByHash(db, hash))?.mime, ...media },
        store,
        ssr: handler,
        renderer,
        site: { db, config },
        log: options.log,
      });
      site.base = await listen(server);
      return site.base;
    },
    async close() {
      server?.close();
      await renderer.close();
      db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return site;
}
