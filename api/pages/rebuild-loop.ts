/**
 * Keeps the page store current while the server runs: every interval, when the change log has moved
 * past the last rebuild (an import, a favourite, an approved DM or link, an upload), the affected pages
 * are rebuilt, so nobody has to run `scripts/rebuild` by hand. One rebuild at a time; a run that
 * finds nothing new costs one indexed read.
 *
 * Every web node runs this loop over the one shared page store, and one rebuild at a time runs across
 * all of them (the 'page-rebuild' cluster lock): a tick that finds the lock taken skips (the holder is
 * rebuilding the same changes), `runNow` waits for it and then checks again. Whichever node is alive
 * renders, so a dead node's work is taken over at the next tick.
 */
import type { Store } from '../data/store.ts';
import { getKv } from '../data/kv.ts';
import { lastChangeId } from '../data/changes.ts';
import type { PageStore } from '../server/page-store.ts';
import { LAST_REBUILT_KEY, rebuildPages, type RebuildSummary } from './rebuild.ts';
import type { StoreRenderer } from './render-into-store.ts';
import { TouchedCreators, updateSimilar } from '../similar/job.ts';
import { tryClusterLock, withClusterLock } from '../cluster/locks.ts';

export interface RebuildLoop {
  /** Runs one check now (waits for a running one first); resolves with its summary, if it rebuilt. */
  runNow(): Promise<RebuildSummary | undefined>;
  /** Stops the ticks and waits for a running rebuild to finish. */
  stop(): Promise<void>;
}

export function startRebuildLoop(
  deps: {
    db: Store;
    store: PageStore;
    renderer: StoreRenderer;
    log?: (line: string) => void;
    /** Told after each rebuild (the metrics count runs and their duration). */
    onRebuilt?: (summary: RebuildSummary) => void;
  },
  intervalMs: number,
): RebuildLoop {
  let running: Promise<RebuildSummary | undefined> | undefined;

  /** One rebuild, then the similar-creators job over the change-log rows that rebuild consumed. */
  const rebuildAndScore = async () => {
    const touched = new TouchedCreators();
    const summary = await rebuildPages(deps.db, deps.store, deps.renderer, {
      onDone: deps.onRebuilt,
      onChange: (change) => touched.add(change),
    });
    if (summary.considered > 0) {
      deps.log?.(
        `Page store refreshed: ${summary.considered} pages from ${summary.changes} changes in ${summary.seconds.toFixed(1)} s (${summary.written} written, ${summary.failed.length} failed).`,
      );
    }
    const similar = await updateSimilar(deps.db, touched);
    if (similar.scored > 0) {
      deps.log?.(`Similar creators: ${similar.scored} scored, ${similar.marked} pages to render, in ${similar.seconds.toFixed(2)} s.`);
    }
    return { summary, marked: similar.marked };
  };

  const pending = async () => (await lastChangeId(deps.db)) > Number((await getKv(deps.db, LAST_REBUILT_KEY)) ?? 0);

  const check = async (): Promise<RebuildSummary | undefined> => {
    // Asked again under the lock: another node may have rebuilt since.
    if (!(await pending())) return undefined;
    const first = await rebuildAndScore();
    // The pages whose similar creators changed are rendered at once, by one more rebuild; the job
    // ignores the rows it wrote, so that rebuild marks nothing of its own (anything else it consumed
    // is scored, and waits for the next check).
    if (first.marked > 0) await rebuildAndScore();
    return first.summary;
  };

  let stopped = false;
  const start = (run: () => Promise<RebuildSummary | undefined>) => {
    running = run().finally(() => (running = undefined));
    return running;
  };

  const runNow = async () => {
    while (running !== undefined) await running.catch(() => undefined);
    return start(() => withClusterLock(deps.db, 'page-rebuild', check));
  };

  const tick = async () => {
    if (running !== undefined || stopped) return;
    // Nothing new (most ticks): two indexed reads, no lock taken.
    await start(async () => ((await pending()) ? (await tryClusterLock(deps.db, 'page-rebuild', check)).value : undefined));
  };

  // intervalMs 0: no ticks, only runNow (REBUILD_INTERVAL_SECONDS=0 still lets a takedown rebuild at once).
  const timer =
    intervalMs > 0
      ? setInterval(
          () => tick().catch((error: unknown) => deps.log?.(`Page store refresh failed: ${(error as Error).message}`)),
          intervalMs,
        )
      : undefined;
  timer?.unref();
  return {
    runNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
