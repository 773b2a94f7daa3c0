/**
 * `npm run bench [rebuild|rebuild-engines|render|serve|files|search|pages|login|import|chat|paging|similar|api-posts|cluster|nginx-pages]`: the benchmarks of docs/benchmarks.md. Figures, not pass/fail.
 * Archives are seeded once into bench/.data and reused; results go to bench/results/*.json.
 */
import { ensureBuild } from '../scripts/lib/build.ts';
import { archiveDir, machineLoad, postgresCopyOf, runStep, saveResult } from './lib.ts';
import { serveBenchmark } from './serve.ts';
import { filesBenchmark } from './files.ts';
import { searchBenchmark } from './search.ts';
import { pagesBenchmark } from './pages.ts';
import { loginBenchmark } from './login.ts';
import { chatBenchmark } from './chat.ts';
import { importBenchmark } from './import.ts';
import { importersBenchmark } from './importers.ts';
import { pagingBenchmark } from './paging.ts';
import { apiPostsBenchmark } from './api-posts.ts';
import { clusterBenchmark } from './cluster.ts';
import { nginxPagesBenchmarkWithTable } from './nginx-pages.ts';

const which = process.argv[2] ?? 'all';
await ensureBuild((line) => console.error(line));

/** The rebuild benchmark's archive that `search` and `rebuild-engines` use: BENCH_POSTS=100000 for the smaller one. */
function benchPosts(): number {
  const posts = Number(process.env.BENCH_POSTS ?? 1_000_000);
  if (posts !== 100_000 && posts !== 1_000_000) throw new Error('BENCH_POSTS must be 100000 or 1000000 (the rebuild benchmark archives).');
  return posts;
}

/** Each target: the name of its result file and how to get the result, in the order `all` runs them. */
const targets: Record<string, [string, () => Promise<unknown>]> = {
  rebuild: [
    'rebuild',
    async () => {
      const results = [];
      for (const posts of [100_000, 1_000_000]) {
        // Same creator shape at both sizes (500 posts each): only the archive's size differs.
        const creators = posts / 500;
        results.push(
          await runStep('bench/rebuild-step.ts', [`--posts=${posts}`, `--creators=${creators}`], {
            DATA_DIR: archiveDir(`rebuild-${posts}`),
          }),
        );
      }
      return results;
    },
  ],
  // k = 1,000 into the 1,000,000-post archive's copy in PostgreSQL, then into the SQLite archive (bench/lib.ts
  // postgresCopyOf: copied on the first run). Reuses the rebuild benchmark's archive: run that first.
  'rebuild-engines': [
    'rebuild-engines',
    async () => {
      const posts = benchPosts();
      const name = `rebuild-${posts}`;
      const args = [`--posts=${posts}`, `--creators=${posts / 500}`, '--imports=1000'];
      const { cluster, copySeconds } = await postgresCopyOf(name);
      try {
        const machine = machineLoad();
        const postgres = await runStep('bench/rebuild-step.ts', args, { DATA_DIR: archiveDir(name), DATABASE_URL: cluster.url });
        const sqlite = await runStep('bench/rebuild-step.ts', args, { DATA_DIR: archiveDir(name), DATABASE_URL: '' });
        return { copySeconds, machine: { before: machine, after: machineLoad() }, sqlite, postgres };
      } finally {
        await cluster.stop();
      }
    },
  ],
  render: [
    'full-render',
    () => {
      const posts = 115_000;
      return runStep('bench/full-render-step.ts', [`--posts=${posts}`, `--creators=${posts / 500}`], { DATA_DIR: archiveDir('render') });
    },
  ],
  serve: ['serve', serveBenchmark],
  files: ['files', filesBenchmark],
  // Reuses the rebuild benchmark's 1,000,000-post archive (run `npm run bench -- rebuild` first).
  search: ['search', () => searchBenchmark(`rebuild-${benchPosts()}`)],
  // The demo archive's pages in Chromium: JavaScript per island and Lighthouse (mobile).
  pages: ['pages', pagesBenchmark],
  // One login: argon2id verify alone and a whole HTTP login (the figure the accounts issue quotes).
  login: ['login', loginBenchmark],
  // A 100,000-message channel opened at its first, middle and last page: query, API and page render.
  chat: ['chat', chatBenchmark],
  // Patreon imports of two sizes by the real worker with the rebuild each causes, then every importer
  // against its fake (posts/s, files/s, MB/s per paysite).
  // Similar creators: the full recompute of a 10,000-creator archive against reading its inputs, and one job run.
  similar: ['similar', () => runStep('bench/similar-step.ts', [], { DATA_DIR: archiveDir('similar') })],
  import: ['import', async () => ({ patreon: await importBenchmark(), importers: await importersBenchmark() })],
  // Offset against cursor (keyset) pages of a 200,000-post creator and the global list at deep positions.
  paging: ['paging', async () => pagingBenchmark()],
  // A creator's posts through the API against a bare server answering the same JSON (the store move's budget).
  'api-posts': ['api-posts', apiPostsBenchmark],
  // Requests through nginx with 1 and 2 web nodes on PostgreSQL, and the CPU per request of each part.
  cluster: ['cluster', clusterBenchmark],
  // Stored pages sent by nginx from the page store against the node sending the same pages.
  'nginx-pages': ['nginx-pages', nginxPagesBenchmarkWithTable],
};

for (const [target, [resultName, run]] of Object.entries(targets)) {
  if (which !== 'all' && which !== target) continue;
  const result = await run();
  saveResult(resultName, result);
  console.log(JSON.stringify(result, null, 2));
}
