/** Sessions and the process-state table on both engines: the same answers from the same calls. */
import { beforeEach, describe, expect, it } from 'vitest';
import { getKv, nextSequence, setKv } from '@api/data/kv.ts';
import { createSession, deleteAccountSessions, deleteSession, getSessionAccount, purgeExpiredSessions } from '@api/data/sessions.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

const engines = engineDatabases();

async function account(db: Store, username: string): Promise<number> {
  const row = await db.k
    .insertInto('accounts')
    .values({ username, password_hash: 'x', role: 'consumer', created_at: '2030-01-01T00:00:00' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe.each(ENGINES)('sessions on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
  });

  it('finds the account of an unexpired session only, and deletes sessions one by one, per account or expired', async () => {
    const reader = await account(db, 'reader');
    const other = await account(db, 'other');
    await createSession(db, {
      token_hash: 'a'.repeat(64),
      account_id: reader,
      expires_at: '2030-02-01T00:00:00',
      created_at: '2030-01-01T00:00:00',
    });
    await createSession(db, { token_hash: 'b'.repeat(64), account_id: reader, expires_at: '2030-01-10T00:00:00' });
    await createSession(db, { token_hash: 'c'.repeat(64), account_id: other, expires_at: '2030-02-01T00:00:00' });

    expect(await getSessionAccount(db, 'a'.repeat(64), '2030-01-15T00:00:00')).toEqual({
      id: reader,
      username: 'reader',
      role: 'consumer',
      created_at: '2030-01-01T00:00:00',
    });
    // Expired at exactly its time, and unknown tokens find nothing.
    expect(await getSessionAccount(db, 'b'.repeat(64), '2030-01-10T00:00:00')).toBeUndefined();
    expect(await getSessionAccount(db, 'd'.repeat(64), '2030-01-01T00:00:00')).toBeUndefined();

    expect(await purgeExpiredSessions(db, '2030-01-15T00:00:00')).toBe(1);
    expect(await deleteSession(db, 'c'.repeat(64))).toBe(true);
    expect(await deleteSession(db, 'c'.repeat(64))).toBe(false);
    expect(await deleteAccountSessions(db, reader)).toBe(1);
    expect(await getSessionAccount(db, 'a'.repeat(64), '2030-01-15T00:00:00')).toBeUndefined();
  });
});

describe.each(ENGINES)('the process-state table on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
  });

  it('reads unset keys as undefined, replaces values and counts sequences past 32 bits', async () => {
    expect(await getKv(db, 'pages.last_change_id')).toBeUndefined();
    await setKv(db, 'pages.last_change_id', '41');
    await setKv(db, 'pages.last_change_id', '42');
    expect(await getKv(db, 'pages.last_change_id')).toBe('42');

    expect(await nextSequence(db, 'posts')).toBe(1);
    expect(await nextSequence(db, 'posts')).toBe(2);
    expect(await nextSequence(db, 'shares')).toBe(1);
    await setKv(db, 'seq:big', String(2 ** 31 - 1));
    expect(await nextSequence(db, 'big')).toBe(2 ** 31);
  });
});
