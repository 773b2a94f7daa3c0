/**
 * Keeps the page store current while the server runs: every interval, when the change log has moved
 * past the last rebuild (an import, a favourite, an approved DM or link, an upload), the affected pages
 * are rebuilt, so nobody has to run `scripts/rebuild` by hand. One rebuild at a time; a run that
 * finds nothing new costs one indexed read.
 */
import type { Db } from '../data/db.ts';
import { getKv } from '../data/kv.ts';
import { lastChangeId } from '../data/changes.ts';
import type { PageStore } from '../server/page-store.ts';
import { LAST_REBUILT_KEY, rebuildPages, type RebuildSummary } from './rebuild.ts';
import type { StoreRenderer } from './render-into-store.ts';

export interface RebuildLoop {
  /** Runs one check now (waits for a running one first); resolves with its summary, if it rebuilt. */
  runNow(): Promise<RebuildSummary | undefined>;
  stop(): void;
}

export function startRebuildLoop(
  deps: {
    db: Db;
    store: PageStore;
    renderer: StoreRenderer;
    log?: (line: string) => void;
    /** Told after each rebuild (the metrics count runs and their duration). */
    onRebuilt?: (summary: RebuildSummary) => void;
  },
  intervalMs: number,
): RebuildLoop {
  let running: Promise<RebuildSummary | undefined> | undefined;

  const check = async (): Promise<RebuildSummary | undefined> => {
    if (lastChangeId(deps.db) <= Number(getKv(deps.db, LAST_REBUILT_KEY) ?? 0)) return undefined;
    const summary = await rebuildPages(deps.db, deps.store, deps.renderer, { onDone: deps.onRebuilt });
    if (summary.considered > 0) {
      deps.log?.(
        `Page store refreshed: ${summary.considered} pages from ${summary.changes} changes in ${summary.seconds.toFixed(1)} s (${summary.written} written, ${summary.failed.length} failed).`,
      );
    }
    return summary;
  };

  const runNow = async () => {
    while (running) await running.catch(() => undefined);
    running = check().finally(() => (running = undefined));
    return running;
  };

  // intervalMs 0: no ticks, only runNow (REBUILD_INTERVAL_SECONDS=0 still lets a takedown rebuild at once).
  const timer =
    intervalMs > 0
      ? setInterval(() => {
          if (running) return;
          runNow().catch((error: unknown) => deps.log?.(`Page store refresh failed: ${(error as Error).message}`));
        }, intervalMs)
      : undefined;
  timer?.unref();
  return { runNow, stop: () => clearInterval(timer) };
}
