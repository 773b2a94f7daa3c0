/**
 * What the feeds read besides the listings: the head of each post's content (an item's summary is
 * its plain text, at most FEED_SUMMARY_MAX characters, so a few thousand characters of HTML are plenty).
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import type { PostKey } from './posts.ts';

/** Characters of stored HTML read per post for its summary. */
export const FEED_CONTENT_HEAD = 4_000;
const HEAD = sql.raw(String(FEED_CONTENT_HEAD));

/** The content heads of the given posts, by `service/user/id` (postHeadKey); missing posts are left out. */
export async function postContentHeads(db: Store, keys: readonly PostKey[]): Promise<Map<string, string>> {
  const heads = new Map<string, string>();
  // One primary-key lookup per post, with one fixed statement text.
  for (const key of keys) {
    const { rows } = await sql<{ head: string }>`SELECT substr(content, 1, ${HEAD}) AS head FROM posts
      WHERE service = ${key.service} AND "user" = ${key.user} AND id = ${key.id}`.execute(db.k);
    if (rows[0]) heads.set(postHeadKey(key), rows[0].head);
  }
  return heads;
}

export function postHeadKey(key: PostKey): string {
  return `${key.service}\u0000${key.user}\u0000${key.id}`;
}
