/** Accounts on both engines: the same answers from a migrated SQLite file and a migrated PostgreSQL database. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  countAccounts,
  createAccount,
  getAccount,
  getAccountByUsername,
  getPasswordHash,
  listAccounts,
  setAccountRole,
  setPasswordHash,
} from '@api/data/accounts.ts';
import { listNotifications } from '@api/data/notifications.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

const engines = engineDatabases();

describe.each(ENGINES)('accounts on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
  });

  it('creates accounts and reads them by id and by username', async () => {
    const alice = await createAccount(db, { username: 'alice', password_hash: 'h1', created_at: '2030-01-01T00:00:00' });
    expect(alice).toEqual({ id: alice.id, username: 'alice', role: 'consumer', created_at: '2030-01-01T00:00:00' });
    const admin = await createAccount(db, { username: 'ädmin ✓', password_hash: 'h2', role: 'administrator' });
    expect(admin.id).toBeGreaterThan(alice.id);
    expect(admin.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(await getAccount(db, alice.id)).toEqual(alice);
    expect(await getAccount(db, admin.id)).toEqual(admin);
    expect(await getAccount(db, 9999)).toBeUndefined();
    expect(await getAccountByUsername(db, 'alice')).toEqual({ ...alice, password_hash: 'h1' });
    expect(await getAccountByUsername(db, 'ädmin ✓')).toEqual({ ...admin, password_hash: 'h2' });
    // Usernames are compared exactly (binary), in any engine.
    expect(await getAccountByUsername(db, 'ALICE')).toBeUndefined();
    expect(await getAccountByUsername(db, '')).toBeUndefined();
    await expect(createAccount(db, { username: 'alice', password_hash: 'x' })).rejects.toThrow();
  });

  it('reads and replaces password hashes', async () => {
    const { id } = await createAccount(db, { username: 'bob', password_hash: 'old' });
    expect(await getPasswordHash(db, id)).toBe('old');
    expect(await getPasswordHash(db, id + 1)).toBeUndefined();
    expect(await setPasswordHash(db, id, 'new')).toBe(true);
    expect(await getPasswordHash(db, id)).toBe('new');
    expect(await setPasswordHash(db, id + 1, 'new')).toBe(false);
  });

  it('lists and counts by name substring (ASCII case folded only, wildcards literal) and role', async () => {
    const names = ['Alice', 'malicE', 'bob', 'émile', '100%_sure', '100x'];
    const ids: Record<string, number> = {};
    for (const [i, username] of names.entries()) {
      ids[username] = (await createAccount(db, { username, password_hash: 'x', role: i % 2 ? 'moderator' : 'consumer' })).id;
    }
    const usernames = async (filter: Parameters<typeof listAccounts>[1]) => (await listAccounts(db, filter)).map((a) => a.username);

    expect(await usernames({})).toEqual(names);
    expect(await countAccounts(db)).toBe(6);
    expect(await usernames({ name: 'ALIC' })).toEqual(['Alice', 'malicE']);
    expect(await countAccounts(db, { name: 'aLiCe' })).toBe(2);
    expect(await usernames({ name: 'émi' })).toEqual(['émile']);
    expect(await usernames({ name: 'ÉMI' })).toEqual([]);
    expect(await usernames({ name: '%' })).toEqual(['100%_sure']);
    expect(await usernames({ name: '0_' })).toEqual([]);
    expect(await usernames({ name: '%_' })).toEqual(['100%_sure']);
    expect(await usernames({ name: '' })).toEqual(names);
    expect(await usernames({ role: 'moderator' })).toEqual(['malicE', 'émile', '100x']);
    expect(await countAccounts(db, { role: 'administrator' })).toBe(0);
    expect(await usernames({ name: 'alice', role: 'consumer' })).toEqual(['Alice']);
    expect(await countAccounts(db, { name: 'alice', role: 'consumer' })).toBe(1);
    expect(await usernames({ offset: 2, limit: 2 })).toEqual(['bob', 'émile']);
    expect(await usernames({ name: 'nobody' })).toEqual([]);
    expect(await countAccounts(db, { name: 'nobody' })).toBe(0);
    expect((await listAccounts(db, { name: 'bob' }))[0]).toEqual({
      id: ids.bob,
      username: 'bob',
      role: 'consumer',
      created_at: expect.any(String),
    });
  });

  it('changes roles and notifies only a real change', async () => {
    const { id } = await createAccount(db, { username: 'carol', password_hash: 'x' });
    expect(await setAccountRole(db, id + 1, 'moderator')).toBeUndefined();
    expect(await setAccountRole(db, id, 'consumer')).toEqual({ old_role: 'consumer', new_role: 'consumer' });
    expect(await listNotifications(db, id)).toEqual([]);
    expect(await setAccountRole(db, id, 'moderator')).toEqual({ old_role: 'consumer', new_role: 'moderator' });
    expect((await getAccount(db, id))?.role).toBe('moderator');
    const notifications = await listNotifications(db, id);
    expect(notifications.map((n) => [n.type, n.extra_info])).toEqual([[1, { old_role: 'consumer', new_role: 'moderator' }]]);
  });
});
