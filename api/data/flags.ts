/**
 * Flags on posts, one per account and post. Flags change no stored page (the flag button is an island
 * that asks whether the post is flagged): no change-log rows.
 */
import { stmt, type Db } from './db.ts';
import { nowIso } from './util.ts';
import type { FlaggedPost } from '@shared/shapes/flags.ts';

/** Flags a post for an account. @returns false when this account already flagged it */
export async function flagPost(
  db: Db,
  input: { service: string; user: string; post_id: string; account_id: number | null; reason: string; created_at?: string },
): Promise<boolean> {
  const info = stmt(
    db,
    `INSERT OR IGNORE INTO flags (service, "user", post_id, account_id, reason, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(input.service, input.user, input.post_id, input.account_id, input.reason, input.created_at ?? nowIso());
  return info.changes > 0;
}

/** Whether a post has been flagged. */
export async function isPostFlagged(db: Db, service: string, creatorId: string, postId: string): Promise<boolean> {
  return !!stmt(db, 'SELECT 1 FROM flags WHERE service = ? AND "user" = ? AND post_id = ? LIMIT 1').get(service, creatorId, postId);
}

/** Deletes a post's flags (it was fetched again, or a moderator dismissed them). @returns how many */
export async function clearPostFlags(db: Db, service: string, creatorId: string, postId: string): Promise<number> {
  return stmt(db, 'DELETE FROM flags WHERE service = ? AND "user" = ? AND post_id = ?').run(service, creatorId, postId).changes;
}

/** Flagged posts, the most recently flagged first. */
export async function listFlaggedPosts(db: Db, page: { offset: number; limit: number }): Promise<FlaggedPost[]> {
  const rows = stmt<Omit<FlaggedPost, 'reasons'> & { reasons: string }>(
    db,
    `SELECT f.service, f."user", f.post_id AS id, p.title, c.name AS creator_name, max(f.created_at) AS flagged_at,
            count(*) AS flag_count, json_group_array(f.reason) AS reasons
       FROM (SELECT * FROM flags ORDER BY created_at DESC, id DESC) f
       JOIN posts p ON p.service = f.service AND p."user" = f."user" AND p.id = f.post_id
       LEFT JOIN creators c ON c.service = f.service AND c.id = f."user"
      GROUP BY f.service, f."user", f.post_id
      ORDER BY flagged_at DESC, max(f.id) DESC
      LIMIT ? OFFSET ?`,
  ).all(page.limit, page.offset);
  return rows.map((row) => ({ ...row, reasons: [...new Set(JSON.parse(row.reasons) as string[])] }));
}

/** How many posts are flagged. */
export async function countFlaggedPosts(db: Db): Promise<number> {
  return stmt<{ n: number }>(db, 'SELECT count(*) AS n FROM (SELECT 1 FROM flags GROUP BY service, "user", post_id)').get()?.n ?? 0;
}
