/**
 * Rebuilds the page store: reads the change log since the last rebuild (or takes every archive page
 * with `all`), renders each affected page through the SSR handler, replaces or removes stored files,
 * and prunes listing pages past the end. Progress is reported through a callback.
 */
import type { Store } from '../data/store.ts';
import { getKv, setKv } from '../data/kv.ts';
import { iterateChangesSince, lastChangeId, pruneChanges, type Change } from '../data/changes.ts';
import { iteratePostKeys } from '../data/posts.ts';
import { iterateRevisionKeys } from '../data/post-revisions.ts';
import { iterateCreatorKeys } from '../data/creators.ts';
import { postUrl, revisionUrl } from '@shared/urls.ts';
import { PageStore } from '../server/page-store.ts';
import type { StoreRenderer } from './render-into-store.ts';
import {
  addAllSharePages,
  addAllTagFeeds,
  addCreatorPages,
  addDiscordServerPages,
  addDmsListing,
  addGlobalPages,
  affectedByChanges,
  emptyAffected,
  type AffectedPages,
} from './affected.ts';
import { pageKey } from './keys.ts';

export const LAST_REBUILT_KEY = 'pages.last_change_id';

export interface RebuildOptions {
  /** The store was emptied just before (a new build): nothing stored to compare with. */
  freshStore?: boolean;
  onStart?: (total: number) => void;
  onProgress?: (done: number, total: number) => void;
  /** Told when the rebuild has finished (the metrics count runs and their duration). */
  onDone?: (summary: RebuildSummary) => void;
  /** Told each change-log row the plan consumes (the similar-creators job collects what changed). */
  onChange?: (change: Change) => void;
}

export interface RebuildSummary {
  changes: number;
  considered: number;
  written: number;
  unchanged: number;
  removed: number;
  failed: string[];
  seconds: number;
  /** The keys that were (or, with dryRun, would be) rendered. */
  keys: string[];
}

/** Every archive page of the archive, for `--all`. */
export async function allArchivePages(db: Store): Promise<AffectedPages> {
  const affected = emptyAffected();
  for await (const { service, id } of iterateCreatorKeys(db)) {
    await addCreatorPages(db, affected, service, id);
    if (service === 'discord') await addDiscordServerPages(db, affected, id);
  }
  for await (const { service, user, id } of iteratePostKeys(db)) affected.render.add(pageKey(postUrl(service, user, id)));
  for await (const { service, user, id, revision_id } of iterateRevisionKeys(db))
    affected.render.add(pageKey(revisionUrl(service, user, id, revision_id)));
  await addGlobalPages(db, affected);
  await addAllTagFeeds(db, affected);
  await addAllSharePages(db, affected);
  await addDmsListing(db, affected);
  return affected;
}

export interface RebuildPlan {
  /** A full rebuild: afterwards the store holds exactly the planned pages. */
  all: boolean;
  /** Change-log rows read (0 for a full rebuild). */
  changes: number;
  /** The last change id the plan covers. */
  upTo: number;
  keys: string[];
  listings: Map<string, number>;
}

/** Works out what a rebuild renders: every archive page, or the pages the change log affects. */
export async function planRebuild(db: Store, options: { all?: boolean; onChange?: (change: Change) => void } = {}): Promise<RebuildPlan> {
  const upTo = await lastChangeId(db);
  if (options.all) {
    const affected = await allArchivePages(db);
    return { all: true, changes: 0, upTo, keys: [...affected.render], listings: affected.listings };
  }
  let changes = 0;
  async function* pending() {
    for await (const change of iterateChangesSince(db, Number((await getKv(db, LAST_REBUILT_KEY)) ?? 0))) {
      if (change.id > upTo) return;
      changes += 1;
      options.onChange?.(change);
      yield change;
    }
  }
  const affected = await affectedByChanges(db, pending());
  return { all: false, changes, upTo, keys: [...affected.render], listings: affected.listings };
}

/** Renders a plan into the store, prunes listing pages past their end, and marks the log as done. */
export async function applyRebuild(
  db: Store,
  store: PageStore,
  renderer: StoreRenderer,
  plan: RebuildPlan,
  options: RebuildOptions = {},
): Promise<RebuildSummary> {
  const started = performance.now();
  const summary: RebuildSummary = {
    changes: plan.changes,
    considered: plan.keys.length,
    written: 0,
    unchanged: 0,
    removed: 0,
    failed: [],
    seconds: 0,
    keys: plan.keys,
  };
  options.onStart?.(plan.keys.length);
  let done = 0;
  // A full render leaves compression to the first request for each page: it halves the work of
  // rendering a whole archive, and a page nobody asks for is never compressed.
  const write = plan.all ? { compress: false, fresh: options.freshStore ?? false } : {};
  await renderer.render(
    plan.keys,
    (result) => {
      if (result.outcome === 'written') summary.written += 1;
      else if (result.outcome === 'unchanged') summary.unchanged += 1;
      else if (result.outcome === 'removed') summary.removed += 1;
      else if (result.outcome === 'failed') summary.failed.push(`${result.key}: ${result.error}`);
      done += 1;
      options.onProgress?.(done, plan.keys.length);
    },
    write,
  );
  if (plan.all) {
    summary.removed += store.pruneExcept(plan.keys);
  } else {
    for (const [pathname, lastOffset] of plan.listings) {
      for (const file of store.listingFiles(pathname)) {
        if (PageStore.offsetOf(file) > lastOffset && store.removeFile(file)) summary.removed += 1;
      }
    }
  }
  if (summary.failed.length === 0) {
    await setKv(db, LAST_REBUILT_KEY, String(plan.upTo));
    // Nothing else reads the rows the rebuild has consumed: the log keeps only what is pending.
    await pruneChanges(db, plan.upTo);
  }
  summary.seconds = (performance.now() - started) / 1000;
  options.onDone?.(summary);
  return summary;
}

/** planRebuild then applyRebuild, in one call. */
export async function rebuildPages(
  db: Store,
  store: PageStore,
  renderer: StoreRenderer,
  options: RebuildOptions & { all?: boolean } = {},
): Promise<RebuildSummary> {
  return applyRebuild(db, store, renderer, await planRebuild(db, options), options);
}
