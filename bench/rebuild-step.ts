/**
 * One archive of the rebuild benchmark (run by bench/run.ts with DATA_DIR set, and DATABASE_URL for the
 * archive's PostgreSQL copy, which bench/run.ts makes first: seeding PostgreSQL here works but would give
 * it an archive of its own): seeds N posts if the archive is not there yet, then for each k imports k new
 * posts into ten existing creators and times `scripts/rebuild`'s work (plan, renderer start, render,
 * write). Prints one JSON line.
 */
import { parseArgs } from 'node:util';
import { inTransaction } from '../api/data/store.ts';
import { countCreatorPosts, countPosts, deletePost, upsertPost } from '../api/data/posts.ts';
import { iterateCreatorKeys } from '../api/data/creators.ts';
import { lastChangeId, pruneChanges } from '../api/data/changes.ts';
import { setKv } from '../api/data/kv.ts';
import { applyRebuild, LAST_REBUILT_KEY, planRebuild } from '../api/pages/rebuild.ts';
import { seedDemoArchive } from '../scripts/seed/index.ts';
import { createProgress } from '../scripts/lib/progress.ts';
import { openSite, storeRendererFor } from '../scripts/lib/site.ts';

process.env.NODE_ENV ??= 'production';
const { values } = parseArgs({
  options: {
    posts: { type: 'string' },
    creators: { type: 'string' },
    imports: { type: 'string', default: '100,1000' },
    threads: { type: 'string' },
  },
});
const posts = Number(values.posts);
const creators = Number(values.creators);

const site = await openSite();
const { db } = site;
let seedSeconds: number | undefined;
if ((await countPosts(db)) < posts) {
  const progress = createProgress(`Seeding ${posts} posts`);
  progress.start(posts);
  const seeded = await seedDemoArchive(db, {
    dataDir: site.config.dataDir,
    creators,
    posts,
    onProgress: ({ phase, done }) => phase === 'posts' && progress.update(done),
  });
  progress.stop();
  seedSeconds = seeded.seconds;
}
site.store.adoptBuild(site.storeId);
// The benchmark measures imports, not the seed: start from a consumed change log, pruned as a rebuild
// leaves it (the first timed rebuild would otherwise delete the seed's million rows).
await setKv(db, LAST_REBUILT_KEY, String(await lastChangeId(db)));
await pruneChanges(db, await lastChangeId(db));

// A listing's pages all shift when a post is added, so the cost of an import grows with the size of
// the creators it touches. To compare archives of different sizes fairly, the imports go to ten
// creators of the archive's average size (posts / creators), picked among the 40 closest by a fixed
// sequence: every run and both engines (PostgreSQL's archive is a copy of SQLite's) import into the
// same creators, so they render the same pages.
const average = posts / creators;
const sized: Array<{ service: string; id: string; distance: number }> = [];
for await (const creator of iterateCreatorKeys(db)) {
  if (creator.service === 'discord') continue;
  sized.push({ ...creator, distance: Math.abs((await countCreatorPosts(db, creator.service, creator.id)) - average) });
}
// Ties by key in code-unit order: the engines' ORDER BY may collate differently.
const keyOf = (creator: { service: string; id: string }) => `${creator.service}/${creator.id}`;
const bySize = sized.sort((a, b) => a.distance - b.distance || (keyOf(a) < keyOf(b) ? -1 : 1)).slice(0, 40);
const targets = Array.from({ length: 10 }, (_, i) => bySize.splice((i * 7919) % bySize.length, 1)[0]);

const runs = [];
const imported: Array<{ service: string; user: string; id: string }> = [];
let serial = 0;
for (const k of values.imports.split(',').map(Number)) {
  const importStarted = performance.now();
  await inTransaction(db, async (db) => {
    for (let i = 0; i < k; i += 1) {
      const target = targets[i % targets.length];
      serial += 1;
      const id = `bench-${Date.now()}-${serial}`;
      imported.push({ service: target.service, user: target.id, id });
      await upsertPost(db, {
        service: target.service,
        user: target.id,
        id,
        title: `Benchmark import ${serial}`,
        content: `<p>Imported post ${serial} for the rebuild benchmark.</p>`,
        published: new Date(Date.UTC(2026, 0, 1) + serial * 60_000).toISOString().slice(0, 19),
        tags: ['benchmark'],
      });
    }
  });
  const importSeconds = (performance.now() - importStarted) / 1000;

  const started = performance.now();
  const plan = await planRebuild(db);
  const planSeconds = (performance.now() - started) / 1000;
  const renderer = await storeRendererFor(site, { pages: plan.keys.length, threads: Number(values.threads) || undefined });
  const summary = await applyRebuild(db, site.store, renderer, plan);
  await renderer.close();
  const seconds = (performance.now() - started) / 1000;
  runs.push({ k, importSeconds, pages: plan.keys.length, seconds, planSeconds, written: summary.written, failed: summary.failed.length });
  console.error(
    `${db.engine} N=${await countPosts(db)} k=${k}: import ${importSeconds.toFixed(2)} s, ${plan.keys.length} pages in ${seconds.toFixed(2)} s (plan ${planSeconds.toFixed(2)} s)`,
  );
}
// The imports go again, so the next run measures the same archive (runs used to pile up imports, all
// newer than the seed, until they were the newest posts every listing and search started from).
const removing = createProgress('Removing the imported posts');
removing.start(imported.length);
await inTransaction(db, async (db) => {
  for (const [i, post] of imported.entries()) {
    await deletePost(db, post.service, post.user, post.id);
    removing.update(i + 1);
  }
});
removing.stop();
await site.close();
console.log(JSON.stringify({ engine: db.engine, posts, creators, seedSeconds, runs }));
