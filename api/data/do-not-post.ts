/**
 * The do-not-post list: creators (post_id null) and single posts removed at their owner's request
 * (api/moderation/takedowns.ts). Importers consult it before storing anything; the removed URLs answer
 * 410 Gone while an entry stands. Lifting an entry deletes it (the audit log keeps the history).
 */
import { stmt, type Db } from './db.ts';
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

const COLUMNS = 'id, service, creator_id, post_id, name, reason, added_by, added_at';

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
export async function addDoNotPost(db: Db, input: DoNotPostInput): Promise<DoNotPostEntry> {
  stmt(
    db,
    `INSERT INTO do_not_post (service, creator_id, post_id, name, reason, added_by, added_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  ).run(
    input.service,
    input.creator_id,
    input.post_id ?? null,
    input.name ?? null,
    input.reason,
    input.added_by ?? null,
    input.added_at ?? nowIso(),
  );
  return (await getDoNotPostEntryFor(db, input.service, input.creator_id, input.post_id ?? null))!;
}

async function getDoNotPostEntryFor(
  db: Db,
  service: string,
  creatorId: string,
  postId: string | null,
): Promise<DoNotPostEntry | undefined> {
  return stmt<DoNotPostEntry>(
    db,
    `SELECT ${COLUMNS} FROM do_not_post WHERE service = ? AND creator_id = ? AND coalesce(post_id, '') = ?`,
  ).get(service, creatorId, postId ?? '');
}

/** Deletes an entry. @returns the entry that was lifted */
export async function liftDoNotPost(db: Db, id: number): Promise<DoNotPostEntry | undefined> {
  return stmt<DoNotPostEntry>(db, `DELETE FROM do_not_post WHERE id = ? RETURNING ${COLUMNS}`).get(id);
}

/** Whether a whole creator is listed. */
export async function isCreatorListed(db: Db, service: string, creatorId: string): Promise<DoNotPostEntry | undefined> {
  return await getDoNotPostEntryFor(db, service, creatorId, null);
}

/** Whether a post is listed, by itself or through its creator. */
export async function isPostListed(db: Db, service: string, creatorId: string, postId: string): Promise<DoNotPostEntry | undefined> {
  return stmt<DoNotPostEntry>(
    db,
    `SELECT ${COLUMNS} FROM do_not_post WHERE service = ? AND creator_id = ? AND (post_id IS NULL OR post_id = ?)
      ORDER BY post_id IS NULL DESC LIMIT 1`,
  ).get(service, creatorId, postId);
}

/** Remembers the ids of a removed creator's posts under its entry (lifting the entry forgets them). */
export async function recordRemovedPosts(db: Db, entryId: number, service: string, postIds: readonly string[]): Promise<void> {
  const insert = stmt(db, 'INSERT OR IGNORE INTO do_not_post_posts (entry_id, service, post_id) VALUES (?, ?, ?)');
  for (const postId of postIds) insert.run(entryId, service, postId);
}

/**
 * The entry behind a post id alone (the /{service}/post/{id} short URL names no creator): the post's own
 * entry, or the entry of the removed creator it belonged to.
 */
export async function isPostIdListed(db: Db, service: string, postId: string): Promise<DoNotPostEntry | undefined> {
  return stmt<DoNotPostEntry>(
    db,
    `SELECT ${COLUMNS} FROM do_not_post WHERE service = ? AND post_id = ?
     UNION ALL
     SELECT ${COLUMNS.replace(/(\w+)/g, 'd.$1')} FROM do_not_post_posts p JOIN do_not_post d ON d.id = p.entry_id
      WHERE p.service = ? AND p.post_id = ?
     LIMIT 1`,
  ).get(service, postId, service, postId);
}

/** Newest first. */
export async function listDoNotPost(db: Db, page: { offset: number; limit: number }): Promise<DoNotPostEntry[]> {
  return stmt<DoNotPostEntry>(db, `SELECT ${COLUMNS} FROM do_not_post ORDER BY id DESC LIMIT ? OFFSET ?`).all(page.limit, page.offset);
}

export async function countDoNotPost(db: Db): Promise<number> {
  return stmt<{ n: number }>(db, 'SELECT count(*) AS n FROM do_not_post').get()?.n ?? 0;
}
