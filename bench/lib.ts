/** Shared bits of the benchmarks: where their archives live, and running a step in a child process. */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import fs from 'node:fs';
import path from 'node:path';

export const BENCH_DIR = path.resolve('bench/.data');
export const RESULTS_DIR = path.resolve('bench/results');

export function archiveDir(name: string): string {
  return path.join(BENCH_DIR, name);
}

/** Runs a bench step in its own process (each archive needs its own DATA_DIR) and returns its JSON answer. */
export function runStep<T>(script: string, args: string[], env: Record<string, string>): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${script} exited with ${code}`));
      const line = out
        .trim()
        .split('\n')
        .filter((candidate) => candidate.startsWith('{'))
        .at(-1);
      if (!line) return reject(new Error(`${script} printed no result`));
      resolve(JSON.parse(line) as T);
    });
  });
}

export function saveResult(name: string, result: unknown): void {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
}

/**
 * A fake paysite in a child process, so serving it does not share an event loop with the importer being
 * measured: `script` prints one line once it listens (answered as `first`) and, on SIGTERM, one JSON line
 * with what it served (answered by `stop()`). Node itself with tsx's loader, not npx: SIGTERM then reaches
 * the fake, not a wrapper that leaves it running.
 */
export async function spawnFake<T>(script: string, args: string[]): Promise<{ first: string; stop(): Promise<T> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  process.on('exit', () => child.kill());
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) throw new Error(`${script} ${args.join(' ')} did not start`);
  return {
    first: String(first.value),
    async stop() {
      child.kill('SIGTERM');
      for (let line = await lines.next(); !line.done; line = await lines.next()) {
        if (line.value.startsWith('{')) return JSON.parse(line.value) as T;
      }
      throw new Error(`${script} printed no request counts`);
    },
  };
}
