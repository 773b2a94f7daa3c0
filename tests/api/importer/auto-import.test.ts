/**
 * Auto-import rounds against a real SQLite file and the generated demo operator pair: which kept keys
 * a round queues (due, alive, kept for auto-import, owner present, nothing pending), what the queued
 * import holds (lower priority, owner, key link, the credential sealed for the worker), the failures it
 * reports by id only, the scheduler's rounds (requested, due every 24 h, claimed once), and
 * scripts/auto-import.ts --once as an operator runs it.
 */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listAudit } from '@api/data/audit-log.ts';
import { listAutoImportRounds, requestAutoImportRound } from '@api/data/auto-import.ts';
import { createImport, getImport, getImportLogs, getImportWorkKey, updateImport } from '@api/data/imports.ts';
import { markKeyDead, revokeKeys } from '@api/data/auto-import-keys.ts';
import { nowIso } from '@api/data/util.ts';
import { AUTO_IMPORT_LINES, runAutoImportRound } from '@api/importer/auto-import.ts';
import { startAutoImportScheduler, startDemoAutoImport } from '@api/importer/auto-import-scheduler.ts';
import { encryptSessionKey } from '@api/importer/key-crypto.ts';
import { keyFingerprint, saveSubmittedKey } from '@api/importer/key-store.ts';
import { operatorPublicKey } from '@api/importer/operator-key.ts';
import { openForWorker } from '@api/importer/work-key.ts';
import { AUTO_IMPORT_PRIORITY, SUBMITTED_PRIORITY } from '@api/importer/submit.ts';
import { dataPaths, readConfig, type Config } from '@api/config.ts';
import { signIn } from '../../helpers/session.ts';
import { databaseEnv, tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let config: Config;
let privatePem: string;
const hoursAgo = (h: number, from = new Date()) => nowIso(new Date(from.getTime() - h * 3600_000));
let seq = 0;

beforeAll(() => {
  t = tempDb();
  config = readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' });
  operatorPublicKey(config); // generates the demo pair once
  privatePem = path.join(dataPaths(t.dir).operatorKeys, 'private.pem');
}, 60_000);
afterAll(() => t.cleanup());
beforeEach(() => {
  // Each test starts with no keys and no imports; accounts stay (fresh ones per test).
  t.db.exec('DELETE FROM import_logs; DELETE FROM imports; DELETE FROM auto_import_keys; DELETE FROM auto_import_rounds;');
});

/** A key kept by its owner's submission, whose import finished `lastImportHours` ago. */
async function keep(
  options: { key?: string; service?: string; autoImport?: boolean; lastImportHours?: number; credential?: string; channels?: string } = {},
) {
  const owner = (await signIn(t.db)).account;
  const service = options.service ?? 'patreon';
  const key = options.key ?? `Kept-Key-${(seq += 1)}-`.padEnd(43, 'x');
  const created = hoursAgo(options.lastImportHours ?? 48);
  const importId = await createImport(t.db, { service, account_id: owner.id, created_at: created, channel_ids: options.channels ?? null });
  await updateImport(t.db, importId, { finished_at: created });
  const keyId = await saveSubmittedKey(t.db, config, {
    accountId: owner.id,
    service,
    key,
    credential: options.credential,
    autoImport: options.autoImport ?? true,
    importId,
  });
  return { owner, key, keyId, importId };
}

const round = (now = new Date(), log?: (line: string) => void) =>
  runAutoImportRound(t.db, config, fs.readFileSync(privatePem, 'utf8'), { now, log });
async function importsOfKey(keyId: number) {
  const rows = t.db.prepare('SELECT id FROM imports WHERE key_id = ? ORDER BY created_at').all(keyId) as { id: string }[];
  const imports = [];
  for (const row of rows) imports.push((await getImport(t.db, row.id))!);
  return imports;
}

describe('runAutoImportRound', () => {
  it('queues a due key below submitted imports, for its owner, with the key sealed for the worker', async () => {
    const kept = await keep();
    const lines: string[] = [];
    expect(await round(new Date(), (line) => lines.push(line))).toEqual({ queued: 1, skipped: 0, failed: 0 });
    const [, queued] = await importsOfKey(kept.keyId);
    expect(queued).toMatchObject({
      service: 'patreon',
      account_id: kept.owner.id,
      key_id: kept.keyId,
      priority: AUTO_IMPORT_PRIORITY,
      save_dms: false,
      auto_import: true,
      finished_at: null,
    });
    expect(AUTO_IMPORT_PRIORITY).toBeLessThan(SUBMITTED_PRIORITY);
    expect(openForWorker(config, queued.id, (await getImportWorkKey(t.db, queued.id))!)).toBe(kept.key);
    expect(await getImportLogs(t.db, queued.id)).toEqual([AUTO_IMPORT_LINES.queued]);
    const fingerprint = (t.db.prepare('SELECT key_fingerprint AS f FROM imports WHERE id = ?').get(queued.id) as { f: string }).f;
    expect(fingerprint).toBe(keyFingerprint(config, 'patreon', kept.key));
    expect(lines).toEqual([`Key ${kept.keyId} (Patreon): queued import ${queued.id}.`]);
    expect(lines.join('\n')).not.toContain(kept.key);
  });

  it('skips keys imported in the last 24 h, with an import pending, or whose owner is gone', async () => {
    const recent = await keep({ lastImportHours: 23 });
    const pending = await keep();
    await createImport(t.db, { service: 'patreon', account_id: pending.owner.id, key_id: pending.keyId });
    const orphan = await keep();
    t.db.prepare('DELETE FROM accounts WHERE id = ?').run(orphan.owner.id); // no delete feature yet; the schema sets the key's owner to NULL
    const lines: string[] = [];
    expect(await round(new Date(), (line) => lines.push(line))).toEqual({ queued: 0, skipped: 3, failed: 0 });
    expect(lines).toEqual([
      `Key ${recent.keyId} (Patreon): skipped, imported less than 24 h ago.`,
      `Key ${pending.keyId} (Patreon): skipped, an import of it is queued or running.`,
      `Key ${orphan.keyId} (Patreon): skipped, its account was deleted.`,
    ]);
    // A day later the recent one is due.
    expect((await round(new Date(Date.now() + 2 * 3600_000))).queued).toBe(1);
  });

  it('finds a pending import of the same key by fingerprint (submitted again, not yet linked)', async () => {
    const kept = await keep();
    await createImport(t.db, { service: 'patreon', key_fingerprint: keyFingerprint(config, 'patreon', kept.key) });
    expect(await round()).toEqual({ queued: 0, skipped: 1, failed: 0 });
  });

  it('never touches dead, revoked or debug-only keys', async () => {
    const dead = await keep();
    await markKeyDead(t.db, dead.keyId);
    const revoked = await keep();
    await revokeKeys(t.db, revoked.owner.id, [revoked.keyId]);
    await keep({ autoImport: false });
    expect(await round()).toEqual({ queued: 0, skipped: 0, failed: 0 });
    expect(t.db.prepare('SELECT count(*) AS n FROM imports WHERE finished_at IS NULL').get()).toEqual({ n: 0 });
  });

  it('does not queue a key twice: the second round finds the first one pending', async () => {
    await keep();
    expect((await round()).queued).toBe(1);
    expect(await round()).toEqual({ queued: 0, skipped: 1, failed: 0 });
  });

  it('carries OnlyFans credentials and Discord channels into the new import', async () => {
    const credential = JSON.stringify({
      session_key: 'of-sess-secret',
      auth_id: '998877',
      'x-bc': 'ab'.repeat(20),
      user_agent: 'Mozilla/5.0 Test',
    });
    const onlyfans = await keep({ service: 'onlyfans', key: 'of-sess-secret', credential });
    const discord = await keep({ service: 'discord', channels: '111,222' });
    expect((await round()).queued).toBe(2);
    const of = (await importsOfKey(onlyfans.keyId)).at(-1)!;
    expect(JSON.parse(openForWorker(config, of.id, (await getImportWorkKey(t.db, of.id))!))).toEqual(JSON.parse(credential));
    expect((await importsOfKey(discord.keyId)).at(-1)!.channel_ids).toBe('111,222');
  });

  it('reports a key it cannot decrypt by id only, and goes on with the others', async () => {
    const foreign = await keep();
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    t.db.prepare('UPDATE auto_import_keys SET encrypted_key = ? WHERE id = ?').run(encryptSessionKey(foreign.key, other), foreign.keyId);
    const corrupt = await keep();
    t.db.prepare('UPDATE auto_import_keys SET encrypted_key = ? WHERE id = ?').run(Buffer.from(`{"v":1,${corrupt.key}`), corrupt.keyId);
    const fine = await keep();
    const lines: string[] = [];
    expect(await round(new Date(), (line) => lines.push(line))).toEqual({ queued: 1, skipped: 0, failed: 2 });
    expect(lines[0]).toBe(`Key ${foreign.keyId} (Patreon): could not be decrypted (The key was sealed for another operator key.)`);
    expect(lines[1]).toBe(`Key ${corrupt.keyId} (Patreon): could not be decrypted (Not a key envelope.)`);
    for (const key of [foreign.key, corrupt.key, fine.key]) expect(lines.join('\n')).not.toContain(key);
  });

  it('accepts the private key as a KeyObject too', async () => {
    await keep();
    expect((await runAutoImportRound(t.db, config, createPrivateKey(fs.readFileSync(privatePem)))).queued).toBe(1);
  });
});

describe('startAutoImportScheduler', () => {
  it('runs a requested round, then one every 24 h, recording what each did', async () => {
    await keep();
    let now = new Date('2030-01-01T00:00:00Z');
    const lines: string[] = [];
    const scheduler = startAutoImportScheduler(
      { db: t.db, config, privateKeyPath: privatePem, log: (l) => lines.push(l) },
      { autoStart: false, now: () => now },
    );
    const requested = await requestAutoImportRound(t.db, null, nowIso(now));
    expect(await scheduler.tick()).toEqual({ round: requested.id, counts: { queued: 1, skipped: 0, failed: 0 } });
    now = new Date('2030-01-01T23:59:00Z');
    expect(await scheduler.tick()).toBeUndefined();
    now = new Date('2030-01-02T00:00:01Z');
    const due = (await scheduler.tick())!;
    expect(due.round).toBeGreaterThan(requested.id);
    expect(due.counts).toEqual({ queued: 0, skipped: 1, failed: 0 }); // the first round's import is still queued
    const rounds = await listAutoImportRounds(t.db);
    expect(rounds.map((r) => [r.id, r.requested_by, r.started_at, r.queued, r.skipped, r.failed])).toEqual([
      [due.round, null, '2030-01-02T00:00:01', 0, 1, 0],
      [requested.id, null, '2030-01-01T00:00:00', 1, 0, 0],
    ]);
    expect(rounds.every((r) => r.finished_at !== null)).toBe(true);
    expect(lines).toContain(`Auto-import round ${requested.id} finished: 1 queued, 0 skipped, 0 failed.`);
    // Each round's start and end are audit lines by the system; the scheduled one says so.
    const audit = await listAudit(t.db, { action: 'auto_import_round' }, { offset: 0, limit: 10 });
    expect(audit.map((line) => [line.actor_id, line.target, line.at, line.details])).toEqual([
      [null, `round ${due.round}`, '2030-01-02T00:00:01', { finished: true, queued: 0, skipped: 1, failed: 0 }],
      [null, `round ${due.round}`, '2030-01-02T00:00:01', { started: true, scheduled: true }],
      [null, `round ${requested.id}`, '2030-01-01T00:00:00', { finished: true, queued: 1, skipped: 0, failed: 0 }],
      [null, `round ${requested.id}`, '2030-01-01T00:00:00', { started: true, scheduled: false }],
    ]);
  });

  it('gives a round to one scheduler only', async () => {
    const options = { autoStart: false } as const;
    const a = startAutoImportScheduler({ db: t.db, config, privateKeyPath: privatePem }, options);
    const b = startAutoImportScheduler({ db: t.db, config, privateKeyPath: privatePem }, options);
    await requestAutoImportRound(t.db, null, nowIso());
    const ticks = [await a.tick(), await b.tick()];
    expect(ticks.filter(Boolean)).toHaveLength(1);
  });

  it('runs in npm start only for the demo pair, and an unusable demo key turns it off without stopping the server', () => {
    const lines: string[] = [];
    const demo = startDemoAutoImport({ db: t.db, config, log: (l) => lines.push(l) });
    expect(demo).toBeDefined();
    demo!.stop();
    const operatorPem = path.join(t.dir, 'operator-public.pem');
    fs.copyFileSync(path.join(dataPaths(t.dir).operatorKeys, 'public.pem'), operatorPem);
    expect(
      startDemoAutoImport({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test', OPERATOR_PUBLIC_KEY: operatorPem }) }),
    ).toBeUndefined();
    const broken = tempDb();
    try {
      const brokenConfig = readConfig({ DATA_DIR: broken.dir, TROVE_ENV: 'test' });
      expect(startDemoAutoImport({ db: broken.db, config: brokenConfig })).toBeUndefined(); // no demo pair there
      fs.mkdirSync(dataPaths(broken.dir).operatorKeys, { recursive: true });
      fs.writeFileSync(path.join(dataPaths(broken.dir).operatorKeys, 'private.pem'), 'garbage');
      expect(startDemoAutoImport({ db: broken.db, config: brokenConfig, log: (l) => lines.push(l) })).toBeUndefined();
      expect(lines).toEqual([`Auto-import is off: ${path.join(dataPaths(broken.dir).operatorKeys, 'private.pem')} is not a private key.`]);
    } finally {
      broken.cleanup();
    }
  });

  it('refuses to start without a readable private key, naming the file only', () => {
    const missing = path.join(t.dir, 'missing.pem');
    expect(() => startAutoImportScheduler({ db: t.db, config, privateKeyPath: missing })).toThrow(
      `Cannot read the private key ${missing}: ENOENT.`,
    );
    const notKey = path.join(t.dir, 'not-a-key.pem');
    fs.writeFileSync(notKey, 'hello');
    expect(() => startAutoImportScheduler({ db: t.db, config, privateKeyPath: notKey })).toThrow(`${notKey} is not a private key.`);
  });
});

describe('scripts/auto-import.ts --once', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync('npx', ['tsx', 'scripts/auto-import.ts', ...args], {
      env: { ...process.env, DATA_DIR: t.dir, ...databaseEnv(t.dir), ...env },
      encoding: 'utf8',
    });

  it('runs one round now with a line per key and never prints a key', async () => {
    const due = await keep();
    const recent = await keep({ lastImportHours: 1 });
    const result = run(['--once'], { OPERATOR_PRIVATE_KEY: privatePem });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`Key ${due.keyId} \\(Patreon\\): queued import [0-9a-f]{16}\\.`));
    expect(result.stdout).toContain(`Key ${recent.keyId} (Patreon): skipped, imported less than 24 h ago.`);
    expect(result.stdout).toMatch(/round \d+ finished: 1 queued, 1 skipped, 0 failed/);
    for (const key of [due.key, recent.key]) expect(result.stdout + result.stderr).not.toContain(key);
    expect(await importsOfKey(due.keyId)).toHaveLength(2);
  }, 60_000);

  it('says how to call it without a private key', () => {
    const result = run(['--once'], { OPERATOR_PRIVATE_KEY: '' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Usage: npm run auto-import');
  }, 60_000);
});
