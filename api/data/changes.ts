/**
 * The change log: every write to archive data appends what it touched, in the same transaction, so
 * `scripts/rebuild` can re-render exactly the affected pages (README.md#how-it-fits-together).
 * A rebuild deletes the rows it has consumed (pruneChanges), so the log holds only what is pending.
 *
 * A row is (kind, action, service?, creator_id?, post_id?, ref?). action is 'upsert' (created or
 * changed; the page must be re-rendered) or 'delete' (gone; the stored page must be removed).
 *
 * Kinds and what they mean for a rebuild:
 * - 'creator'      (service, creator_id): the creator row changed (name, dates, public_id, has_chats);
 *                  ref 'renamed' when its name changed (its post pages show the name).
 *                  Affects its profile/tab pages' headers, the artists lists and creators.txt. A 'delete'
 *                  row: the creator was taken down (api/data/takedowns.ts); its pages render as 404.
 * - 'post'         (service, creator_id, post_id): the post was written or deleted. Affects the post page,
 *                  its revision pages, the neighbours' prev/next (find them with postPageNeighbours), the
 *                  creator's listing pages from that post's position on, the creator's tags tab, the global
 *                  recent/popular lists and the all-tags page. ref is NULL, or 'neighbour' when this row
 *                  only says that the post's prev/next may have changed because a neighbour was deleted
 *                  or moved (its published date changed); those are written by the post writers since a
 *                  rebuild can no longer see the old neighbours. A deleted post also logs one delete row per
                  revision it had, ref 'revision:<revision_id>', since the revisions go with it.
 * - 'comment'      (service, creator_id, post_id): the post's comments changed (post page only).
 * - 'dm'           (service, creator_id, ref = DM hash): a DM became public, changed or was removed.
 *                  Affects the creator's DMs tab and counts, and the global DMs list.
 * - 'announcement' (service, creator_id, ref = hash): the creator's announcements tab.
 * - 'fancard'      (service, creator_id, ref = fancard id): the creator's fancards tab.
 * - 'share'        (ref = share id, service/creator_id when linked to a creator): the share page, the
 *                  shares list and the linked creator's uploads tab.
 * - 'link'         (service, creator_id): the creator's linked-profiles tab changed (one row per creator
 *                  of the link group).
 * - 'discord'      (service 'discord', creator_id = server id, ref = channel id or NULL for the server):
 *                  the Discord server view / channel pages.
 * - 'community'    (service, creator_id, ref = channel id or NULL): Patreon community channel pages.
 *                  Discord and community 'delete' rows with a channel id that no longer exists remove
 *                  that channel's stored pages.
 * - 'file'         (ref = sha256): file record or archive metadata changed (/file/{hash}, hash search).
 * - 'popularity'   (ref = day 'YYYY-MM-DD'): popularity counts of that day changed (popular lists).
 * - 'favorite'     (service, creator_id): an account favourited or unfavourited the creator, so its
 *                  `favorited` count changed. Affects the stored /artists listing (Popularity order)
 *                  and creators.txt only; the creator's own pages show no count.
 * - 'similar'      (service, creator_id): the similar creators shown on the creator's first posts page
 *                  changed (written by api/similar/job.ts, which ignores these rows). That page only.
 *
 * Tags are not logged separately: tag listings are searches rendered on demand; the per-creator tags
 * tab and the all-tags page are covered by 'post' rows. The stored tag feeds follow a post's current
 * tags from its 'post' row; a tag the post loses (a tag edit, a deletion) gets its own 'post' row with
 * ref 'tag:<tag>', written while the old tags can still be read.
 *
 * Not logged (they change no stored page): accounts and sessions, post favourites, flags (the flag
 * button asks GET .../flag when it hydrates), notifications, imports and keys, pending or ignored DMs, link
 * requests until approved. An identical re-write (same creator, same post) logs nothing.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';

export type ChangeKind =
  | 'creator'
  | 'post'
  | 'comment'
  | 'dm'
  | 'announcement'
  | 'fancard'
  | 'share'
  | 'link'
  | 'discord'
  | 'community'
  | 'file'
  | 'popularity'
  | 'favorite'
  | 'similar';

export type ChangeAction = 'upsert' | 'delete';

export interface ChangeInput {
  kind: ChangeKind;
  action: ChangeAction;
  service?: string | null;
  creator_id?: string | null;
  post_id?: string | null;
  ref?: string | null;
}

export interface Change {
  id: number;
  kind: ChangeKind;
  action: ChangeAction;
  service: string | null;
  creator_id: string | null;
  post_id: string | null;
  ref: string | null;
  at: string;
}

/**
 * Appends one row to the change log. Call it inside the transaction of the write it describes.
 * @returns the new change id
 */
export async function recordChange(db: Store, change: ChangeInput): Promise<number> {
  const row = await db.k
    .insertInto('changes')
    .values({
      kind: change.kind,
      action: change.action,
      service: change.service ?? null,
      creator_id: change.creator_id ?? null,
      post_id: change.post_id ?? null,
      ref: change.ref ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Change rows with id > lastId, oldest first, at most `limit` (default 10,000). */
export async function readChangesSince(db: Store, lastId: number, limit = 10_000): Promise<Change[]> {
  const { rows } =
    await sql<Change>`SELECT id, kind, action, service, creator_id, post_id, ref, at FROM changes WHERE id > ${lastId} ORDER BY id LIMIT ${limit}`.execute(
      db.k,
    );
  return rows;
}

/** Like readChangesSince but lazy, for very long logs (a bulk seed writes one row per post). */
export async function* iterateChangesSince(db: Store, lastId: number, batch = 10_000): AsyncGenerator<Change> {
  let after = lastId;
  for (;;) {
    const rows = await readChangesSince(db, after, batch);
    for (const row of rows) yield row;
    if (rows.length < batch) return;
    after = rows[rows.length - 1].id;
  }
}

/** The id of the newest change, 0 when the log is empty. */
export async function lastChangeId(db: Store): Promise<number> {
  const { rows } = await sql<{ id: number | null }>`SELECT max(id) AS id FROM changes`.execute(db.k);
  return rows[0]?.id ?? 0;
}

/**
 * Deletes the change rows with id <= upToId, once every reader has consumed them: the page rebuild is
 * the only reader of the rows (api/pages/rebuild.ts prunes up to its position after each rebuild); the
 * creators.txt and /artists caches only compare lastChangeId. The newest row is always kept, so
 * lastChangeId never goes back and new rows keep getting higher ids (SQLite numbers a new row
 * max(id) + 1, and would start again at 1 in an empty table). @returns how many rows were deleted
 */
export async function pruneChanges(db: Store, upToId: number): Promise<number> {
  const result = await sql`DELETE FROM changes WHERE id <= ${upToId} AND id < (SELECT max(id) FROM changes)`.execute(db.k);
  return Number(result.numAffectedRows ?? 0);
}
