/**
 * "New from your favourites": posts of an account's favourite creators added to the archive since a
 * moment (posts_creator_added, migration 011, reads only the new rows of each favourite creator), the
 * account's last visit of the page, and the SHA-256 of its personal feed token (favorites_news).
 * Order: newest added first (added DESC, seq DESC), as the global recent posts.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { htmlToText, nowIso } from './util.ts';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './post-rows.ts';
import type { PostSummary } from '@shared/shapes/posts.ts';

const SUMMARY = sql.raw(SUMMARY_COLUMNS);

/** The rows of the account's favourite creators' posts added at or after `since`. */
const newPosts = (accountId: number, since: string) => sql`FROM favorite_creators f
  JOIN posts p ON p.service = f.service AND p."user" = f.creator_id AND p.added >= ${since}
 WHERE f.account_id = ${accountId}`;

/** Posts of the account's favourite creators added at or after `since` (stored form), newest first. */
export async function listNewPosts(db: Store, accountId: number, since: string, offset: number, limit: number): Promise<PostSummary[]> {
  const { rows } =
    await sql<SummaryRow>`SELECT ${SUMMARY} ${newPosts(accountId, since)} ORDER BY p.added DESC, p.seq DESC LIMIT ${limit} OFFSET ${offset}`.execute(
      db.k,
    );
  return rows.map(toSummary);
}

/** How many such posts there are, counting at most `cap` (the sidebar's count stays cheap). */
export async function countNewPosts(db: Store, accountId: number, since: string, cap: number = Number.MAX_SAFE_INTEGER): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`SELECT count(*) AS n FROM (SELECT 1 AS one ${newPosts(accountId, since)} LIMIT ${cap}) AS found`.execute(db.k);
  return Number(rows[0]?.n ?? 0);
}

export type NewFeedPost = PostSummary & { text: string; creator_name: string };

/** The newest `limit` posts of the account's favourite creators, with their text head and creator's name (the feed). */
export async function listNewFeedPosts(db: Store, accountId: number, limit: number): Promise<NewFeedPost[]> {
  const { rows } = await sql<SummaryRow & { creator_name: string }>`
    SELECT ${SUMMARY}, c.name AS creator_name FROM favorite_creators f
      JOIN posts p ON p.service = f.service AND p."user" = f.creator_id
      JOIN creators c ON c.service = f.service AND c.id = f.creator_id
     WHERE f.account_id = ${accountId} ORDER BY p.added DESC, p.seq DESC LIMIT ${limit}`.execute(db.k);
  return rows.map((row) => ({ ...toSummary(row), text: htmlToText(row.head), creator_name: row.creator_name }));
}

/** When the account last opened the page (stored form), or null. */
export async function lastNewsVisit(db: Store, accountId: number): Promise<string | null> {
  const { rows } = await sql<{ last_visit: string | null }>`SELECT last_visit FROM favorites_news WHERE account_id = ${accountId}`.execute(
    db.k,
  );
  return rows[0]?.last_visit ?? null;
}

/** Records a visit of the page. */
export async function recordNewsVisit(db: Store, accountId: number, at: string = nowIso()): Promise<void> {
  await sql`INSERT INTO favorites_news (account_id, last_visit) VALUES (${accountId}, ${at})
     ON CONFLICT (account_id) DO UPDATE SET last_visit = excluded.last_visit`.execute(db.k);
}

/** Replaces the account's feed token hash (the old token stops working at once). */
export async function setFeedTokenHash(db: Store, accountId: number, hash: string, at: string = nowIso()): Promise<void> {
  await sql`INSERT INTO favorites_news (account_id, feed_token_hash, feed_created_at) VALUES (${accountId}, ${hash}, ${at})
     ON CONFLICT (account_id) DO UPDATE SET feed_token_hash = excluded.feed_token_hash, feed_created_at = excluded.feed_created_at`.execute(
    db.k,
  );
}

/** Turns the account's feed off. @returns whether it had one */
export async function clearFeedToken(db: Store, accountId: number): Promise<boolean> {
  const result = await sql`UPDATE favorites_news SET feed_token_hash = NULL, feed_created_at = NULL
     WHERE account_id = ${accountId} AND feed_token_hash IS NOT NULL`.execute(db.k);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** When the account's current feed link was made, or null without one. */
export async function feedCreatedAt(db: Store, accountId: number): Promise<string | null> {
  const { rows } = await sql<{ feed_created_at: string | null }>`
    SELECT feed_created_at FROM favorites_news WHERE account_id = ${accountId} AND feed_token_hash IS NOT NULL`.execute(db.k);
  return rows[0]?.feed_created_at ?? null;
}

/** The account whose feed token has this hash. */
export async function feedAccountId(db: Store, hash: string): Promise<number | undefined> {
  const { rows } = await sql<{ account_id: number }>`SELECT account_id FROM favorites_news WHERE feed_token_hash = ${hash}`.execute(db.k);
  return rows[0]?.account_id;
}
