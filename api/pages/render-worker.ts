/** A render worker thread: loads the SSR handler once, then renders batches of keys into the store. */
import { parentPort, workerData } from 'node:worker_threads';
import { PageStore, type WriteOptions } from '../server/page-store.ts';
import { createPageRenderer, loadSsrHandler } from '../server/ssr.ts';
import { inLanes, renderOne, type RenderResult } from './render-into-store.ts';

const { distDir, storeRoot } = workerData as { distDir: string; storeRoot: string };
const LANES = 16;

try {
  const renderer = await createPageRenderer(await loadSsrHandler(distDir));
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
