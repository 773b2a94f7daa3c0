/**
 * Import benchmark (`npm run bench -- import`): for each size, a fresh demo archive with its page store
 * full, then one Patreon import of N posts from the fake Patreon run by the real worker, then the
 * rebuild of the pages it touched. See bench/import-step.ts for what is timed.
 */
import fs from 'node:fs';
import os from 'node:os';
import { archiveDir, runStep } from './lib.ts';

/** Posts per run, spread over four creators, 20 posts per page as Patreon's website asks. */
export const IMPORT_SIZES = [200, 2000];
const CREATORS = 4;

export async function importBenchmark(sizes = IMPORT_SIZES): Promise<unknown> {
  const runs = [];
  for (const posts of sizes) {
    const dir = archiveDir(`import-${posts}`);
    // Every run starts from the same archive: an earlier run's import would make this one a re-import.
    fs.rmSync(dir, { recursive: true, force: true });
    const env = { DATA_DIR: dir };
    const prepared = await runStep<Record<string, number>>('bench/import-step.ts', ['--phase=prepare'], env);
    // Other work on a shared machine moves these figures a lot: the load average says how busy it was.
    const loadBefore = os.loadavg()[0];
    const measured = await runStep<Record<string, unknown>>(
      'bench/import-step.ts',
      ['--phase=import', `--posts=${posts}`, `--creators=${CREATORS}`],
      env,
    );
    const load = { before: loadBefore, after: os.loadavg()[0] };
    console.error(`import of ${posts} posts: ${JSON.stringify(measured)}`);
    runs.push({ ...measured, archive: prepared, load });
  }
  return { machine: `${os.cpus().length} cores, Node ${process.versions.node}`, runs };
}
