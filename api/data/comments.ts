/**
 * Comments of posts, oldest first. When an import brings a comment with other content, the previous
 * content is kept as a comment revision. A new or changed comment records a 'comment' change (the
 * post page shows the comments).
 */
import { sql } from 'kysely';
import { recordChange } from './changes.ts';
import type { Store } from './store.ts';
import { inTransaction, nowIso } from './util.ts';
import { postHasRowsColumn } from './post-rows.ts';
import type { Comment } from '@shared/shapes/posts.ts';

export interface CommentInput {
  service: string;
  user: string;
  post_id: string;
  id: string;
  parent_id?: string | null;
  commenter: string;
  commenter_name?: string | null;
  content: string;
  published?: string | null;
  added?: string | null;
}

/** Column `has_comments` of a query over `posts p`: 1 when the post has comments, else 0. */
export const HAS_COMMENTS_COLUMN = postHasRowsColumn('comments', 'has_comments');

/** A post's comments, oldest first (undated ones first, as SQLite orders NULLs), each with its previous versions. */
export async function listComments(db: Store, service: string, creatorId: string, postId: string): Promise<Comment[]> {
  const { rows } = await sql<
    Omit<Comment, 'revisions'>
  >`SELECT id, parent_id, commenter, commenter_name, content, published, added FROM comments
      WHERE service = ${service} AND "user" = ${creatorId} AND post_id = ${postId} ORDER BY published NULLS FIRST, id`.execute(db.k);
  if (rows.length === 0) return [];
  const { rows: revisions } = await sql<{
    comment_id: string;
    id: number;
    content: string;
    added: string;
  }>`SELECT comment_id, id, content, added FROM comment_revisions
      WHERE service = ${service} AND "user" = ${creatorId} AND post_id = ${postId} ORDER BY id`.execute(db.k);
  const byComment = new Map<string, { id: number; content: string; added: string }[]>();
  for (const rev of revisions) {
    let list = byComment.get(rev.comment_id);
    if (!list) byComment.set(rev.comment_id, (list = []));
    list.push({ id: rev.id, content: rev.content, added: rev.added });
  }
  return rows.map((row) => ({ ...row, revisions: byComment.get(row.id) ?? [] }));
}

/**
 * Inserts or updates a comment; when the content changes the previous content is kept as a comment
 * revision. Records a 'comment' change. options.now (ISO) stamps the revision (default now).
 */
export async function upsertComment(
  db: Store,
  input: CommentInput,
  options: { now?: string } = {},
): Promise<'inserted' | 'updated' | 'unchanged'> {
  return await inTransaction(db, async (db) => {
    const { rows } = await sql<{ content: string; added: string }>`SELECT content, added FROM comments
      WHERE service = ${input.service} AND "user" = ${input.user} AND post_id = ${input.post_id} AND id = ${input.id}`.execute(db.k);
    const existing = rows[0];
    const now = options.now ?? nowIso();
    if (existing && existing.content === input.content) return 'unchanged';
    if (existing) {
      await db.k
        .insertInto('comment_revisions')
        .values({
          service: input.service,
          user: input.user,
          post_id: input.post_id,
          comment_id: input.id,
          content: existing.content,
          added: now,
        })
        .execute();
    }
    await db.k
      .insertInto('comments')
      .values({
        service: input.service,
        user: input.user,
        post_id: input.post_id,
        id: input.id,
        parent_id: input.parent_id ?? null,
        commenter: input.commenter,
        commenter_name: input.commenter_name ?? null,
        content: input.content,
        published: input.published ?? null,
        added: existing?.added ?? input.added ?? now,
      })
      .onConflict((oc) =>
        oc.columns(['service', 'user', 'post_id', 'id']).doUpdateSet((eb) => ({
          parent_id: eb.ref('excluded.parent_id'),
          commenter: eb.ref('excluded.commenter'),
          commenter_name: eb.ref('excluded.commenter_name'),
          content: eb.ref('excluded.content'),
          published: eb.ref('excluded.published'),
        })),
      )
      .execute();
    await recordChange(db, { kind: 'comment', action: 'upsert', service: input.service, creator_id: input.user, post_id: input.post_id });
    return existing ? 'updated' : 'inserted';
  });
}
