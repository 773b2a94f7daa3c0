/** Shared bits of the benchmarks: where their archives live, and running a step in a child process. */
import { spawn } from 'node:child_process';
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
