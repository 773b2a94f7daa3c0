/**
 * scripts/rebuild: re-renders the archive pages that the change log says are affected since the last
 * rebuild, replaces or removes their stored files, and prints a summary.
 *   --all      render every archive page
 *   --dry-run  list the URLs that would be rendered, render nothing
 */
import { parseArgs } from 'node:util';
import { createProgress } from './lib/progress.ts';
import { openSite } from './lib/site.ts';
import { rebuildPages } from '../api/pages/rebuild.ts';

const { values } = parseArgs({
  options: {
    all: { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '4' },
  },
});

const site = await openSite();
const fresh = site.store.buildId() !== site.storeId;
const all = values.all || fresh;
if (fresh && !values.all) console.log('The page store is empty or from another build: rendering every page.');
if (fresh && !values['dry-run']) site.store.adoptBuild(site.storeId);
const progress = createProgress('Rendering pages');
const summary = await rebuildPages(site.db, site.store, site.renderer, {
  all,
  dryRun: values['dry-run'],
  concurrency: Number(values.concurrency) || 4,
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
await site.close();
process.exit(summary.failed.length > 0 ? 1 : 0);
