/**
 * `npm run bench [rebuild|render|serve|files|search]`: the benchmarks of docs/benchmarks.md. Figures, not pass/fail.
 * Archives are seeded once into bench/.data and reused; results go to bench/results/*.json.
 */
import { ensureBuild } from '../scripts/lib/build.ts';
import { archiveDir, runStep, saveResult } from './lib.ts';
import { serveBenchmark } from './serve.ts';
import { filesBenchmark } from './files.ts';
import { searchBenchmark } from './search.ts';

const which = process.argv[2] ?? 'all';
await ensureBuild((line) => console.error(line));

if (which === 'all' || which === 'rebuild') {
  const results = [];
  for (const posts of [100_000, 1_000_000]) {
    // Same creator shape at both sizes (500 posts each): only the archive's size differs.
    const creators = posts / 500;
    results.push(await runStep('bench/rebuild-step.ts', [`--posts=${posts}`, `--creators=${creators}`], { DATA_DIR: archiveDir(`rebuild-${posts}`) }));
  }
  saveResult('rebuild', results);
  console.log(JSON.stringify(results, null, 2));
}

if (which === 'all' || which === 'render') {
  const posts = 115_000;
  const result = await runStep('bench/full-render-step.ts', [`--posts=${posts}`, `--creators=${posts / 500}`], { DATA_DIR: archiveDir('render') });
  saveResult('full-render', result);
  console.log(JSON.stringify(result, null, 2));
}

if (which === 'all' || which === 'serve') {
  const result = await serveBenchmark();
  saveResult('serve', result);
  console.log(JSON.stringify(result, null, 2));
}

if (which === 'all' || which === 'files') {
  const result = await filesBenchmark();
  saveResult('files', result);
  console.log(JSON.stringify(result, null, 2));
}

if (which === 'all' || which === 'search') {
  // Reuses the rebuild benchmark's 1,000,000-post archive (run `npm run bench -- rebuild` first).
  const result = await searchBenchmark();
  saveResult('search', result);
  console.log(JSON.stringify(result, null, 2));
}
