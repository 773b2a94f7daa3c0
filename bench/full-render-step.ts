/**
 * Full render benchmark (run by bench/run.ts with DATA_DIR set): seeds the archive if needed, empties
 * the page store and renders every archive page on all cores. Prints pages/s and peak memory as JSON.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { countPosts } from '../api/data/posts.ts';
import { applyRebuild, planRebuild } from '../api/pages/rebuild.ts';
import { seedDemoArchive } from '../scripts/seed/index.ts';
import { createProgress } from '../scripts/lib/progress.ts';
import { openSite, storeRendererFor } from '../scripts/lib/site.ts';

process.env.NODE_ENV ??= 'production';
const { values } = parseArgs({ options: { posts: { type: 'string' }, creators: { type: 'string' }, threads: { type: 'string' } } });
const posts = Number(values.posts);

const site = await openSite();
if ((await countPosts(site.db)) < posts) {
  await seedDemoArchive(site.db, { dataDir: site.config.dataDir, creators: Number(values.creators), posts });
}
fs.rmSync(site.store.root, { recursive: true, force: true });
site.store.adoptBuild(site.storeId);

const started = performance.now();
const plan = await planRebuild(site.db, { all: true });
const renderer = await storeRendererFor(site, { pages: plan.keys.length, threads: Number(values.threads) || undefined });
const progress = createProgress('Rendering every page');
let peakRss = process.memoryUsage().rss;
const summary = await applyRebuild(site.db, site.store, renderer, plan, {
  freshStore: true,
  onStart: (total) => progress.start(total),
  onProgress: (done) => {
    progress.update(done);
    if (done % 1000 === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
  },
});
progress.stop();
await renderer.close();
const seconds = (performance.now() - started) / 1000;
// Worker threads share the process, so the process's peak resident set covers them.
const peakRssMb = Math.max(peakRss, process.resourceUsage().maxRSS * 1024) / 1024 / 1024;
await site.close();
console.log(
  JSON.stringify({
    posts,
    pages: plan.keys.length,
    seconds,
    pagesPerSecond: plan.keys.length / seconds,
    peakRssMb,
    failed: summary.failed.length,
  }),
);
