/** Auto-import keys on the store: the same answers on SQLite and PostgreSQL. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  addAutoImportKey,
  getAutoImportKey,
  listAccountKeys,
  markKeyDead,
  revokeKeys,
  upsertKeyByFingerprint,
} from '@api/data/auto-import-keys.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addAccount } from './store-rows.ts';

const engines = engineDatabases();

describe.each(ENGINES)('auto-import keys on %s', (engine) => {
  let db: Store;
  let alice: number;
  let bob: number;

  beforeEach(async () => {
    db = await engines.fresh(engine);
    alice = await addAccount(db, 'alice');
    bob = await addAccount(db, 'bob');
  });

  const addImport = (id: string, keyId: number | null, createdAt: string) =>
    db.k.insertInto('imports').values({ id, service: 'patreon', key_id: keyId, created_at: createdAt }).execute();
  const keyRow = (id: number) => db.k.selectFrom('auto_import_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('adds a key and reads it back with its blob; a missing key is undefined', async () => {
    const blob = Buffer.from([0, 1, 2, 255, 0]);
    const id = await addAutoImportKey(db, { service: 'fanbox', encrypted_key: blob, account_id: alice, added: '2030-01-01T00:00:00' });
    const guest = await addAutoImportKey(db, { service: 'patreon', encrypted_key: Buffer.from('g') });
    expect(guest).toBeGreaterThan(id);
    const key = await getAutoImportKey(db, id);
    expect(key).toEqual({ id, service: 'fanbox', encrypted_key: blob, account_id: alice, dead: 0, added: '2030-01-01T00:00:00' });
    expect(Buffer.isBuffer(key?.encrypted_key)).toBe(true);
    expect((await getAutoImportKey(db, guest))?.account_id).toBeNull();
    expect(await getAutoImportKey(db, guest + 100)).toBeUndefined();
  });

  it('upserts by fingerprint per owner: the same owner revives and reseals, another owner or a guest gets its own', async () => {
    const first = await upsertKeyByFingerprint(db, {
      service: 'patreon',
      encrypted_key: Buffer.from('one'),
      account_id: alice,
      fingerprint: 'fp',
      auto_import: true,
    });
    expect(await keyRow(first)).toMatchObject({ fingerprint: 'fp', auto_import: 1, dead: 0, account_id: alice });
    expect(await markKeyDead(db, first)).toBe(true);
    expect(await markKeyDead(db, first + 100)).toBe(false);

    const again = await upsertKeyByFingerprint(db, {
      service: 'patreon',
      encrypted_key: Buffer.from('two'),
      account_id: alice,
      fingerprint: 'fp',
    });
    expect(again).toBe(first);
    const row = await keyRow(first);
    expect(row).toMatchObject({ dead: 0, auto_import: 0 });
    expect(row.encrypted_key).toEqual(Buffer.from('two'));

    const bobs = await upsertKeyByFingerprint(db, {
      service: 'patreon',
      encrypted_key: Buffer.from('b'),
      account_id: bob,
      fingerprint: 'fp',
    });
    const guest = await upsertKeyByFingerprint(db, {
      service: 'patreon',
      encrypted_key: Buffer.from('g'),
      account_id: null,
      fingerprint: 'fp',
    });
    const guestAgain = await upsertKeyByFingerprint(db, {
      service: 'patreon',
      encrypted_key: Buffer.from('h'),
      account_id: null,
      fingerprint: 'fp',
    });
    expect(new Set([first, bobs, guest]).size).toBe(3);
    expect(guestAgain).toBe(guest);
    expect((await keyRow(guest)).encrypted_key).toEqual(Buffer.from('h'));
  });

  it('lists an account’s keys with their imports oldest first, and revokes only its own', async () => {
    expect(await listAccountKeys(db, alice)).toEqual([]);
    const k1 = await addAutoImportKey(db, {
      service: 'patreon',
      encrypted_key: Buffer.from('1'),
      account_id: alice,
      added: '2030-01-01T00:00:00',
    });
    const k2 = await addAutoImportKey(db, {
      service: 'fanbox',
      encrypted_key: Buffer.from('2'),
      account_id: alice,
      added: '2030-01-02T00:00:00',
    });
    const k3 = await addAutoImportKey(db, { service: 'fanbox', encrypted_key: Buffer.from('3'), account_id: bob });
    await markKeyDead(db, k2);
    await addImport('imp-b', k1, '2030-02-02T00:00:00');
    await addImport('imp-a', k1, '2030-02-02T00:00:00');
    await addImport('imp-0', k1, '2030-02-01T00:00:00');
    await addImport('imp-x', k3, '2030-02-01T00:00:00');
    await addImport('imp-none', null, '2030-02-01T00:00:00');

    expect(await listAccountKeys(db, alice)).toEqual([
      {
        id: k1,
        service: 'patreon',
        dead: false,
        added: '2030-01-01T00:00:00',
        last_used_at: null,
        import_ids: ['imp-0', 'imp-a', 'imp-b'],
      },
      { id: k2, service: 'fanbox', dead: true, added: '2030-01-02T00:00:00', last_used_at: null, import_ids: [] },
    ]);

    expect(await revokeKeys(db, alice, [])).toBe(0);
    expect(await revokeKeys(db, alice, [k1, k3, k3 + 100])).toBe(1);
    expect(await getAutoImportKey(db, k1)).toBeUndefined();
    expect(await getAutoImportKey(db, k3)).toBeDefined();
    const imports = await db.k.selectFrom('imports').select(['id', 'key_id']).orderBy('id').execute();
    expect(imports).toEqual([
      { id: 'imp-0', key_id: null },
      { id: 'imp-a', key_id: null },
      { id: 'imp-b', key_id: null },
      { id: 'imp-none', key_id: null },
      { id: 'imp-x', key_id: k3 },
    ]);
    expect((await listAccountKeys(db, alice)).map((key) => key.id)).toEqual([k2]);
    expect(await revokeKeys(db, bob, [k3])).toBe(1);
    expect(await listAccountKeys(db, bob)).toEqual([]);
  });
});
