/**
 * Notifications, the first module on the asynchronous store: the same functions give the same answers
 * on a real migrated SQLite file and on a real PostgreSQL database migrated by its twin migrations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countUnseenNotifications, createNotification, listNotifications, markNotificationsSeen } from '@api/data/notifications.ts';
import { migratePostgres } from '@api/data/postgres-migrate.ts';
import { closeStore, postgresPool, postgresStore, sqliteStore, type Store } from '@api/data/store.ts';
import { startThrowawayCluster, type ThrowawayCluster } from '../../../scripts/lib/postgres-cluster.ts';
import { tempDb, type TempDb } from './helpers.ts';

let sqlite: TempDb;
let cluster: ThrowawayCluster;
let postgres: Store;

beforeAll(async () => {
  sqlite = tempDb();
  cluster = await startThrowawayCluster({ fast: true });
  const pool = postgresPool(cluster.url, { max: 1 });
  await migratePostgres(pool);
  await pool.end();
  postgres = postgresStore(cluster.url, { max: 2 });
}, 60_000);

afterAll(async () => {
  await closeStore(postgres);
  await cluster.stop();
  sqlite.cleanup();
});

const stores = { SQLite: () => sqliteStore(sqlite.db), PostgreSQL: () => postgres };

describe.each(['SQLite', 'PostgreSQL'] as const)('notifications on %s', (engine) => {
  const store = stores[engine];

  it('lists newest first with their extra info, counts the unseen and marks them seen once', async () => {
    const account = await store()
      .k.insertInto('accounts')
      .values({ username: `reader-${engine}`, password_hash: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const other = await store()
      .k.insertInto('accounts')
      .values({ username: `other-${engine}`, password_hash: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const first = await createNotification(store(), {
      account_id: account.id,
      type: 1,
      extra_info: { old_role: 'consumer', new_role: 'moderator' },
      created_at: '2030-01-01T00:00:00.000Z',
    });
    const second = await createNotification(store(), { account_id: account.id, type: 7, created_at: '2030-01-02T00:00:00.000Z' });
    await createNotification(store(), { account_id: other.id, type: 1 });
    expect(second).toBeGreaterThan(first);

    expect(await listNotifications(store(), account.id)).toEqual([
      { id: second, account_id: account.id, type: 7, extra_info: null, is_seen: false, created_at: '2030-01-02T00:00:00.000Z' },
      {
        id: first,
        account_id: account.id,
        type: 1,
        extra_info: { old_role: 'consumer', new_role: 'moderator' },
        is_seen: false,
        created_at: '2030-01-01T00:00:00.000Z',
      },
    ]);
    expect(await listNotifications(store(), account.id, 1)).toHaveLength(1);
    expect(await countUnseenNotifications(store(), account.id)).toBe(2);
    expect(await markNotificationsSeen(store(), account.id)).toBe(2);
    expect(await markNotificationsSeen(store(), account.id)).toBe(0);
    expect(await countUnseenNotifications(store(), account.id)).toBe(0);
    expect(await countUnseenNotifications(store(), other.id)).toBe(1);
  });
});
