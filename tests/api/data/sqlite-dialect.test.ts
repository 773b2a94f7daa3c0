/**
 * The SQLite dialect's one connection per handle, on a real migrated SQLite file: queries started side
 * by side take it in turn and each gets its own answer, and a query started while a long read holds it
 * (eachRow) waits for the read's end instead of running in the middle of it. SQLite on either run: the rule
 * is its single connection's (PostgreSQL reads outside a transaction in one go, on a connection of its own).
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { eachRow } from '@api/data/store.ts';
import { tempSqliteDb, type TempDb } from './helpers.ts';

let t: TempDb;
beforeEach(() => {
  t = tempSqliteDb();
});
afterEach(() => t.cleanup());

it('answers queries started side by side, each with its own rows', async () => {
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => sql<{ n: number }>`SELECT ${i} * 2 AS n`.execute(t.db.k).then(({ rows }) => rows[0].n)),
  );
  expect(answers).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
});

it('runs a query started during a long read once the read has ended', async () => {
  await t.db.k
    .insertInto('kv')
    .values([1, 2, 3].map((i) => ({ key: `k${i}`, value: String(i) })))
    .execute();
  const order: string[] = [];
  const reader = (async () => {
    for await (const row of eachRow<{ key: string }>(t.db, sql`SELECT key FROM kv ORDER BY key`)) {
      order.push(row.key);
      // Yield to the event loop mid-read: the query below must still wait its turn.
      await new Promise((resolve) => setImmediate(resolve));
    }
    order.push('read done');
  })();
  const count = sql<{ n: number }>`SELECT count(*) AS n FROM kv`.execute(t.db.k).then(({ rows }) => {
    order.push(`count ${rows[0].n}`);
  });
  await Promise.all([reader, count]);
  expect(order).toEqual(['k1', 'k2', 'k3', 'read done', 'count 3']);
});
