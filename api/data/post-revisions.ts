/**
 * Post revisions: when an import changes an archived field of a post, the previous version is kept in
 * post_revisions as the full post it was (without prev/next), stamped with the time it was replaced.
 * Revisions go with their post (ON DELETE CASCADE).
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { parseJson } from './util.ts';
import { postHasRowsColumn } from './post-rows.ts';
import { postPageNeighbours } from './post-neighbours.ts';
import type { PostKey } from './posts.ts';
import type { FullPost, PostRevision } from '@shared/shapes/posts.ts';

interface RevisionRow {
  revision_id: number;
  data: string;
  added: string;
}

function toRevision(row: RevisionRow, neighbours: { prev: string | null; next: string | null }): PostRevision {
  const data = parseJson<Omit<FullPost, 'next' | 'prev'>>(row.data, {} as Omit<FullPost, 'next' | 'prev'>);
  return { ...data, added: row.added, revision_id: row.revision_id, next: neighbours.next, prev: neighbours.prev };
}

async function revisionRows(db: Store, service: string, creatorId: string, postId: string): Promise<RevisionRow[]> {
  const { rows } = await sql<RevisionRow>`SELECT revision_id, data, added FROM post_revisions
    WHERE service = ${service} AND "user" = ${creatorId} AND post_id = ${postId} ORDER BY revision_id DESC`.execute(db.k);
  return rows;
}

/**
 * Previous versions of a post, newest first. Each is the full post as it was, with revision_id and
 * `added` = when that version was replaced. next/prev are the current post's neighbours.
 */
export async function listPostRevisions(db: Store, service: string, creatorId: string, postId: string): Promise<PostRevision[]> {
  const rows = await revisionRows(db, service, creatorId, postId);
  if (rows.length === 0) return [];
  const neighbours = (await postPageNeighbours(db, service, creatorId, postId)) ?? { prev: null, next: null };
  return rows.map((row) => toRevision(row, neighbours));
}

/** Ids of a post's previous versions, newest first (the revision pages a change to the post re-renders). */
export async function listRevisionIds(db: Store, service: string, creatorId: string, postId: string): Promise<number[]> {
  const { rows } = await sql<{ revision_id: number }>`SELECT revision_id FROM post_revisions
    WHERE service = ${service} AND "user" = ${creatorId} AND post_id = ${postId} ORDER BY revision_id DESC`.execute(db.k);
  return rows.map((row) => row.revision_id);
}

/** Every revision's key in revision order, in batches by keyset pagination (a full rebuild). */
export async function* iterateRevisionKeys(db: Store, batch = 10_000): AsyncGenerator<PostKey & { revision_id: number }> {
  let after = 0;
  for (;;) {
    const { rows } = await sql<PostKey & { revision_id: number }>`SELECT service, "user", post_id AS id, revision_id
      FROM post_revisions WHERE revision_id > ${after} ORDER BY revision_id LIMIT ${batch}`.execute(db.k);
    for (const row of rows) yield row;
    if (rows.length < batch) return;
    after = rows[rows.length - 1].revision_id;
  }
}

/** Column `has_revisions` of a query over `posts p`: 1 when the post has older versions, else 0. */
export const HAS_REVISIONS_COLUMN = postHasRowsColumn('post_revisions', 'has_revisions');

/**
 * A post's previous versions, newest first, carrying the given neighbours (the current post's, which
 * the caller has just looked up).
 */
export async function revisionsWithNeighbours(
  db: Store,
  service: string,
  creatorId: string,
  postId: string,
  neighbours: { prev: string | null; next: string | null },
): Promise<PostRevision[]> {
  return (await revisionRows(db, service, creatorId, postId)).map((row) => toRevision(row, neighbours));
}

/**
 * Stores a post as it is before an update (its prev/next are left out: they are the current post's)
 * with `at`, the time it is replaced. @returns the revision id
 */
export async function storePostRevision(db: Store, post: FullPost, at: string): Promise<number> {
  const snapshot: Partial<FullPost> = { ...post };
  delete snapshot.next;
  delete snapshot.prev;
  const row = await db.k
    .insertInto('post_revisions')
    .values({ service: post.service, user: post.user, post_id: post.id, data: JSON.stringify(snapshot), added: at })
    .returning('revision_id')
    .executeTakeFirstOrThrow();
  return Number(row.revision_id);
}
