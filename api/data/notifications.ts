/**
 * Account notifications. Type 1 is a role change with extra_info {old_role, new_role}
 * ('Your role was changed from X to Y.'). Not archive data: no change-log rows.
 */
import { stmt, type Db } from './db.ts';
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
export function createNotification(
  db: Db,
  input: { account_id: number; type: number; extra_info?: Record<string, unknown> | null; created_at?: string },
): number {
  return Number(
    stmt(db, 'INSERT INTO notifications (account_id, type, extra_info, is_seen, created_at) VALUES (?, ?, ?, 0, ?)').run(
      input.account_id,
      input.type,
      input.extra_info ? JSON.stringify(input.extra_info) : null,
      input.created_at ?? nowIso(),
    ).lastInsertRowid,
  );
}

/** An account's notifications, newest first. */
export function listNotifications(db: Db, accountId: number, limit = 100): Notification[] {
  return stmt<{ id: number; account_id: number; type: number; extra_info: string | null; is_seen: number; created_at: string }>(
    db,
    `SELECT id, account_id, type, extra_info, is_seen, created_at FROM notifications
      WHERE account_id = ? ORDER BY id DESC LIMIT ?`,
  )
    .all(accountId, limit)
    .map((row) => ({
      ...row,
      extra_info: parseJson<Record<string, unknown> | null>(row.extra_info, null),
      is_seen: row.is_seen === 1,
    }));
}

/** Number of notifications an account has not seen. */
export function countUnseenNotifications(db: Db, accountId: number): number {
  return stmt<{ n: number }>(db, 'SELECT count(*) AS n FROM notifications WHERE account_id = ? AND is_seen = 0').get(accountId)!.n;
}

/** Marks all of an account's notifications seen. @returns how many changed */
export function markNotificationsSeen(db: Db, accountId: number): number {
  return stmt(db, 'UPDATE notifications SET is_seen = 1 WHERE account_id = ? AND is_seen = 0').run(accountId).changes;
}
