/**
 * Builds the site when dist/ is missing or older than the sources, and keeps built text assets
 * precompressed (.br and .gz beside each file) for the front server.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { build as esbuild } from 'esbuild';
import { isCompressible } from '@api/server/send-file.ts';
import { walkFiles } from '@api/server/walk.ts';
import { parseJsonText } from '../../shared/parse.ts';

/** TROVE_DIST_DIR lets two checkouts' test runs share one tree without building over each other. */
export const DIST_DIR = path.resolve(process.env.TROVE_DIST_DIR ?? 'dist');
const STAMP = path.join(DIST_DIR, 'trove-build.json');
/** What the build is made from; a change to any of these makes `npm start` build again. */
const SOURCES = ['src', 'shared', 'api', 'public', 'astro.config.mjs', 'package-lock.json', 'tsconfig.json'];

/** A hash of every source file's path and bytes: the build id the page store is keyed by. */
export function sourceHash(): string {
  const hash = crypto.createHash('sha256');
  for (const source of SOURCES) {
    for (const file of walkFiles(path.resolve(source))) {
      hash.update(path.relative(process.cwd(), file));
      hash.update('\0');
      hash.update(fs.readFileSync(file));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

export function builtId(): string | undefined {
  // No stamp (never built) or a damaged one: the build is redone.
  if (!fs.existsSync(STAMP)) return undefined;
  const stamp = parseJsonText(fs.readFileSync(STAMP, 'utf8'))?.value as { id?: unknown } | null | undefined;
  return typeof stamp?.id === 'string' ? stamp.id : undefined;
}

/**
 * The render worker runs as plain JavaScript: a worker thread under tsx's loader pays a round trip to
 * the hooks thread for every import(), and React's server renderer imports node:stream on every island
 * render (measured: 559 against 950 post pages/s on one core).
 */
export const RENDER_WORKER = path.join(DIST_DIR, 'render-worker.mjs');

async function bundleRenderWorker(): Promise<void> {
  await esbuild({
    entryPoints: [path.resolve('api/pages/render-worker.ts')],
    outfile: RENDER_WORKER,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
}

/** Runs `astro build` unless dist/ already holds a build of the current sources. Returns the build id. */
export async function ensureBuild(log: (line: string) => void): Promise<string> {
  const id = sourceHash();
  if (builtId() === id && fs.existsSync(path.join(DIST_DIR, 'server', 'entry.mjs')) && fs.existsSync(RENDER_WORKER)) {
    log(`Build ${id} is up to date.`);
    return id;
  }
  log(`Building the site (astro build) for sources ${id}...`);
  const started = Date.now();
  // Always a production build: under another NODE_ENV (vitest sets 'test') Vite compiles JSX for React's
  // development runtime, which the production server cannot run.
  const result = spawnSync('npx', ['astro', 'build'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) throw new Error('astro build failed');
  await bundleRenderWorker();
  const compressed = precompressDir(path.join(DIST_DIR, 'client'));
  fs.writeFileSync(STAMP, `${JSON.stringify({ id, builtAt: new Date().toISOString() })}\n`);
  log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s (${compressed} assets precompressed).`);
  return id;
}

/** Writes .br and .gz siblings for every compressible file over 512 bytes. */
export function precompressDir(dir: string): number {
  let count = 0;
  for (const file of walkFiles(dir)) {
    if (!isCompressible(file) || /\.(br|gz)$/.test(file)) continue;
    const body = fs.readFileSync(file);
    if (body.length < 512) continue;
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
    count += 1;
  }
  return count;
}
