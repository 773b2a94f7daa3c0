/**
 * Renders archive pages into the page store, in this thread or spread over worker threads (one SSR
 * handler each), so a full render uses every core.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PageStore, WriteOptions } from '../server/page-store.ts';
import type { PageRenderer } from '../server/ssr.ts';
import type { Config } from '../config.ts';

export type RenderOutcome = 'written' | 'unchanged' | 'removed' | 'absent' | 'failed';
export interface RenderResult {
  key: string;
  outcome: RenderOutcome;
  error?: string;
}

export interface StoreRenderer {
  /** Renders each key and writes (200) or removes (anything else) its stored page. */
  render(keys: string[], onResult: (result: RenderResult) => void, write?: WriteOptions): Promise<void>;
  close(): Promise<void>;
}

/**
 * Renders one key and applies the answer to the store. `blocking` writes with the store's synchronous
 * calls (render workers); otherwise file work goes to the thread pool so this thread stays responsive.
 */
export async function renderOne(
  renderer: PageRenderer,
  store: PageStore,
  key: string,
  write: WriteOptions = {},
  blocking = false,
): Promise<RenderResult> {
  try {
    const page = await renderer.render(key);
    if (page.status === 200) {
      const written = blocking ? store.writeSync(key, page.body, write) : await store.write(key, page.body, write);
      return { key, outcome: written ? 'written' : 'unchanged' };
    }
    return { key, outcome: store.remove(key) ? 'removed' : 'absent' };
  } catch (error) {
    return { key, outcome: 'failed', error: (error as Error).message };
  }
}

/** Runs `task` for each index below `count`, `lanes` tasks in flight at once. */
export async function inLanes(count: number, lanes: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, lanes) }, lane));
}

/** Renders in this thread, a few pages in flight at once. */
export function inProcessRenderer(renderer: PageRenderer, store: PageStore, concurrency = 16): StoreRenderer {
  return {
    async render(keys, onResult, write) {
      await inLanes(keys.length, concurrency, async (index) => onResult(await renderOne(renderer, store, keys[index], write)));
    },
    async close() {},
  };
}

const BATCH = 64;

/**
 * Renders on `threads` worker threads, each with its own SSR handler, database handle and store writer.
 * The worker is the build's plain-JavaScript bundle of render-worker.ts (see scripts/lib/build.ts).
 */
export async function workerPoolRenderer(options: {
  workerFile: string;
  distDir: string;
  storeRoot: string;
  /** The settings pages render with; each worker opens the database of config.dataDir itself. */
  config: Config;
  threads?: number;
}): Promise<StoreRenderer> {
  const threads = Math.max(1, options.threads ?? os.availableParallelism());
  const workers = await Promise.all(
    Array.from({ length: threads }, async () => {
      const worker = new Worker(options.workerFile, {
        workerData: { distDir: options.distDir, storeRoot: options.storeRoot, config: options.config },
        env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production' },
      });
      await new Promise<void>((resolve, reject) => {
        worker.once('message', (message: { ready?: boolean; error?: string }) =>
          message.ready ? resolve() : reject(new Error(message.error ?? 'render worker failed to start')),
        );
        worker.once('error', reject);
      });
      return worker;
    }),
  );

  return {
    async render(keys, onResult, write) {
      let next = 0;
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve, reject) => {
              const sendBatch = () => {
                if (next >= keys.length) {
                  worker.off('message', onMessage);
                  worker.off('error', reject);
                  resolve();
                  return;
                }
                const batch = keys.slice(next, next + BATCH);
                next += batch.length;
                worker.postMessage({ keys: batch, write });
              };
              const onMessage = (message: { results: RenderResult[] }) => {
                for (const result of message.results) onResult(result);
                sendBatch();
              };
              worker.on('message', onMessage);
              worker.once('error', reject);
              sendBatch();
            }),
        ),
      );
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
