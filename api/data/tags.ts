/**
 * Post tags: post_tags holds one row per tag of a post (with its published date and seq, so a tag's
 * listing is index-ordered), kept by the post writers; tag_counts (kept by triggers) counts the posts of
 * every tag.
 */
import { stmt, type Db } from './db.ts';
import { recordChange } from './changes.ts';
import type { TagCount } from '@shared/shapes/posts.ts';

/** Every tag with its number of posts, most used first, then by name. */
export async function listAllTags(db: Db): Promise<TagCount[]> {
  return stmt<TagCount>(db, 'SELECT tag, post_count FROM tag_counts ORDER BY post_count DESC, tag').all();
}

/** A creator's tags with their number of posts, most used first, then by name. */
export async function listCreatorTags(db: Db, service: string, creatorId: string): Promise<TagCount[]> {
  return stmt<TagCount>(
    db,
    `SELECT tag, count(*) AS post_count FROM post_tags WHERE service = ? AND "user" = ?
      GROUP BY tag ORDER BY post_count DESC, tag`,
  ).all(service, creatorId);
}

/**
 * Writes a post's tags (already trimmed and deduplicated). With replace, the post's rows are removed
 * first (an update of its tags or of its published date).
 */
export async function setPostTags(
  db: Db,
  post: { service: string; user: string; id: string },
  tags: string[],
  published: string | null,
  seq: number,
  options: { replace: boolean },
): Promise<void> {
  if (options.replace) {
    await recordDroppedTags(db, post, tags);
    stmt(db, 'DELETE FROM post_tags WHERE service = ? AND "user" = ? AND post_id = ?').run(post.service, post.user, post.id);
  }
  const insertTag = stmt(db, `INSERT INTO post_tags (service, "user", post_id, tag, published, post_seq) VALUES (?, ?, ?, ?, ?, ?)`);
  for (const tag of tags) insertTag.run(post.service, post.user, post.id, tag, published, seq);
}

/** A post's tags as post_tags holds them (the feeds of these tags list the post). */
export async function listPostTags(db: Db, post: { service: string; user: string; id: string }): Promise<string[]> {
  return stmt<{ tag: string }>(db, 'SELECT tag FROM post_tags WHERE service = ? AND "user" = ? AND post_id = ? ORDER BY tag')
    .all(post.service, post.user, post.id)
    .map((row) => row.tag);
}

/** Whether any post carries the tag. */
export async function tagExists(db: Db, tag: string): Promise<boolean> {
  return !!stmt(db, 'SELECT 1 FROM tag_counts WHERE tag = ? AND post_count > 0').get(tag);
}

/**
 * Logs the tags a post is losing (ref 'tag:<tag>' on a 'post' row), before its rows go: a rebuild can
 * no longer see them, and those tags' stored feeds still list the post. `keep`: the tags it keeps.
 */
export async function recordDroppedTags(
  db: Db,
  post: { service: string; user: string; id: string },
  keep: readonly string[] = [],
): Promise<void> {
  const kept = new Set(keep);
  for (const tag of await listPostTags(db, post)) {
    if (kept.has(tag)) continue;
    await recordChange(db, {
      kind: 'post',
      action: 'upsert',
      service: post.service,
      creator_id: post.user,
      post_id: post.id,
      ref: `tag:${tag}`,
    });
  }
}
