/**
 * What the feeds read besides the listings: the head of each post's content (an item's summary is
 * its plain text, at most FEED_SUMMARY_MAX characters, so a few thousand characters of HTML are plenty).
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { postKeyString, type PostKey } from './posts.ts';
import { postKeyChunks } from './post-rows.ts';

/** Characters of stored HTML read per post for its summary. */
export const FEED_CONTENT_HEAD = 4_000;
const HEAD = sql.raw(String(FEED_CONTENT_HEAD));

/** The content heads of the given posts, by `service/user/id` (postKeyString), in the order of `keys`; missing posts are left out. */
export async function postContentHeads(db: Store, keys: readonly PostKey[]): Promise<Map<string, string>> {
  const heads = new Map<string, string>();
  for (const chunk of postKeyChunks(keys)) {
    const { rows } = await sql<{ service: string; user: string; id: string; head: string }>`SELECT service, "user", id,
        substr(content, 1, ${HEAD}) AS head FROM posts WHERE (service, "user", id) IN (VALUES ${chunk.values})`.execute(db.k);
    const found = new Map(rows.map((row) => [postKeyString(row), row.head]));
    for (const key of chunk.keys) {
      const head = found.get(postKeyString(key));
      if (head !== undefined) heads.set(postKeyString(key), head);
    }
  }
  return heads;
}
