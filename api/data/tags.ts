/**
 * Post tags: post_tags holds one row per tag of a post (with its published date and seq, so a tag's
 * listing is index-ordered), kept by the post writers; tag_counts (kept by triggers) counts the posts of
 * every tag.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { recordChange } from './changes.ts';
import type { TagCount } from '@shared/shapes/posts.ts';

/** Every tag with its number of posts, most used first, then by name. */
export async function listAllTags(db: Store): Promise<TagCount[]> {
  const { rows } = await sql<TagCount>`SELECT tag, post_count FROM tag_counts ORDER BY post_count DESC, tag`.execute(db.k);
  return rows;
}

/** A creator's tags with their number of posts, most used first, then by name. */
export async function listCreatorTags(db: Store, service: string, creatorId: string): Promise<TagCount[]> {
  const { rows } = await sql<TagCount>`
    SELECT tag, count(*) AS post_count FROM post_tags WHERE service = ${service} AND "user" = ${creatorId}
     GROUP BY tag ORDER BY post_count DESC, tag`.execute(db.k);
  return rows;
}

/**
 * Writes a post's tags (already trimmed and deduplicated). With replace, the post's rows are removed
 * first (an update of its tags or of its published date).
 */
export async function setPostTags(
  db: Store,
  post: { service: string; user: string; id: string },
  tags: string[],
  published: string | null,
  seq: number,
  options: { replace: boolean },
): Promise<void> {
  if (options.replace) {
    await recordDroppedTags(db, post, tags);
    await sql`DELETE FROM post_tags WHERE service = ${post.service} AND "user" = ${post.user} AND post_id = ${post.id}`.execute(db.k);
  }
  // One statement per tag, as before: its text stays fixed (prepared once on SQLite) whatever the count.
  for (const tag of tags) {
    await sql`INSERT INTO post_tags (service, "user", post_id, tag, published, post_seq)
      VALUES (${post.service}, ${post.user}, ${post.id}, ${tag}, ${published}, ${seq})`.execute(db.k);
  }
}

/** A post's tags as post_tags holds them (the feeds of these tags list the post). */
export async function listPostTags(db: Store, post: { service: string; user: string; id: string }): Promise<string[]> {
  const { rows } = await sql<{ tag: string }>`
    SELECT tag FROM post_tags WHERE service = ${post.service} AND "user" = ${post.user} AND post_id = ${post.id} ORDER BY tag`.execute(
    db.k,
  );
  return rows.map((row) => row.tag);
}

/** Whether any post carries the tag. */
export async function tagExists(db: Store, tag: string): Promise<boolean> {
  const { rows } = await sql`SELECT 1 AS one FROM tag_counts WHERE tag = ${tag} AND post_count > 0`.execute(db.k);
  return rows.length > 0;
}

/**
 * Logs the tags a post is losing (ref 'tag:<tag>' on a 'post' row), before its rows go: a rebuild can
 * no longer see them, and those tags' stored feeds still list the post. `keep`: the tags it keeps.
 */
export async function recordDroppedTags(
  db: Store,
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
