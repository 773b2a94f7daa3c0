/** scripts/accounts.ts as an operator runs it: a real process on a temporary data folder. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verify } from '@node-rs/argon2';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { dataPaths } from '@api/config.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-accounts-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  const result = spawnSync('npx', ['tsx', 'scripts/accounts.ts', ...args], {
    input: options.input ?? '',
    env: { ...process.env, DATA_DIR: dir, TROVE_ADMIN_PASSWORD: '', ...options.env },
    encoding: 'utf8',
  });
  return { status: result.status, out: result.stdout + result.stderr };
}

const row = (username: string) => {
  const db = new Database(dataPaths(dir).database, { readonly: true });
  try {
    return db.prepare('SELECT username, role, password_hash FROM accounts WHERE username = ?').get(username) as
      | { username: string; role: string; password_hash: string }
      | undefined;
  } finally {
    db.close();
  }
};

describe('scripts/accounts', () => {
  it('create-admin takes the password from TROVE_ADMIN_PASSWORD or stdin and never prints it', async () => {
    const fromEnv = run(['create-admin', 'Root.Admin'], { env: { TROVE_ADMIN_PASSWORD: 'env-secret-1' } });
    expect(fromEnv.status).toBe(0);
    expect(fromEnv.out).toMatch(/Created administrator root\.admin/);
    expect(fromEnv.out).not.toContain('env-secret-1');
    const stored = row('root.admin')!;
    expect(stored.role).toBe('administrator');
    expect(await verify(stored.password_hash, 'env-secret-1')).toBe(true);

    const fromStdin = run(['create-admin', 'second'], { input: 'stdin-secret-2\n' });
    expect(fromStdin.status).toBe(0);
    expect(await verify(row('second')!.password_hash, 'stdin-secret-2')).toBe(true);
  }, 60_000);

  it('refuses taken names, bad names and short passwords with the registration messages', () => {
    expect(run(['create-admin', 'root.admin'], { input: 'whatever1\n' })).toMatchObject({
      status: 1,
      out: expect.stringContaining('already taken'),
    });
    expect(run(['create-admin', 'ab'], { input: 'whatever1\n' }).out).toContain('Username must be at least 3 characters');
    expect(run(['create-admin', 'shorty'], { input: 'abc\n' }).out).toContain('Password must have at least 5 characters.');
    expect(row('shorty')).toBeUndefined();
  }, 60_000);

  it('lists accounts with id, name, role and join date, filtered by role', () => {
    const all = run(['list']);
    expect(all.status).toBe(0);
    expect(all.out).toMatch(/root\.admin\s+administrator/);
    expect(all.out).toContain('2 accounts.');
    expect(all.out).not.toMatch(/argon2/);
    expect(run(['list', '--role', 'moderator']).out).toContain('0 accounts.');
    expect(run(['list', '--role', 'emperor'])).toMatchObject({ status: 1, out: expect.stringContaining('Invalid account role.') });
  }, 60_000);
});
