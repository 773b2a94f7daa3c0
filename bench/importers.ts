/**
 * The per-importer part of `npm run bench -- import`: every paysite with a bench entry
 * (bench/importers/<site>.ts) imports about the same number of posts from its fake into an empty archive,
 * one after another in the same run, so their posts/s, files/s and MB/s compare (Patreon's is the baseline).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { archiveDir, runStep } from './lib.ts';

/** Posts per importer: enough for several pages on every site, small enough for all twelve in a few minutes. */
export const POSTS_PER_IMPORTER = 200;

export function benchSites(): string[] {
  const folder = path.resolve('bench/importers');
  return fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.ts') && name !== 'site.ts')
    .map((name) => name.slice(0, -3))
    .sort((a, b) => (a === 'patreon' ? -1 : b === 'patreon' ? 1 : a.localeCompare(b)));
}

export async function importersBenchmark(posts = POSTS_PER_IMPORTER): Promise<unknown> {
  const runs = [];
  for (const site of benchSites()) {
    const dir = archiveDir(`importer-${site}`);
    fs.rmSync(dir, { recursive: true, force: true });
    const loadBefore = os.loadavg()[0];
    const measured = await runStep<Record<string, unknown>>('bench/importers-step.ts', [site, `--posts=${posts}`], { DATA_DIR: dir });
    console.error(`${site}: ${JSON.stringify(measured)}`);
    runs.push({ ...measured, load: { before: loadBefore, after: os.loadavg()[0] } });
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { machine: `${os.cpus().length} cores, Node ${process.versions.node}`, postsPerImporter: posts, runs };
}
