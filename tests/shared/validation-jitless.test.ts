/**
 * In browsers zod must run jitless: the pages' Content-Security-Policy forbids eval, and zod's
 * `new Function` probe is reported as a violation even when caught. shared/validation/rules.ts switches
 * it on; every module of shared/validation (and shared/importer.ts) must load it before building a
 * schema. tests/shared/jitless-probe.ts loads them as a browser would, in a fresh process.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('zod in the browser', () => {
  it('never probes for eval while the validators load and parse', () => {
    const probe = path.join(import.meta.dirname, 'jitless-probe.ts');
    const run = spawnSync(process.execPath, ['--import', 'tsx', probe], {
      encoding: 'utf8',
      cwd: path.resolve(import.meta.dirname, '../..'),
    });
    expect(run.status, run.stderr).toBe(0);
    const seen = JSON.parse(run.stdout.trim().split('\n').pop()!) as {
      modules: string[];
      parsed: number;
      jitless: boolean;
      probes: string[];
    };
    expect(seen.modules).toContain('validation/rules.ts');
    expect(seen.modules).toContain('importer.ts');
    expect(seen.parsed).toBeGreaterThan(20);
    expect(seen.jitless).toBe(true);
    expect(seen.probes).toEqual([]);
  });
});
