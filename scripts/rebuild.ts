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
if (fresh && !values['dry-run']) site.store.adoptBuild(site.storeId);
const touched = new TouchedCreators();
const plan = await planRebuild(site.db, { all, onChange: (change) => touched.add(change) });
if (values['dry-run']) {
  for (const key of plan.keys) console.log(key);
  logger.info(
    `${plan.keys.length} pages would be rendered (${all ? 'the whole archive' : `${plan.changes} changes since the last rebuild`}).`,
  );
  await site.close();
  process.exit(0);
}

const renderer = await storeRendererFor(site, { pages: plan.keys.length, threads: Number(values.threads) || undefined });
const progress = createProgress('Rendering pages');
const summary = await applyRebuild(site.db, site.store, renderer, plan, {
  freshStore: fresh,
  onStart: (total) => progress.start(total),
  onProgress: (done, total) => progress.update(done, total),
});
progress.stop();
logger.info(
  `Rebuilt ${summary.considered} pages from ${all ? 'the whole archive' : `${summary.changes} changes`} in ${summary.seconds.toFixed(2)} s: ` +
    `${summary.written} written, ${summary.unchanged} unchanged, ${summary.removed} removed, ${summary.failed.length} failed.`,
);
for (const failure of summary.failed.slice(0, 20)) logger.error(`failed: ${failure}`);
// As the server does after each rebuild: the similar creators of what changed (their pages go with the next rebuild).
const similar = await updateSimilar(site.db, touched);
if (similar.scored > 0) logger.info(`Similar creators: ${similar.scored} scored, ${similar.marked} pages to render with the next rebuild.`);
await renderer.close();
await site.close();
process.exit(summary.failed.length > 0 ? 1 : 0);
