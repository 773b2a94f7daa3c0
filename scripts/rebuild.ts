/**
 * scripts/rebuild: re-renders the archive pages that the change log says are affected since the last
 * rebuild, replaces or removes their stored files, and prints a summary.
 *   --all      render every archive page
 *   --dry-run  list the URLs that would be rendered, render nothing
 */
import { parseArgs } from 'node:util';
import { createProgress } from './lib/progress.ts';
import { openSite, storeRendererFor } from './lib/site.ts';
import { rebuildPages } from '../api/pages/rebuild.ts';

process.env.NODE_ENV ??= 'production';

const { values } = parseArgs({
  options: {
    all: { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    threads: { type: 'string' },
  },
});

const site = await openSite();
const fresh = site.store.buildId() !== site.storeId;
const all = values.all || fresh;
if (fresh && !values.all) console.log('The page store is empty or from another build: rendering every page.');
if (fresh && !values['dry-run']) site.store.adoptBuild(site.storeId);
const progress = createProgress('Rendering pages');
// Small rebuilds render in this thread; large ones spread over worker threads (one per core).
const threads = Number(values.threads) || undefined;
const renderer = values['dry-run'] ? undefined : await storeRendererFor(site, { all, threads });
const summary = await rebuildPages(site.db, site.store, renderer, {
  all,
  dryRun: values['dry-run'],
  onStart: (total) => progress.start(total),
  onProgress: (done, total) => progress.update(done, total),
});
if (!values['dry-run']) progress.stop();

if (values['dry-run']) {
  for (const key of summary.keys) console.log(key);
  console.log(`${summary.keys.length} pages would be rendered (${summary.changes} changes since the last rebuild).`);
} else {
  console.log(
    `Rebuilt ${summary.considered} pages from ${all ? 'the whole archive' : `${summary.changes} changes`} in ${summary.seconds.toFixed(2)} s: ` +
      `${summary.written} written, ${summary.unchanged} unchanged, ${summary.removed} removed, ${summary.failed.length} failed.`,
  );
  for (const failure of summary.failed.slice(0, 20)) console.error(`failed: ${failure}`);
}
await renderer?.close();
await site.close();
process.exit(summary.failed.length > 0 ? 1 : 0);
