/**
 * What the feeds read besides the listings: the head of each post's content (an item's summary is
 * its plain text, at most FEED_SUMMARY_MAX characters, so a few thousand characters of HTML are plenty).
 */
import { stmt, type Db } from './db.ts';
import type { PostKey } from './posts.ts';

/** Characters of stored HTML read per post for its summary. */
export const FEED_CONTENT_HEAD = 4_000;

/** The content heads of the given posts, by `service/user/id` (postHeadKey); missing posts are left out. */
export async function postContentHeads(db: Db, keys: readonly PostKey[]): Promise<Map<string, string>> {
  const select = stmt<{ head: string }>(
    db,
    `SELECT substr(content, 1, ${FEED_CONTENT_HEAD}) AS head FROM posts WHERE service = ? AND "user" = ? AND id = ?`,
  );
  const heads = new Map<string, string>();
  for (const key of keys) {
    const row = select.get(key.service, key.user, key.id);
    if (row) heads.set(postHeadKey(key), row.head);
  }
  return heads;
}

export function postHeadKey(key: PostKey): string {
  return `${key.service}\u0000${key.user}\u0000${key.id}`;
}
