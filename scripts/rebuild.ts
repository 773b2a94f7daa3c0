/**
 * scripts/rebuild: re-renders the archive pages that the change log says are affected since the last
 * rebuild, replaces or removes their stored files, and prints a summary.
 *   --all      render every archive page
 *   --dry-run  list the URLs that would be rendered, render nothing (the list goes to stdout as plain lines)
 * Then, as the server does, scores again the similar creators of the creators the changes touched.
 * Its messages go through the structured log (LOG_FORMAT, LOG_LEVEL), the progress bar to the terminal.
 */
import { parseArgs } from 'node:util';
import { createProgress } from './lib/progress.ts';
import { openSite, storeRendererFor } from './lib/site.ts';
import { applyRebuild, planRebuild } from '../api/pages/rebuild.ts';
import { config } from '../api/config.ts';
import { createLogger } from '../api/server/logger.ts';
import { TouchedCreators, updateSimilar } from '../api/similar/job.ts';
import { withClusterLock } from '../api/cluster/locks.ts';

process.env.NODE_ENV ??= 'production';

const { values } = parseArgs({
  options: {
    all: { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    threads: { type: 'string' },
  },
});

const logger = createLogger(config(), { name: 'rebuild' });
const site = await openSite();
const fresh = site.store.buildId() !== site.storeId;
const all = values.all || fresh;
if (fresh && !values.all) logger.info('The page store is empty or from another build: rendering every page.');
const touched = new TouchedCreators();
if (values['dry-run']) {
  const plan = await planRebuild(site.db, { all, onChange: (change) => touched.add(change) });
  for (const key of plan.keys) console.log(key);
  logger.info(
    `${plan.keys.length} pages would be rendered (${all ? 'the whole archive' : `${plan.changes} changes since the last rebuild`}).`,
  );
  await site.close();
  process.exit(0);
}

// As the web nodes' rebuilds: one at a time across every process sharing the page store.
const summary = await withClusterLock(site.db, 'page-rebuild', async () => {
  if (fresh) site.store.adoptBuild(site.storeId);
  const plan = await planRebuild(site.db, { all, onChange: (change) => touched.add(change) });
  const renderer = await storeRendererFor(site, { pages: plan.keys.length, threads: Number(values.threads) || undefined });
  const progress = createProgress('Rendering pages');
  const done = await applyRebuild(site.db, site.store, renderer, plan, {
    freshStore: fresh,
    onStart: (total) => progress.start(total),
    onProgress: (count, total) => progress.update(count, total),
  });
  progress.stop();
  logger.info(
    `Rebuilt ${done.considered} pages from ${all ? 'the whole archive' : `${done.changes} changes`} in ${done.seconds.toFixed(2)} s: ` +
      `${done.written} written, ${done.unchanged} unchanged, ${done.removed} removed, ${done.failed.length} failed.`,
  );
  for (const failure of done.failed.slice(0, 20)) logger.error(`failed: ${failure}`);
  // As the server does after each rebuild: the similar creators of what changed (their pages go with the next rebuild).
  const similar = await updateSimilar(site.db, touched);
  if (similar.scored > 0)
    logger.info(`Similar creators: ${similar.scored} scored, ${similar.marked} pages to render with the next rebuild.`);
  await renderer.close();
  return done;
});
await site.close();
process.exit(summary.failed.length > 0 ? 1 : 0);
