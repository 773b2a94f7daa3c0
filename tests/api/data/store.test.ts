/**
 * The asynchronous store over both engines: on a real migrated SQLite file, transactions are
 * BEGIN IMMEDIATE, roll back whole (the store's queries and the synchronous modules' statements on the
 * same handle alike), nested calls join the open transaction, and repeated queries reuse their prepared
 * statement; on a real throwaway PostgreSQL cluster, 64-bit integers come back as numbers, as on SQLite.
 */
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeStore, inTransaction, postgresStore, sqliteStore, type Store } from '@api/data/store.ts';
import { startThrowawayCluster, type ThrowawayCluster } from '../../../scripts/lib/postgres-cluster.ts';
import { tempDb, type TempDb } from './helpers.ts';

const insertKv = (store: Store, key: string, value: string) => store.k.insertInto('kv').values({ key, value }).execute();
const kvKeys = async (store: Store) =>
  (await store.k.selectFrom('kv').select('key').orderBy('key').execute()).map((row: { key: string }) => row.key);

describe('SQLite store', () => {
  let t: TempDb;
  beforeEach(() => {
    t = tempDb();
  });
  afterEach(() => t.cleanup());

  it('is the handle itself, once per handle', () => {
    expect(sqliteStore(t.db)).toBe(sqliteStore(t.db));
    expect(t.db).toBe(sqliteStore(t.db));
    expect(t.db.engine).toBe('sqlite');
    expect(t.db.sqlite).toBe(t.db);
  });

  it('rolls back the store queries and the synchronous statements of a failed transaction together', async () => {
    const store = sqliteStore(t.db);
    await expect(
      inTransaction(store, async (trx) => {
        await insertKv(trx, 'async-write', '1');
        t.db.prepare('INSERT INTO kv (key, value) VALUES (?, ?)').run('sync-write', '1');
        // A nested call joins the open transaction instead of failing.
        await inTransaction(trx, async (inner) => insertKv(inner, 'nested-write', '1'));
        expect(t.db.inTransaction).toBe(true);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await kvKeys(store)).toEqual([]);

    await inTransaction(store, async (trx) => {
      await insertKv(trx, 'a', '1');
      t.db.prepare('INSERT INTO kv (key, value) VALUES (?, ?)').run('b', '2');
    });
    expect(await kvKeys(store)).toEqual(['a', 'b']);
  });

  it('takes the write lock when the transaction begins (BEGIN IMMEDIATE)', async () => {
    const store = sqliteStore(t.db);
    const other = new Database(t.file, { timeout: 0 });
    try {
      await inTransaction(store, async () => {
        // Nothing written yet, but another connection can no longer write.
        expect(() => other.prepare('INSERT INTO kv (key, value) VALUES (?, ?)').run('other', '1')).toThrow(/locked|busy/i);
      });
      other.prepare('INSERT INTO kv (key, value) VALUES (?, ?)').run('other', '1');
    } finally {
      other.close();
    }
    expect(await kvKeys(store)).toEqual(['other']);
  });

  it('runs transactions started side by side one after the other, and a nested one as a savepoint', async () => {
    const store = sqliteStore(t.db);
    const write = (key: string, fail = false) =>
      inTransaction(store, async (db) => {
        await sql`INSERT INTO kv (key, value) VALUES (${key}, '1')`.execute(db.k);
        await Promise.resolve();
        await sql`INSERT INTO kv (key, value) VALUES (${`${key}2`}, '1')`.execute(db.k);
        if (fail) throw new Error('refused');
      });
    const results = await Promise.allSettled([write('a'), write('b', true), write('c')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await kvKeys(store)).toEqual(['a', 'a2', 'c', 'c2']);

    await inTransaction(store, async (db) => {
      await sql`INSERT INTO kv (key, value) VALUES ('outer', '1')`.execute(db.k);
      await expect(write('inner', true)).rejects.toThrow('refused');
    });
    expect(await kvKeys(store)).toEqual(['a', 'a2', 'c', 'c2', 'outer']);
  });

  it('binds booleans as 0 and 1 and keeps answering a repeated query', async () => {
    const store = sqliteStore(t.db);
    for (let i = 0; i < 3; i += 1) {
      const { rows } = await sql<{ yes: number; no: number }>`SELECT ${true} AS yes, ${false} AS no`.execute(store.k);
      expect(rows).toEqual([{ yes: 1, no: 0 }]);
    }
  });
});

describe('PostgreSQL store', () => {
  let cluster: ThrowawayCluster;
  let store: Store;
  beforeAll(async () => {
    cluster = await startThrowawayCluster({ fast: true });
    store = postgresStore(cluster.url, { max: 2 });
  }, 60_000);
  afterAll(async () => {
    await closeStore(store);
    await cluster.stop();
  });

  it('answers 64-bit integers and numerics as numbers, like SQLite', async () => {
    const { rows } = await sql<{ big: unknown; count: unknown; numeric: unknown }>`
      SELECT 1764288000000::bigint AS big, count(*) AS count, 2.5::numeric AS numeric FROM (VALUES (1), (2)) v(x)`.execute(store.k);
    expect(rows).toEqual([{ big: 1764288000000, count: 2, numeric: 2.5 }]);
  });

  it('rolls back a failed transaction and joins nested calls', async () => {
    await sql`CREATE TABLE kv (key text PRIMARY KEY, value text NOT NULL)`.execute(store.k);
    await expect(
      inTransaction(store, async (trx) => {
        await insertKv(trx, 'a', '1');
        await inTransaction(trx, async (inner) => insertKv(inner, 'b', '2'));
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await kvKeys(store)).toEqual([]);
    await inTransaction(store, async (trx) => insertKv(trx, 'c', '3'));
    expect(await kvKeys(store)).toEqual(['c']);
  });
});
