/**
 * Flags on posts, one per account and post. Flags change no stored page (the flag button is an island
 * that asks whether the post is flagged): no change-log rows.
 */
import { stmt, type Db } from './db.ts';
import { nowIso } from './util.ts';

/** Flags a post for an account. @returns false when this account already flagged it */
export function flagPost(
  db: Db,
  input: { service: string; user: string; post_id: string; account_id: number | null; reason: string; created_at?: string },
): boolean {
  const info = stmt(
    db,
    `INSERT OR IGNORE INTO flags (service, "user", post_id, account_id, reason, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(input.service, input.user, input.post_id, input.account_id, input.reason, input.created_at ?? nowIso());
  return info.changes > 0;
}

/** Whether a post has been flagged. */
export function isPostFlagged(db: Db, service: string, creatorId: string, postId: string): boolean {
  return !!stmt(db, 'SELECT 1 FROM flags WHERE service = ? AND "user" = ? AND post_id = ? LIMIT 1').get(service, creatorId, postId);
}
