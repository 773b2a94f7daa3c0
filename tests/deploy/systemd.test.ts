/**
 * The systemd units of deploy/ stay true to the code: each starts a script that exists, and every
 * variable they or the example environment file set is one Trove reads.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = 'deploy/systemd';
const units = fs.readdirSync(DIR).filter((name) => name.endsWith('.service'));

/** Every name the sources read from the environment (process.env.X, env.X, env['X']). */
function variablesRead(): Set<string> {
  const names = new Set<string>();
  for (const root of ['api', 'scripts', 'shared']) {
    for (const file of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts')) continue;
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const [, name] of text.matchAll(/\benv(?:\.|\[['"`])([A-Z][A-Z0-9_]+)/g)) names.add(name);
    }
  }
  // Node's own.
  names.add('NODE_ENV');
  return names;
}

function assignments(text: string): string[] {
  const names: string[] = [];
  for (const line of text.split('\n')) {
    const environment = /^Environment=(.*)$/.exec(line);
    const source = environment ? environment[1] : /^[A-Z]/.test(line) && !line.includes('[') ? line : '';
    for (const [, name] of source.matchAll(/(?:^|\s)([A-Z][A-Z0-9_]*)=/g)) names.push(name);
  }
  return names;
}

describe('deploy/systemd', () => {
  const read = variablesRead();

  it('has a web node, a worker and the auto-import units', () => {
    expect(units.sort()).toEqual(['trove-auto-import.service', 'trove-web@.service', 'trove-worker@.service']);
  });

  it.each(units)('%s starts a script that exists, with the variables Trove reads', (unit) => {
    const text = fs.readFileSync(path.join(DIR, unit), 'utf8');
    const exec = /^ExecStart=\/usr\/bin\/node --import tsx (\S+)$/m.exec(text);
    expect(exec, 'ExecStart runs a script under tsx').not.toBeNull();
    expect(fs.existsSync(exec![1])).toBe(true);
    expect(text).toContain('EnvironmentFile=/etc/trove/trove.env');
    const names = assignments(text);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(read.has(name), name).toBe(true);
  });

  it('sets only variables Trove reads in the example environment file', () => {
    const names = assignments(fs.readFileSync(path.join(DIR, 'trove.env.example'), 'utf8'));
    expect(names).toEqual(expect.arrayContaining(['DATABASE_URL', 'DATA_DIR', 'PUBLIC_URL']));
    for (const name of names) expect(read.has(name), name).toBe(true);
  });
});
