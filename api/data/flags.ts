/**
 * Flags on posts, one per account and post. Flags change no stored page (the flag button is an island
 * that asks whether the post is flagged): no change-log rows.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { nowIso } from './util.ts';
import { postHasRowsColumn } from './post-rows.ts';
import type { FlaggedPost } from '@shared/shapes/flags.ts';

/** Flags a post for an account. @returns false when this account already flagged it */
export async function flagPost(
  db: Store,
  input: { service: string; user: string; post_id: string; account_id: number | null; reason: string; created_at?: string },
): Promise<boolean> {
  const result = await db.k
    .insertInto('flags')
    .values({
      service: input.service,
      user: input.user,
      post_id: input.post_id,
      account_id: input.account_id,
      reason: input.reason,
      created_at: input.created_at ?? nowIso(),
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Column `flagged` of a query over `posts p`: 1 when the post has been flagged, else 0. */
export const FLAGGED_COLUMN = postHasRowsColumn('flags', 'flagged');

/** Whether a post has been flagged. */
export async function isPostFlagged(db: Store, service: string, creatorId: string, postId: string): Promise<boolean> {
  const { rows } =
    await sql`SELECT 1 AS one FROM flags WHERE service = ${service} AND "user" = ${creatorId} AND post_id = ${postId} LIMIT 1`.execute(
      db.k,
    );
  return rows.length > 0;
}

/** Deletes a post's flags (it was fetched again, or a moderator dismissed them). @returns how many */
export async function clearPostFlags(db: Store, service: string, creatorId: string, postId: string): Promise<number> {
  const result = await sql`DELETE FROM flags WHERE service = ${service} AND "user" = ${creatorId} AND post_id = ${postId}`.execute(db.k);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * The aggregate of a post's reasons, most recent first: a JSON array on both engines (SQLite's
 * json_group_array is PostgreSQL's json_agg; both take the ORDER BY inside the call).
 */
const REASONS = {
  sqlite: sql.raw('json_group_array(f.reason ORDER BY f.created_at DESC, f.id DESC)'),
  postgres: sql.raw('json_agg(f.reason ORDER BY f.created_at DESC, f.id DESC)'),
};

/** Flagged posts, the most recently flagged first. */
export async function listFlaggedPosts(db: Store, page: { offset: number; limit: number }): Promise<FlaggedPost[]> {
  // p.title and c.name are grouped too: PostgreSQL wants every selected column grouped or aggregated.
  const { rows } = await sql<Omit<FlaggedPost, 'reasons'> & { reasons: string | string[] }>`
    SELECT f.service, f."user", f.post_id AS id, p.title, c.name AS creator_name, max(f.created_at) AS flagged_at,
           count(*) AS flag_count, ${REASONS[db.engine]} AS reasons
      FROM flags f
      JOIN posts p ON p.service = f.service AND p."user" = f."user" AND p.id = f.post_id
      LEFT JOIN creators c ON c.service = f.service AND c.id = f."user"
     GROUP BY f.service, f."user", f.post_id, p.title, c.name
     ORDER BY flagged_at DESC, max(f.id) DESC
     LIMIT ${page.limit} OFFSET ${page.offset}`.execute(db.k);
  // The PostgreSQL driver parses json itself; SQLite gives the text.
  return rows.map((row) => ({
    ...row,
    reasons: [...new Set(typeof row.reasons === 'string' ? (JSON.parse(row.reasons) as string[]) : row.reasons)],
  }));
}

/** How many posts are flagged. */
export async function countFlaggedPosts(db: Store): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`SELECT count(*) AS n FROM (SELECT 1 AS one FROM flags GROUP BY service, "user", post_id) AS flagged`.execute(db.k);
  return Number(rows[0]?.n ?? 0);
}
