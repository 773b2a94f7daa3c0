/** scripts/decrypt-key.ts as an administrator runs it: a real process on a temporary data folder. */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '@api/data/db.ts';
import { createImport } from '@api/data/imports.ts';
import { createAccount } from '@api/data/accounts.ts';
import { saveSubmittedKey } from '@api/importer/key-store.ts';
import { dataPaths, readConfig } from '@api/config.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-decrypt-'));
const KEY = 'Decrypt-Me-Patreon-Session-Key-0123456789a';
let keyId: number;
let privatePem: string;
let otherPem: string;

beforeAll(async () => {
  const db = openDatabase(dataPaths(dir).database);
  migrate(db);
  const account = await createAccount(db, { username: 'keyowner', password_hash: 'x', role: 'consumer' });
  keyId = await saveSubmittedKey(db, readConfig({ DATA_DIR: dir }), {
    accountId: account.id,
    service: 'patreon',
    key: KEY,
    importId: await createImport(db, { service: 'patreon', account_id: account.id }),
  });
  db.close();
  privatePem = path.join(dataPaths(dir).operatorKeys, 'private.pem');
  otherPem = path.join(dir, 'other.pem');
  fs.writeFileSync(otherPem, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(args: string[]) {
  const result = spawnSync('npx', ['tsx', 'scripts/decrypt-key.ts', ...args], {
    env: { ...process.env, DATA_DIR: dir },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('scripts/decrypt-key', () => {
  it('writes exactly the key to stdout only with --print', () => {
    const printed = run(['--private-key', privatePem, '--print', String(keyId)]);
    expect(printed.status).toBe(0);
    expect(printed.stdout).toBe(KEY);
    expect(printed.stderr).not.toContain(KEY);
    const checked = run(['--private-key', privatePem, String(keyId)]);
    expect(checked.status).toBe(0);
    expect(checked.stdout).toBe('');
    expect(checked.stderr).toMatch(/decrypts; pass --print/);
    expect(checked.stderr).not.toContain(KEY);
  }, 60_000);

  it('fails on a wrong private key, an unknown id and bad arguments, printing no key', () => {
    const cases: [string[], RegExp][] = [
      [['--private-key', otherPem, '--print', String(keyId)], /sealed for another operator key/],
      [['--private-key', privatePem, '--print', '999'], /Key 999 not found/],
      [['--private-key', privatePem, 'abc'], /Invalid key ID "abc"/],
      [['--private-key', path.join(dir, 'missing.pem'), String(keyId)], /Cannot read the private key/],
      [[String(keyId)], /Usage/],
    ];
    for (const [args, message] of cases) {
      const result = run(args);
      expect(result.status, args.join(' ')).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toContain(KEY);
    }
  }, 60_000);
});
