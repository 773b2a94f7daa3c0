/**
 * Favourite creators and posts per account. faved_seq is one global sequence (kv 'seq:faved') over
 * both kinds, so "Faved date" sorting is consistent.
 *
 * A creator favourite changes that creator's `favorited` count, which orders the stored /artists
 * listing (Popularity) and creators.txt: it logs a 'favorite' change so the rebuild re-renders that
 * listing and the caches keyed on the change log refresh. Post favourites change no stored page (the
 * post page shows no count; favourite buttons are islands): no change-log row.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { recordChange } from './changes.ts';
import { nextSequence } from './kv.ts';
import { withIsoDates, type CreatorFields } from './creators.ts';
import { epochToIso } from '@shared/format.ts';
import { getPostSummaries } from './posts.ts';
import type { PostSummary } from '@shared/shapes/posts.ts';
import { inTransaction, nowIso } from './util.ts';

export interface FavoriteCreator extends CreatorFields<string> {
  faved_seq: number;
  last_imported: string | null;
}

export type FavoritePost = PostSummary & { faved_seq: number };

/** Adds a creator to an account's favourites. @returns false when it already was one or the creator is unknown */
export async function addFavoriteCreator(
  db: Store,
  accountId: number,
  service: string,
  creatorId: string,
  at: string = nowIso(),
): Promise<boolean> {
  return await inTransaction(db, async (db) => {
    const faved = await sql`SELECT 1 AS one FROM favorite_creators
       WHERE account_id = ${accountId} AND service = ${service} AND creator_id = ${creatorId}`.execute(db.k);
    if (faved.rows.length > 0) return false;
    const creator = await sql`SELECT 1 AS one FROM creators WHERE service = ${service} AND id = ${creatorId}`.execute(db.k);
    if (creator.rows.length === 0) return false;
    const seq = await nextSequence(db, 'faved');
    await sql`INSERT INTO favorite_creators (account_id, service, creator_id, faved_seq, created_at)
      VALUES (${accountId}, ${service}, ${creatorId}, ${seq}, ${at})`.execute(db.k);
    await recordChange(db, { kind: 'favorite', action: 'upsert', service, creator_id: creatorId });
    return true;
  });
}

/** Removes a creator from an account's favourites. */
export async function removeFavoriteCreator(db: Store, accountId: number, service: string, creatorId: string): Promise<boolean> {
  return await inTransaction(db, async (db) => {
    const result = await sql`DELETE FROM favorite_creators
       WHERE account_id = ${accountId} AND service = ${service} AND creator_id = ${creatorId}`.execute(db.k);
    const removed = Number(result.numAffectedRows ?? 0) > 0;
    if (removed) await recordChange(db, { kind: 'favorite', action: 'upsert', service, creator_id: creatorId });
    return removed;
  });
}

/** Adds a post to an account's favourites. @returns false when it already was one or the post is unknown */
export async function addFavoritePost(
  db: Store,
  accountId: number,
  service: string,
  creatorId: string,
  postId: string,
  at: string = nowIso(),
): Promise<boolean> {
  return await inTransaction(db, async (db) => {
    const faved = await sql`SELECT 1 AS one FROM favorite_posts
       WHERE account_id = ${accountId} AND service = ${service} AND "user" = ${creatorId} AND post_id = ${postId}`.execute(db.k);
    if (faved.rows.length > 0) return false;
    const post = await sql`SELECT 1 AS one FROM posts WHERE service = ${service} AND "user" = ${creatorId} AND id = ${postId}`.execute(
      db.k,
    );
    if (post.rows.length === 0) return false;
    const seq = await nextSequence(db, 'faved');
    await sql`INSERT INTO favorite_posts (account_id, service, "user", post_id, faved_seq, created_at)
      VALUES (${accountId}, ${service}, ${creatorId}, ${postId}, ${seq}, ${at})`.execute(db.k);
    return true;
  });
}

/** Removes a post from an account's favourites. */
export async function removeFavoritePost(
  db: Store,
  accountId: number,
  service: string,
  creatorId: string,
  postId: string,
): Promise<boolean> {
  const result = await sql`DELETE FROM favorite_posts
     WHERE account_id = ${accountId} AND service = ${service} AND "user" = ${creatorId} AND post_id = ${postId}`.execute(db.k);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** An account's favourite creators (GET /v1/account/favorites?type=artist), newest favourite first. */
export async function listFavoriteCreators(db: Store, accountId: number): Promise<FavoriteCreator[]> {
  const { rows } = await sql<CreatorFields & { faved_seq: number; last_imported: number | null }>`
    SELECT c.id, c.name, c.service, c.indexed, c.updated, c.public_id, c.relation_id, f.faved_seq, c.last_imported
      FROM favorite_creators f JOIN creators c ON c.service = f.service AND c.id = f.creator_id
     WHERE f.account_id = ${accountId} ORDER BY f.faved_seq DESC`.execute(db.k);
  return rows.map((row) => ({
    ...withIsoDates(row),
    last_imported: row.last_imported === null ? null : epochToIso(row.last_imported),
  }));
}

/** An account's favourite posts (GET /v1/account/favorites?type=post) as summaries with faved_seq, newest favourite first. */
export async function listFavoritePosts(db: Store, accountId: number): Promise<FavoritePost[]> {
  const { rows } = await sql<{ service: string; user: string; id: string; faved_seq: number }>`
    SELECT service, "user", post_id AS id, faved_seq FROM favorite_posts WHERE account_id = ${accountId} ORDER BY faved_seq DESC`.execute(
    db.k,
  );
  // No favourite posts: nothing to summarise (and no query for it).
  if (rows.length === 0) return [];
  const seqs = new Map(rows.map((row) => [`${row.service}\u0000${row.user}\u0000${row.id}`, row.faved_seq]));
  return (await getPostSummaries(db, rows)).map((post) => ({
    ...post,
    faved_seq: seqs.get(`${post.service}\u0000${post.user}\u0000${post.id}`) ?? 0,
  }));
}
