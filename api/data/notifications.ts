/**
 * Account notifications. Type 1 is a role change with extra_info {old_role, new_role}
 * ('Your role was changed from X to Y.'). Not archive data: no change-log rows. The first module on the
 * asynchronous store (api/data/store.ts): the same queries on SQLite and PostgreSQL.
 */
import type { Store } from './store.ts';
import { nowIso, parseJson } from './util.ts';

export const NOTIFICATION_ROLE_CHANGE = 1;

export interface Notification {
  id: number;
  account_id: number;
  type: number;
  extra_info: Record<string, unknown> | null;
  is_seen: boolean;
  created_at: string;
}

/** Creates a notification for an account. @returns its id */
export async function createNotification(
  store: Store,
  input: { account_id: number; type: number; extra_info?: Record<string, unknown> | null; created_at?: string },
): Promise<number> {
  const row = await store.k
    .insertInto('notifications')
    .values({
      account_id: input.account_id,
      type: input.type,
      extra_info: input.extra_info ? JSON.stringify(input.extra_info) : null,
      is_seen: 0,
      created_at: input.created_at ?? nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** An account's notifications, newest first. */
export async function listNotifications(store: Store, accountId: number, limit = 100): Promise<Notification[]> {
  const rows = await store.k
    .selectFrom('notifications')
    .select(['id', 'account_id', 'type', 'extra_info', 'is_seen', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    ...row,
    extra_info: parseJson<Record<string, unknown> | null>(row.extra_info, null),
    is_seen: row.is_seen === 1,
  }));
}

/** Number of notifications an account has not seen. */
export async function countUnseenNotifications(store: Store, accountId: number): Promise<number> {
  const row = await store.k
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('is_seen', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks all of an account's notifications seen. @returns how many changed */
export async function markNotificationsSeen(store: Store, accountId: number): Promise<number> {
  const result = await store.k
    .updateTable('notifications')
    .set({ is_seen: 1 })
    .where('account_id', '=', accountId)
    .where('is_seen', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
