/**
 * Stored session keys against a real database and real files: saveSubmittedKey seals the key (the blob
 * never holds it; the generated operator private key opens it), dedupes by fingerprint per owner and
 * links imports; GET and POST /api/v1/account/keys show and revoke only the owner's keys, never the key.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createPrivateKey } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { createImport, getImport } from '@api/data/imports.ts';
import { getAutoImportKey, markKeyDead } from '@api/data/auto-import-keys.ts';
import { decryptSessionKey } from '@api/importer/key-crypto.ts';
import { keyFingerprint, saveSubmittedKey } from '@api/importer/key-store.ts';
import { dataPaths, readConfig, type Config } from '@api/config.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { as } from '../../helpers/api-calls.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let config: Config;
let app: ReturnType<typeof createApp>;
let alice: TestSession;
let bob: TestSession;
const PATREON_KEY = 'AliceSecretPatreonSessionKey_0123456789abcd';
const FANBOX_KEY = '12345678_AliceSecretFanboxKey';

const get = (session?: TestSession) => as(session, request(app).get('/api/v1/account/keys'));
const revoke = (body: unknown, session?: TestSession) => as(session, request(app).post('/api/v1/account/keys')).send(body as object);
const count = (sql: string, ...args: unknown[]) => (t.db.prepare(sql).get(...args) as { n: number }).n;
const queued = (accountId: number, service = 'patreon') => createImport(t.db, { service, account_id: accountId });

beforeAll(async () => {
  t = tempDb();
  config = readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' });
  app = createApp({ db: t.db, config, logger: { error() {} } });
  alice = await signIn(t.db);
  bob = await signIn(t.db);
});

afterAll(() => t.cleanup());

describe('saveSubmittedKey', () => {
  it('generates the demo operator pair once, private key 0600 with a warning', async () => {
    const first = await queued(alice.account.id);
    const id = await saveSubmittedKey(t.db, config, { accountId: alice.account.id, service: 'patreon', key: PATREON_KEY, importId: first });
    const dir = dataPaths(t.dir).operatorKeys;
    expect(fs.statSync(path.join(dir, 'private.pem')).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(dir, 'README.txt'), 'utf8')).toMatch(/must NOT be on the server/);
    const publicPem = fs.readFileSync(path.join(dir, 'public.pem'), 'utf8');
    expect((await getImport(t.db, first))!.key_id).toBe(id);
    await saveSubmittedKey(t.db, config, {
      accountId: alice.account.id,
      service: 'fanbox',
      key: FANBOX_KEY,
      importId: await queued(alice.account.id, 'fanbox'),
    });
    expect(fs.readFileSync(path.join(dir, 'public.pem'), 'utf8')).toBe(publicPem);
  }, 60_000);

  it('stores only the sealed key, which the operator private key opens', async () => {
    const row = t.db.prepare('SELECT id, encrypted_key, fingerprint FROM auto_import_keys WHERE service = ?').get('patreon') as {
      id: number;
      encrypted_key: Buffer;
      fingerprint: string;
    };
    expect(row.encrypted_key.toString('utf8')).not.toContain(PATREON_KEY);
    expect(row.encrypted_key.toString('latin1')).not.toContain(PATREON_KEY);
    expect(row.fingerprint).toBe(keyFingerprint(config, 'patreon', PATREON_KEY));
    expect(row.fingerprint).not.toContain(PATREON_KEY);
    const privateKey = createPrivateKey(fs.readFileSync(path.join(dataPaths(t.dir).operatorKeys, 'private.pem')));
    expect(decryptSessionKey((await getAutoImportKey(t.db, row.id))!.encrypted_key, privateKey)).toBe(PATREON_KEY);
  });

  it('finds the same key again (alive again, linked to the new import), per service and per owner', async () => {
    const original = (t.db.prepare("SELECT id FROM auto_import_keys WHERE service = 'patreon'").get() as { id: number }).id;
    await markKeyDead(t.db, original);
    const again = await queued(alice.account.id);
    expect(
      await saveSubmittedKey(t.db, config, { accountId: alice.account.id, service: 'patreon', key: PATREON_KEY, importId: again }),
    ).toBe(original);
    expect((await getAutoImportKey(t.db, original))!.dead).toBe(0);
    expect((await getImport(t.db, again))!.key_id).toBe(original);
    const otherService = await saveSubmittedKey(t.db, config, {
      accountId: alice.account.id,
      service: 'fantia',
      key: PATREON_KEY,
      importId: await queued(alice.account.id, 'fantia'),
    });
    expect(otherService).not.toBe(original);
    const bobs = await saveSubmittedKey(t.db, config, {
      accountId: bob.account.id,
      service: 'patreon',
      key: PATREON_KEY,
      importId: await queued(bob.account.id),
    });
    expect(bobs).not.toBe(original);
    expect(count('SELECT count(*) AS n FROM auto_import_keys WHERE account_id = ?', alice.account.id)).toBe(3);
  });
});

describe('GET /api/v1/account/keys', () => {
  it('answers 401 for guests', async () => {
    const answer = await get();
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'You must be registered to access this page.' });
  });

  it("lists the account's own keys with their imports, never the key", async () => {
    const answer = await get(alice);
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain(PATREON_KEY);
    expect(answer.text).not.toContain(FANBOX_KEY);
    expect(answer.text).not.toContain('encrypted');
    const { service_keys, import_ids } = answer.body.props;
    expect(answer.body.props.currentPage).toBe('account');
    expect(service_keys.map((k: { service: string }) => k.service)).toEqual(['patreon', 'fanbox', 'fantia']);
    for (const key of service_keys) {
      expect(Object.keys(key).sort()).toEqual(['added', 'dead', 'id', 'service']);
      expect(key.dead).toBe(false);
    }
    const patreonId = String(service_keys[0].id);
    expect(import_ids[patreonId]).toHaveLength(2);
    for (const id of import_ids[patreonId]) expect((await getImport(t.db, id))!.account_id).toBe(alice.account.id);
    const bobs = (await get(bob)).body.props;
    expect(bobs.service_keys).toHaveLength(1);
    expect(bobs.service_keys[0].id).not.toBe(service_keys[0].id);
  });
});

describe('POST /api/v1/account/keys', () => {
  it('needs at least one valid id', async () => {
    for (const body of [{}, { revoke: [] }, { revoke: '' }]) {
      const answer = await revoke(body, alice);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toEqual({ error: 'At least one key must be selected for revocation.' });
    }
    const bad = await revoke({ revoke: ['1', 'x'] }, alice);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Invalid key ID "x".' });
    expect(count('SELECT count(*) AS n FROM auto_import_keys')).toBe(4);
  });

  it('answers 401 for guests and changes nothing', async () => {
    const answer = await revoke({ revoke: [1, 2, 3, 4] });
    expect(answer.status).toBe(401);
    expect(count('SELECT count(*) AS n FROM auto_import_keys')).toBe(4);
  });

  it("revokes only the owner's keys, unlinking their imports", async () => {
    const aliceKeys = (await get(alice)).body.props.service_keys as { id: number }[];
    const bobKey = ((await get(bob)).body.props.service_keys as { id: number }[])[0]!.id;
    const imports = ((await get(alice)).body.props.import_ids as Record<string, string[]>)[String(aliceKeys[0]!.id)]!;
    const answer = await revoke({ revoke: [aliceKeys[0]!.id, bobKey] }, alice);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(true);
    expect(await getAutoImportKey(t.db, aliceKeys[0]!.id)).toBeUndefined();
    expect(await getAutoImportKey(t.db, bobKey)).toBeDefined();
    for (const id of imports) expect((await getImport(t.db, id))!.key_id).toBeNull();
    expect((await get(alice)).body.props.service_keys).toHaveLength(2);
    expect((await get(bob)).body.props.service_keys).toHaveLength(1);
  });

  it('accepts a urlencoded form', async () => {
    const remaining = ((await get(alice)).body.props.service_keys as { id: number }[]).map((k) => k.id);
    const answer = await as(alice, request(app).post('/api/v1/account/keys'))
      .type('form')
      .send(remaining.map((id) => `revoke=${id}`).join('&'));
    expect(answer.status).toBe(200);
    expect((await get(alice)).body.props.service_keys).toEqual([]);
  });
});
