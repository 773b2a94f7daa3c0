/**
 * Comments of posts, oldest first. When an import brings a comment with other content, the previous
 * content is kept as a comment revision. A new or changed comment records a 'comment' change (the
 * post page shows the comments).
 */
import { stmt, type Db } from './db.ts';
import { recordChange } from './changes.ts';
import { inTransaction, nowIso } from './util.ts';
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

/** A post's comments, oldest first, each with its previous versions. */
export async function listComments(db: Db, service: string, creatorId: string, postId: string): Promise<Comment[]> {
  const rows = stmt<Omit<Comment, 'revisions'>>(
    db,
    `SELECT id, parent_id, commenter, commenter_name, content, published, added FROM comments
      WHERE service = ? AND "user" = ? AND post_id = ? ORDER BY published, id`,
  ).all(service, creatorId, postId);
  if (rows.length === 0) return [];
  const revisions = stmt<{ comment_id: string; id: number; content: string; added: string }>(
    db,
    `SELECT comment_id, id, content, added FROM comment_revisions
      WHERE service = ? AND "user" = ? AND post_id = ? ORDER BY id`,
  ).all(service, creatorId, postId);
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
  db: Db,
  input: CommentInput,
  options: { now?: string } = {},
): Promise<'inserted' | 'updated' | 'unchanged'> {
  return await inTransaction(db, async (db) => {
    const existing = stmt<{ content: string; added: string }>(
      db,
      'SELECT content, added FROM comments WHERE service = ? AND "user" = ? AND post_id = ? AND id = ?',
    ).get(input.service, input.user, input.post_id, input.id);
    const now = options.now ?? nowIso();
    if (existing && existing.content === input.content) return 'unchanged';
    if (existing) {
      stmt(db, `INSERT INTO comment_revisions (service, "user", post_id, comment_id, content, added) VALUES (?, ?, ?, ?, ?, ?)`).run(
        input.service,
        input.user,
        input.post_id,
        input.id,
        existing.content,
        now,
      );
    }
    stmt(
      db,
      `INSERT INTO comments (service, "user", post_id, id, parent_id, commenter, commenter_name, content, published, added)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (service, "user", post_id, id) DO UPDATE SET
         parent_id = excluded.parent_id, commenter = excluded.commenter, commenter_name = excluded.commenter_name,
         content = excluded.content, published = excluded.published`,
    ).run(
      input.service,
      input.user,
      input.post_id,
      input.id,
      input.parent_id ?? null,
      input.commenter,
      input.commenter_name ?? null,
      input.content,
      input.published ?? null,
      existing?.added ?? input.added ?? now,
    );
    await recordChange(db, { kind: 'comment', action: 'upsert', service: input.service, creator_id: input.user, post_id: input.post_id });
    return existing ? 'updated' : 'inserted';
  });
}
