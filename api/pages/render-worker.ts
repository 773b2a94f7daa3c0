/**
 * A render worker thread: loads the SSR handler once, opens its own handle on the archive database (the
 * same file as the server's; SQLite handles do not cross threads), then renders batches of keys into
 * the store with that handle and the settings the parent passed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../config.ts';
import { openArchiveDatabase } from '../data/open.ts';
import { PageStore, type WriteOptions } from '../server/page-store.ts';
import { createPageRenderer, loadSsrHandler } from '../server/ssr.ts';
import { inLanes, renderOne, type RenderResult } from './render-into-store.ts';

const { distDir, storeRoot, config } = workerData as { distDir: string; storeRoot: string; config: Config };
const LANES = 16;

try {
  // A few connections per render thread: it renders 16 pages at a time, each a handful of queries.
  const db = await openArchiveDatabase(config, { connections: 4 });
  const renderer = createPageRenderer(await loadSsrHandler(distDir), { db, config });
  const store = new PageStore(storeRoot);
  parentPort!.on('message', async ({ keys, write }: { keys: string[]; write?: WriteOptions }) => {
    const results: RenderResult[] = new Array(keys.length);
    await inLanes(keys.length, LANES, async (index) => {
      results[index] = await renderOne(renderer, store, keys[index], write, true);
    });
    parentPort!.postMessage({ results });
  });
  parentPort!.postMessage({ ready: true });
} catch (error) {
  parentPort!.postMessage({ error: (error as Error).message });
}
