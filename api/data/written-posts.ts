/**
 * What a rebuild needs of the posts a run of the change log wrote: the pages around each (its
 * neighbours), the tag feeds it is in, and whether it has revision pages.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { postKeyString, type PostKey } from './posts.ts';
import { NEIGHBOUR_COLUMNS, type PostNeighbours } from './post-neighbours.ts';
import { postKeyChunks } from './post-rows.ts';
import { HAS_REVISIONS_COLUMN } from './post-revisions.ts';
import { parseJson } from './util.ts';

/** What a rebuild needs of a post it was told was written: the pages around it and the feeds it is in. */
export interface WrittenPost extends PostNeighbours {
  tags: string[];
  hasRevisions: boolean;
}

/**
 * The neighbours, tags and older-version flag of many posts, 50 to a statement (a rebuild after an
 * import asks this of every new post), keyed by postKeyString; missing posts are
 * left out. The tags are the post row's list, which post_tags is written from.
 */
export async function writtenPosts(db: Store, keys: readonly PostKey[]): Promise<Map<string, WrittenPost>> {
  const found = new Map<string, WrittenPost>();
  for (const chunk of postKeyChunks(keys)) {
    const { rows } = await sql<PostKey & PostNeighbours & { tags: string | null; has_revisions: number }>`SELECT p.service, p."user",
        p.id, p.tags, ${NEIGHBOUR_COLUMNS}, ${HAS_REVISIONS_COLUMN}
      FROM posts p WHERE (p.service, p."user", p.id) IN (VALUES ${chunk.values})`.execute(db.k);
    for (const row of rows) {
      found.set(postKeyString(row), {
        prev: row.prev,
        next: row.next,
        tags: parseJson<string[]>(row.tags, []),
        hasRevisions: Number(row.has_revisions) === 1,
      });
    }
  }
  return found;
}
