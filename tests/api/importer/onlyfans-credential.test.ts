/**
 * OnlyFans needs four values to sign in (sess cookie, auth_id cookie, x-bc, User-Agent): the
 * submission route seals all four for the worker and in the kept key, fingerprints only the session
 * key, and answers, logs and import rows carry none of them; the worker scrubs each from messages.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createPrivateKey } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { getAutoImportKey } from '@api/data/auto-import-keys.ts';
import { getImport, getImportLogs, getImportWorkKey } from '@api/data/imports.ts';
import { credentialSecrets, parseOnlyfansCredential, redactCredential } from '@api/importer/credential.ts';
import { decryptSessionKey } from '@api/importer/key-crypto.ts';
import { keyFingerprint } from '@api/importer/key-store.ts';
import { TransientError } from '@api/importer/errors.ts';
import { openForWorker } from '@api/importer/work-key.ts';
import { startImportWorker } from '@api/importer/worker.ts';
import { dataPaths, readConfig, type Config } from '@api/config.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { databaseEnv, tempDb, type TempDb } from '../data/helpers.ts';

const FIELDS = {
  session_key: 'of-sess-cookie-value-5f2e9c',
  auth_id: '48151623421',
  'x-bc': 'c0ffee'.repeat(6) + 'beef',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) CredentialTest/7',
};
let t: TempDb;
let config: Config;
let app: ReturnType<typeof createApp>;
let alice: TestSession;
const logged: string[] = [];

const submit = (body: Record<string, string>, session?: TestSession) => {
  const call = request(app).post('/api/v1/importer/submit');
  return (session ? call.set('Cookie', session.cookie) : call).send({ service: 'onlyfans', ...body });
};
const values = Object.values(FIELDS);

beforeAll(async () => {
  t = tempDb();
  config = readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' });
  const logger = {
    error: (m: string, d?: unknown) => logged.push(m + JSON.stringify(d ?? {})),
    warn: (m: string, d?: unknown) => logged.push(m + JSON.stringify(d ?? {})),
  };
  app = createApp({ db: t.db, config, logger });
  alice = await signIn(t.db);
});
afterAll(() => t.cleanup());

describe('submitting an OnlyFans key', () => {
  let importId: string;

  it('seals the four fields for the worker and in the kept key; the fingerprint is over the session key', async () => {
    const answer = await submit({ ...FIELDS, save_session_key: '1', auto_import: '1' }, alice);
    expect(answer.status).toBe(200);
    importId = answer.body.import_id;
    for (const value of values) expect(answer.text).not.toContain(value);
    expect(JSON.parse(openForWorker(config, importId, (await getImportWorkKey(t.db, importId))!))).toEqual(FIELDS);
    const row = (await getImport(t.db, importId))!;
    const privateKey = createPrivateKey(fs.readFileSync(path.join(dataPaths(t.dir).operatorKeys, 'private.pem')));
    expect(JSON.parse(decryptSessionKey((await getAutoImportKey(t.db, row.key_id!))!.encrypted_key, privateKey))).toEqual(FIELDS);
    const stored = t.db.prepare('SELECT key_fingerprint FROM imports WHERE id = ?').get(importId) as { key_fingerprint: string };
    expect(stored.key_fingerprint).toBe(keyFingerprint(config, 'onlyfans', FIELDS.session_key));
    const keyRow = t.db.prepare('SELECT fingerprint, auto_import FROM auto_import_keys WHERE id = ?').get(row.key_id) as {
      fingerprint: string;
      auto_import: number;
    };
    expect(keyRow).toEqual({ fingerprint: stored.key_fingerprint, auto_import: 1 });
    // Nothing readable in the import row or its logs.
    const dump = JSON.stringify(t.db.prepare('SELECT * FROM imports').all()) + JSON.stringify(await getImportLogs(t.db, importId));
    for (const value of values) expect(dump).not.toContain(value);
  }, 60_000);

  it('scripts/decrypt-key.ts says it is an OnlyFans credential and prints the four fields only with --print', async () => {
    const keyId = String((await getImport(t.db, importId))!.key_id);
    const pem = path.join(dataPaths(t.dir).operatorKeys, 'private.pem');
    const run = (...args: string[]) =>
      spawnSync('npx', ['tsx', 'scripts/decrypt-key.ts', '--private-key', pem, ...args, keyId], {
        env: { ...process.env, DATA_DIR: t.dir, ...databaseEnv(t.dir) },
        encoding: 'utf8',
      });
    const checked = run();
    expect(checked.stderr).toContain('decrypts (an OnlyFans credential: JSON of session_key, auth_id, x-bc and user_agent)');
    for (const value of values) expect(checked.stdout + checked.stderr).not.toContain(value);
    expect(JSON.parse(run('--print').stdout)).toEqual(FIELDS);
  }, 60_000);

  it('recognises the same session with a new x-bc and User-Agent as the pending import', async () => {
    const again = await submit({ ...FIELDS, 'x-bc': 'ab'.repeat(20), user_agent: 'Other Agent/1' }, alice);
    expect(again.body).toEqual({ import_id: importId });
  });

  it('keeps a key ticked only for saving out of auto-import rounds', async () => {
    const answer = await submit({ ...FIELDS, session_key: 'another-of-session', save_session_key: '1' }, alice);
    const keyId = (await getImport(t.db, answer.body.import_id))!.key_id;
    expect(t.db.prepare('SELECT auto_import FROM auto_import_keys WHERE id = ?').get(keyId)).toEqual({ auto_import: 0 });
  });

  it('the worker scrubs every field from what an importer says', async () => {
    const worker = startImportWorker(
      { db: t.db, config, log: (line) => logged.push(line) },
      {
        autoStart: false,
        importers: () => ({
          async run(ctx) {
            const c = parseOnlyfansCredential(ctx.key)!;
            await ctx.log(`cookie sess=${c.session_key}; auth_id=${c.auth_id}`);
            await ctx.step(() => undefined, { log: [`x-bc ${c['x-bc']} ua ${c.user_agent}`] });
            throw new TransientError(`OnlyFans said: bad ${c.user_agent} / ${c['x-bc']}`);
          },
        }),
      },
    );
    expect(await worker.runOnce()).toBe(true);
    await worker.stop();
    const lines = await getImportLogs(t.db, importId);
    expect(lines).toContain('cookie sess=[key]; auth_id=[key]');
    expect(lines).toContain('x-bc [key] ua [key]');
    expect(lines.some((line) => line.startsWith('OnlyFans error: OnlyFans said: bad [key] / [key]; retrying at'))).toBe(true);
    for (const value of values) expect(lines.join('\n') + logged.join('\n')).not.toContain(value);
  });
});

describe('credential helpers', () => {
  it('scrub the longest secrets first and leave very short fields alone', () => {
    const text = JSON.stringify({ ...FIELDS, auth_id: '12' });
    expect(credentialSecrets(text)[0]).toBe(text);
    expect(credentialSecrets(text)).not.toContain('12');
    expect(redactCredential(`a ${FIELDS.session_key} b 12`, text)).toBe('a [key] b 12');
  });

  it('treat any other paysite key as one opaque secret', () => {
    expect(parseOnlyfansCredential('P'.repeat(43))).toBeUndefined();
    expect(parseOnlyfansCredential('{not json')).toBeUndefined();
    expect(credentialSecrets('plain-key')).toEqual(['plain-key']);
    expect(redactCredential('x plain-key y', 'plain-key')).toBe('x [key] y');
  });
});
