/**
 * The do-not-post list: creators (post_id null) and single posts removed at their owner's request
 * (api/moderation/takedowns.ts). Importers consult it before storing anything; the removed URLs answer
 * 410 Gone while an entry stands. Lifting an entry deletes it (the audit log keeps the history).
 */
import { sql, type RawBuilder } from 'kysely';
import type { Store } from './store.ts';
import { nowIso } from './util.ts';

export interface DoNotPostEntry {
  id: number;
  service: string;
  creator_id: string;
  /** Null: the whole creator. */
  post_id: string | null;
  /** The creator's name or the post's title when it was removed. */
  name: string | null;
  reason: string;
  added_by: number | null;
  added_at: string;
}

const COLUMNS = sql.raw('id, service, creator_id, post_id, name, reason, added_by, added_at');
const ENTRY_COLUMNS = sql.raw('d.id, d.service, d.creator_id, d.post_id, d.name, d.reason, d.added_by, d.added_at');

export interface DoNotPostInput {
  service: string;
  creator_id: string;
  post_id?: string | null;
  name?: string | null;
  reason: string;
  added_by?: number | null;
  added_at?: string;
}

/** Adds an entry; an entry already there is kept as it is. @returns the entry */
export async function addDoNotPost(db: Store, input: DoNotPostInput): Promise<DoNotPostEntry> {
  // No conflict target: the unique index is on an expression (coalesce(post_id, '')).
  await sql`INSERT INTO do_not_post (service, creator_id, post_id, name, reason, added_by, added_at)
    VALUES (${input.service}, ${input.creator_id}, ${input.post_id ?? null}, ${input.name ?? null}, ${input.reason},
      ${input.added_by ?? null}, ${input.added_at ?? nowIso()})
    ON CONFLICT DO NOTHING`.execute(db.k);
  return (await getDoNotPostEntryFor(db, input.service, input.creator_id, input.post_id ?? null))!;
}

async function getDoNotPostEntryFor(
  db: Store,
  service: string,
  creatorId: string,
  postId: string | null,
): Promise<DoNotPostEntry | undefined> {
  const { rows } = await sql<DoNotPostEntry>`SELECT ${COLUMNS} FROM do_not_post
    WHERE service = ${service} AND creator_id = ${creatorId} AND coalesce(post_id, '') = ${postId ?? ''}`.execute(db.k);
  return rows[0];
}

/** Deletes an entry. @returns the entry that was lifted */
export async function liftDoNotPost(db: Store, id: number): Promise<DoNotPostEntry | undefined> {
  const { rows } = await sql<DoNotPostEntry>`DELETE FROM do_not_post WHERE id = ${id} RETURNING ${COLUMNS}`.execute(db.k);
  return rows[0];
}

/** 1 when the whole creator is listed, else 0: a subquery for a statement that reads the creator beside it. */
export function creatorListedQuery(service: string, creatorId: string): RawBuilder<number> {
  return postListedQuery(service, creatorId, '');
}

/** 1 when the post itself (not its creator) is listed, else 0: a subquery for a statement that reads the post beside it. */
export function postListedQuery(service: string, creatorId: string, postId: string): RawBuilder<number> {
  // The creator's own entry is the one whose post_id is null: '' stands for it, as the unique index reads it.
  return sql<number>`(SELECT count(*) FROM do_not_post WHERE service = ${service} AND creator_id = ${creatorId}
    AND coalesce(post_id, '') = ${postId})`;
}

/** Whether a whole creator is listed. */
export async function isCreatorListed(db: Store, service: string, creatorId: string): Promise<DoNotPostEntry | undefined> {
  return await getDoNotPostEntryFor(db, service, creatorId, null);
}

/** Whether a post is listed, by itself or through its creator. */
export async function isPostListed(db: Store, service: string, creatorId: string, postId: string): Promise<DoNotPostEntry | undefined> {
  // The creator's own entry first: post_id IS NULL is 1/true for it on both engines, so DESC puts it first.
  const { rows } = await sql<DoNotPostEntry>`SELECT ${COLUMNS} FROM do_not_post
    WHERE service = ${service} AND creator_id = ${creatorId} AND (post_id IS NULL OR post_id = ${postId})
    ORDER BY post_id IS NULL DESC LIMIT 1`.execute(db.k);
  return rows[0];
}

/** Remembers the ids of a removed creator's posts under its entry (lifting the entry forgets them). */
export async function recordRemovedPosts(db: Store, entryId: number, service: string, postIds: readonly string[]): Promise<void> {
  for (const postId of postIds)
    await sql`INSERT INTO do_not_post_posts (entry_id, service, post_id) VALUES (${entryId}, ${service}, ${postId})
      ON CONFLICT DO NOTHING`.execute(db.k);
}

/**
 * The entry behind a post id alone (the /{service}/post/{id} short URL names no creator): the post's own
 * entry, or the entry of the removed creator it belonged to.
 */
export async function isPostIdListed(db: Store, service: string, postId: string): Promise<DoNotPostEntry | undefined> {
  const { rows } = await sql<DoNotPostEntry>`SELECT ${COLUMNS} FROM do_not_post WHERE service = ${service} AND post_id = ${postId}
    UNION ALL
    SELECT ${ENTRY_COLUMNS} FROM do_not_post_posts p JOIN do_not_post d ON d.id = p.entry_id
     WHERE p.service = ${service} AND p.post_id = ${postId}
    LIMIT 1`.execute(db.k);
  return rows[0];
}

/** Newest first. */
export async function listDoNotPost(db: Store, page: { offset: number; limit: number }): Promise<DoNotPostEntry[]> {
  const { rows } = await sql<DoNotPostEntry>`SELECT ${COLUMNS} FROM do_not_post ORDER BY id DESC
    LIMIT ${page.limit} OFFSET ${page.offset}`.execute(db.k);
  return rows;
}

export async function countDoNotPost(db: Store): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM do_not_post`.execute(db.k);
  return Number(rows[0]?.n ?? 0);
}
