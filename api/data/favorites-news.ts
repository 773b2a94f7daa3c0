/**
 * "New from your favourites": posts of an account's favourite creators added to the archive since a
 * moment (posts_creator_added, migration 011, reads only the new rows of each favourite creator), the
 * account's last visit of the page, and the SHA-256 of its personal feed token (favorites_news).
 * Order: newest added first (added DESC, seq DESC), as the global recent posts.
 */
import { stmt, type Db } from './db.ts';
import { htmlToText, nowIso } from './util.ts';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './post-rows.ts';
import type { PostSummary } from '@shared/shapes/posts.ts';

const NEW_POSTS = `FROM favorite_creators f
  JOIN posts p ON p.service = f.service AND p."user" = f.creator_id AND p.added >= ?
 WHERE f.account_id = ?`;

/** Posts of the account's favourite creators added at or after `since` (stored form), newest first. */
export async function listNewPosts(db: Db, accountId: number, since: string, offset: number, limit: number): Promise<PostSummary[]> {
  return stmt<SummaryRow>(db, `SELECT ${SUMMARY_COLUMNS} ${NEW_POSTS} ORDER BY p.added DESC, p.seq DESC LIMIT ? OFFSET ?`)
    .all(since, accountId, limit, offset)
    .map(toSummary);
}

/** How many such posts there are, counting at most `cap` (the sidebar's count stays cheap). */
export async function countNewPosts(db: Db, accountId: number, since: string, cap: number = Number.MAX_SAFE_INTEGER): Promise<number> {
  return stmt<{ n: number }>(db, `SELECT count(*) AS n FROM (SELECT 1 ${NEW_POSTS} LIMIT ?)`).get(since, accountId, cap)!.n;
}

export type NewFeedPost = PostSummary & { text: string; creator_name: string };

/** The newest `limit` posts of the account's favourite creators, with their text head and creator's name (the feed). */
export async function listNewFeedPosts(db: Db, accountId: number, limit: number): Promise<NewFeedPost[]> {
  return stmt<SummaryRow & { creator_name: string }>(
    db,
    `SELECT ${SUMMARY_COLUMNS}, c.name AS creator_name FROM favorite_creators f
       JOIN posts p ON p.service = f.service AND p."user" = f.creator_id
       JOIN creators c ON c.service = f.service AND c.id = f.creator_id
      WHERE f.account_id = ? ORDER BY p.added DESC, p.seq DESC LIMIT ?`,
  )
    .all(accountId, limit)
    .map((row) => ({ ...toSummary(row), text: htmlToText(row.head), creator_name: row.creator_name }));
}

/** When the account last opened the page (stored form), or null. */
export async function lastNewsVisit(db: Db, accountId: number): Promise<string | null> {
  return (
    stmt<{ last_visit: string | null }>(db, 'SELECT last_visit FROM favorites_news WHERE account_id = ?').get(accountId)?.last_visit ?? null
  );
}

/** Records a visit of the page. */
export async function recordNewsVisit(db: Db, accountId: number, at: string = nowIso()): Promise<void> {
  stmt(
    db,
    `INSERT INTO favorites_news (account_id, last_visit) VALUES (?, ?)
     ON CONFLICT (account_id) DO UPDATE SET last_visit = excluded.last_visit`,
  ).run(accountId, at);
}

/** Replaces the account's feed token hash (the old token stops working at once). */
export async function setFeedTokenHash(db: Db, accountId: number, hash: string, at: string = nowIso()): Promise<void> {
  stmt(
    db,
    `INSERT INTO favorites_news (account_id, feed_token_hash, feed_created_at) VALUES (?, ?, ?)
     ON CONFLICT (account_id) DO UPDATE SET feed_token_hash = excluded.feed_token_hash, feed_created_at = excluded.feed_created_at`,
  ).run(accountId, hash, at);
}

/** Turns the account's feed off. @returns whether it had one */
export async function clearFeedToken(db: Db, accountId: number): Promise<boolean> {
  return (
    stmt(
      db,
      'UPDATE favorites_news SET feed_token_hash = NULL, feed_created_at = NULL WHERE account_id = ? AND feed_token_hash IS NOT NULL',
    ).run(accountId).changes > 0
  );
}

/** When the account's current feed link was made, or null without one. */
export async function feedCreatedAt(db: Db, accountId: number): Promise<string | null> {
  return (
    stmt<{ feed_created_at: string | null }>(
      db,
      'SELECT feed_created_at FROM favorites_news WHERE account_id = ? AND feed_token_hash IS NOT NULL',
    ).get(accountId)?.feed_created_at ?? null
  );
}

/** The account whose feed token has this hash. */
export async function feedAccountId(db: Db, hash: string): Promise<number | undefined> {
  return stmt<{ account_id: number }>(db, 'SELECT account_id FROM favorites_news WHERE feed_token_hash = ?').get(hash)?.account_id;
}
