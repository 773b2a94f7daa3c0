/**
 * Posts: the listings, one post, random and resolved posts, and the writers (upsertPost, deletePost).
 * The writers keep the post's other rows in step through their modules: search index (search-index.ts),
 * tags (tags.ts), file links (post-files.ts) and revisions (post-revisions.ts).
 *
 * Orders (stable, index-backed):
 * - A creator's posts: newest first, `published DESC, id DESC`, undated last (post-neighbours.ts).
 * - Global recent posts: `added DESC, seq DESC` (posts_added).
 * - Global search and tag listings: newest archived first, `seq DESC` (post-search.ts).
 */
import { stmt, type Db } from './db.ts';
import { recordChange } from './changes.ts';
import { inTransactionNoSavepoint, nowIso } from './util.ts';
import { getFullRow, SUMMARY_COLUMNS, toFullPost, toSummary, type SummaryRow } from './post-rows.ts';
import { newerThan, olderThan, type OrderKey } from './post-neighbours.ts';
import { indexPostText, unindexPostText } from './search-index.ts';
import { recordDroppedTags, setPostTags } from './tags.ts';
import { setPostFiles } from './post-files.ts';
import { listRevisionIds, storePostRevision } from './post-revisions.ts';
import { isPostListed } from './do-not-post.ts';
import { clearPostFlags } from './flags.ts';
import type { FullPost, Poll, PostEmbed, PostFileRef, PostSummary } from '@shared/shapes/posts.ts';
import type { ArchiveCursor, CreatorCursor } from '@shared/cursor.ts';

export interface PostFileInput {
  name?: string | null;
  path: string;
  /** sha256 of the file; derived from a content-addressed path when omitted. */
  hash?: string | null;
}

/** Input of upsertPost. Omitted fields get defaults (empty title/content, no file, added = now). */
export interface PostInput {
  service: string;
  user: string;
  id: string;
  title?: string | null;
  /** Sanitized HTML. */
  content?: string | null;
  published?: string | null;
  edited?: string | null;
  /** When the post was first archived; kept from the stored row on update unless given. */
  added?: string | null;
  file?: PostFileInput | null;
  attachments?: PostFileInput[] | null;
  embed?: PostEmbed | null;
  poll?: Poll | null;
  tags?: string[] | null;
  incomplete_rewards?: string | null;
  shared_file?: boolean;
}

export interface PostKey {
  service: string;
  user: string;
  id: string;
}

// Listings ------------------------------------------------------------------------------------------

/**
 * A creator's posts, newest first (published DESC, id DESC, undated last), as summaries: `limit` from
 * `offset`, or with `after` (a cursor, offset ignored) the `limit` posts that follow that post in this
 * order. The cursor pages by key ranges of posts_creator_published: dated posts below the cursor, then
 * the undated ones (NULL sorts lowest in the index, so they end a newest-first scan).
 */
export async function listCreatorPosts(
  db: Db,
  service: string,
  creatorId: string,
  offset: number,
  limit: number,
  after?: CreatorCursor,
): Promise<PostSummary[]> {
  if (!after) {
    return stmt<SummaryRow>(
      db,
      `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.service = ? AND p."user" = ?
        ORDER BY p.published DESC, p.id DESC LIMIT ? OFFSET ?`,
    )
      .all(service, creatorId, limit, offset)
      .map(toSummary);
  }
  const rows: SummaryRow[] = [];
  if (after.published !== null) {
    rows.push(
      ...stmt<SummaryRow>(
        db,
        `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.service = ? AND p."user" = ? AND (p.published, p.id) < (?, ?)
          ORDER BY p.published DESC, p.id DESC LIMIT ?`,
      ).all(service, creatorId, after.published, after.id, limit),
    );
  }
  if (rows.length < limit) {
    // Undated posts: all of them after a dated cursor, those below the cursor's id after an undated one.
    const below = after.published === null ? ' AND p.id < ?' : '';
    const params = after.published === null ? [after.id] : [];
    rows.push(
      ...stmt<SummaryRow>(
        db,
        // INDEXED BY: without it the planner may walk the primary key's id range through every dated post.
        `SELECT ${SUMMARY_COLUMNS} FROM posts p INDEXED BY posts_creator_published
          WHERE p.service = ? AND p."user" = ? AND p.published IS NULL${below}
          ORDER BY p.id DESC LIMIT ?`,
      ).all(service, creatorId, ...params, limit - rows.length),
    );
  }
  return rows.map(toSummary);
}

/** Number of posts of a creator. */
export async function countCreatorPosts(db: Db, service: string, creatorId: string): Promise<number> {
  return stmt<{ n: number }>(db, 'SELECT count(*) AS n FROM posts WHERE service = ? AND "user" = ?').get(service, creatorId)!.n;
}

/**
 * All posts, most recently added first (added DESC, seq DESC), as summaries: `limit` from `offset`, or
 * with `after` (offset ignored) the posts that follow that one, by a key range of posts_added.
 */
export async function listRecentPosts(db: Db, offset: number, limit: number, after?: ArchiveCursor): Promise<PostSummary[]> {
  if (after) {
    return stmt<SummaryRow>(
      db,
      `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE (p.added, p.seq) < (?, ?) ORDER BY p.added DESC, p.seq DESC LIMIT ?`,
    )
      .all(after.added, after.seq, limit)
      .map(toSummary);
  }
  return stmt<SummaryRow>(db, `SELECT ${SUMMARY_COLUMNS} FROM posts p ORDER BY p.added DESC, p.seq DESC LIMIT ? OFFSET ?`)
    .all(limit, offset)
    .map(toSummary);
}

/** The global listings' cursor of a post (its added date and archive number), or null when it is gone. */
export async function archiveCursorOf(db: Db, post: PostKey): Promise<ArchiveCursor | null> {
  const row = stmt<ArchiveCursor>(db, 'SELECT added, seq FROM posts WHERE service = ? AND "user" = ? AND id = ?').get(
    post.service,
    post.user,
    post.id,
  );
  return row ? { added: row.added, seq: row.seq } : null;
}

/** Number of posts in the archive. */
export async function countPosts(db: Db): Promise<number> {
  return stmt<{ n: number }>(db, 'SELECT count(*) AS n FROM posts').get()!.n;
}

/** Summaries of the given posts, in the order of `keys` (missing posts are skipped). */
export async function getPostSummaries(db: Db, keys: PostKey[]): Promise<PostSummary[]> {
  const select = stmt<SummaryRow>(db, `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.service = ? AND p."user" = ? AND p.id = ?`);
  const out: PostSummary[] = [];
  for (const key of keys) {
    const row = select.get(key.service, key.user, key.id);
    if (row) out.push(toSummary(row));
  }
  return out;
}

// One post ------------------------------------------------------------------------------------------

/** Whether a post exists (favourites and flags answer 404 for unknown posts). */
export async function postExists(db: Db, service: string, creatorId: string, postId: string): Promise<boolean> {
  return !!stmt(db, 'SELECT 1 FROM posts WHERE service = ? AND "user" = ? AND id = ?').get(service, creatorId, postId);
}

/**
 * The full post object (kemono's `post`): content, raw file/attachments, tags, and `next` (the next
 * older post of the creator) / `prev` (the next newer one). Undefined when the post does not exist.
 * For the whole post-page answer (attachments with server, previews, videos, props) use getPostPage.
 */
export async function getPost(db: Db, service: string, creatorId: string, postId: string): Promise<FullPost | undefined> {
  const row = await getFullRow(db, service, creatorId, postId);
  if (!row) return undefined;
  return toFullPost(row, { prev: await newerThan(db, service, creatorId, row), next: await olderThan(db, service, creatorId, row) });
}

/** Resolves a post id within a service to its creator (GET /{service}/post/{post}), or undefined. */
export async function resolvePost(
  db: Db,
  service: string,
  postId: string,
): Promise<{ service: string; artist_id: string; post_id: string } | undefined> {
  const row = stmt<{ user: string }>(db, 'SELECT "user" FROM posts WHERE service = ? AND id = ? ORDER BY "user" LIMIT 1').get(
    service,
    postId,
  );
  return row ? { service, artist_id: row.user, post_id: postId } : undefined;
}

/** A random post key, or undefined when there are no posts. */
export async function randomPost(db: Db, random: () => number = Math.random): Promise<PostKey | undefined> {
  // Two queries: SQLite answers a lone min() or max() from the index, not both in one query.
  const lo = stmt<{ v: number | null }>(db, 'SELECT min(seq) AS v FROM posts').get()!.v;
  const hi = stmt<{ v: number | null }>(db, 'SELECT max(seq) AS v FROM posts').get()!.v;
  if (lo === null || hi === null) return undefined;
  const pick = lo + Math.floor(random() * (hi - lo + 1));
  return stmt<PostKey>(db, 'SELECT service, "user", id FROM posts WHERE seq >= ? ORDER BY seq LIMIT 1').get(pick);
}

// Writes --------------------------------------------------------------------------------------------

interface PostColumns {
  title: string;
  content: string;
  published: string | null;
  edited: string | null;
  file: string | null;
  attachments: string;
  embed: string | null;
  poll: string | null;
  tags: string;
  incomplete_rewards: string | null;
  shared_file: number;
}

const COMPARED: (keyof PostColumns)[] = [
  'title',
  'content',
  'published',
  'edited',
  'file',
  'attachments',
  'embed',
  'poll',
  'tags',
  'incomplete_rewards',
  'shared_file',
];

function fileRef(file: PostFileInput): PostFileRef {
  return { name: file.name ?? null, path: file.path };
}

function columnsOf(input: PostInput): PostColumns {
  const tags = [...new Set((input.tags ?? []).map((t) => t.trim()).filter((t) => t !== ''))];
  return {
    title: input.title ?? '',
    content: input.content ?? '',
    published: input.published ?? null,
    edited: input.edited ?? null,
    file: input.file ? JSON.stringify(fileRef(input.file)) : null,
    attachments: JSON.stringify((input.attachments ?? []).map(fileRef)),
    embed: input.embed && Object.keys(input.embed).length > 0 ? JSON.stringify(input.embed) : null,
    poll: input.poll ? JSON.stringify(input.poll) : null,
    tags: JSON.stringify(tags),
    incomplete_rewards: input.incomplete_rewards ?? null,
    shared_file: input.shared_file ? 1 : 0,
  };
}

export interface UpsertPostResult {
  action: 'inserted' | 'updated' | 'unchanged';
  /** Set when the previous version was stored as a revision. */
  revision_id?: number;
  /** Set (action 'unchanged', nothing written) when the post or its creator is on the do-not-post list. */
  listed?: true;
  /** How many flags the write cleared (a flagged post fetched again is no longer flagged); 0 when none. */
  flags_cleared?: number;
}

/** Records that a post's prev/next may have changed (ref 'neighbour'): a rebuild can no longer see its old neighbours. */
async function recordNeighbours(db: Db, service: string, creatorId: string, neighbours: (string | null)[]): Promise<void> {
  for (const neighbour of neighbours) {
    if (neighbour !== null) {
      await recordChange(db, { kind: 'post', action: 'upsert', service, creator_id: creatorId, post_id: neighbour, ref: 'neighbour' });
    }
  }
}

/**
 * Inserts or updates a post with its file links (post_files), tags (post_tags) and search index row,
 * in one transaction. Inside a caller's transaction it joins that transaction without a savepoint
 * (see inTransactionNoSavepoint), so a bulk import batches thousands of posts per transaction. When
 * the post exists and any archived field differs, the previous version is stored as a revision.
 * Records a 'post' change; when an update moves the post (published changed), also records its old
 * neighbours (ref 'neighbour'). An identical re-import writes nothing. The creator row must exist.
 * options.now (ISO) is the time stamped on a stored revision (default now).
 *
 * A post on the do-not-post list (by itself or through its creator) is never written: the result is
 * 'unchanged' with `listed`, so a forgotten check in an importer cannot bring removed content back.
 * Writing a post (changed or not) clears its flags: it has just been fetched again (`flags_cleared`).
 */
export async function upsertPost(db: Db, input: PostInput, options: { now?: string } = {}): Promise<UpsertPostResult> {
  return await inTransactionNoSavepoint(db, async (db) => {
    if (await isPostListed(db, input.service, input.user, input.id)) return { action: 'unchanged', listed: true };
    const existing = await getFullRow(db, input.service, input.user, input.id);
    const cleared = existing ? await clearPostFlags(db, input.service, input.user, input.id) : 0;
    const flags = cleared > 0 ? { flags_cleared: cleared } : {};
    const next = columnsOf(input);
    const key = { service: input.service, user: input.user, id: input.id };
    let revisionId: number | undefined;
    let seq: number;
    let added: string;
    if (existing) {
      const changed = COMPARED.filter((column) => existing[column] !== next[column]);
      if (changed.length === 0 && (input.added == null || input.added === existing.added)) return { action: 'unchanged', ...flags };
      seq = existing.seq;
      added = input.added ?? existing.added;
      if (changed.length > 0) {
        revisionId = await storePostRevision(db, toFullPost(existing, { prev: null, next: null }), options.now ?? nowIso());
      }
      if (existing.published !== next.published) {
        await recordNeighbours(db, input.service, input.user, [
          await newerThan(db, input.service, input.user, existing),
          await olderThan(db, input.service, input.user, existing),
        ]);
      }
    } else {
      seq = stmt<{ seq: number }>(db, 'SELECT coalesce(max(seq), 0) + 1 AS seq FROM posts').get()!.seq;
      added = input.added ?? nowIso();
    }

    stmt(
      db,
      `INSERT INTO posts (service, "user", id, seq, title, content, published, edited, added, file, attachments, embed,
                          poll, tags, incomplete_rewards, shared_file)
       VALUES (:service, :user, :id, :seq, :title, :content, :published, :edited, :added, :file, :attachments, :embed,
               :poll, :tags, :incomplete_rewards, :shared_file)
       ON CONFLICT (service, "user", id) DO UPDATE SET
         title = excluded.title, content = excluded.content, published = excluded.published, edited = excluded.edited,
         added = excluded.added, file = excluded.file, attachments = excluded.attachments, embed = excluded.embed,
         poll = excluded.poll, tags = excluded.tags, incomplete_rewards = excluded.incomplete_rewards,
         shared_file = excluded.shared_file`,
    ).run({ ...key, seq, added, ...next });

    if (!existing || existing.file !== next.file || existing.attachments !== next.attachments) {
      await setPostFiles(db, seq, input.file ?? null, input.attachments ?? [], { replace: !!existing });
    }
    if (!existing || existing.tags !== next.tags || existing.published !== next.published) {
      await setPostTags(db, key, JSON.parse(next.tags) as string[], next.published, seq, { replace: !!existing });
    }
    if (!existing || existing.title !== next.title || existing.content !== next.content) {
      if (existing) await unindexPostText(db, seq);
      await indexPostText(db, seq, next.title, next.content);
    }

    await recordChange(db, { kind: 'post', action: 'upsert', service: input.service, creator_id: input.user, post_id: input.id });
    return revisionId !== undefined
      ? { action: existing ? 'updated' : 'inserted', revision_id: revisionId, ...flags }
      : { action: existing ? 'updated' : 'inserted', ...flags };
  });
}

/**
 * Deletes a post with everything attached to it (files links, tags, revisions, comments, favourites,
 * flags, popularity, search row). Records a 'post' delete and the old neighbours (ref 'neighbour').
 * @returns false when the post did not exist
 */
export async function deletePost(db: Db, service: string, creatorId: string, postId: string): Promise<boolean> {
  return await inTransactionNoSavepoint(db, async (db) => {
    const row = stmt<OrderKey & { seq: number }>(
      db,
      'SELECT id, published, seq FROM posts WHERE service = ? AND "user" = ? AND id = ?',
    ).get(service, creatorId, postId);
    if (!row) return false;
    const neighbours = [await newerThan(db, service, creatorId, row), await olderThan(db, service, creatorId, row)];
    // The revisions go with the post (ON DELETE CASCADE); a rebuild can then no longer find their pages.
    for (const revisionId of await listRevisionIds(db, service, creatorId, postId)) {
      await recordChange(db, {
        kind: 'post',
        action: 'delete',
        service,
        creator_id: creatorId,
        post_id: postId,
        ref: `revision:${revisionId}`,
      });
    }
    await unindexPostText(db, row.seq);
    await recordDroppedTags(db, { service, user: creatorId, id: postId });
    stmt(db, 'DELETE FROM posts WHERE service = ? AND "user" = ? AND id = ?').run(service, creatorId, postId);
    await recordChange(db, { kind: 'post', action: 'delete', service, creator_id: creatorId, post_id: postId });
    await recordNeighbours(db, service, creatorId, neighbours);
    return true;
  });
}

// Every post ----------------------------------------------------------------------------------------

/**
 * All post keys in archive order (seq), fetched in batches by keyset pagination over the seq index:
 * cheap on millions of rows, and no statement stays open between batches.
 */
export async function* iteratePostKeys(db: Db, batch = 10_000): AsyncGenerator<PostKey & { seq: number }> {
  let after = 0;
  for (;;) {
    const rows = stmt<PostKey & { seq: number }>(db, 'SELECT service, "user", id, seq FROM posts WHERE seq > ? ORDER BY seq LIMIT ?').all(
      after,
      batch,
    );
    for (const row of rows) yield row;
    if (rows.length < batch) return;
    after = rows[rows.length - 1].seq;
  }
}

/** Post ids of one creator in listing order (newest first), fetched in batches of `batch`. */
export async function* iterateCreatorPostIds(db: Db, service: string, creatorId: string, batch = 5_000): AsyncGenerator<string> {
  for (let offset = 0; ; offset += batch) {
    const rows = stmt<{ id: string }>(
      db,
      'SELECT id FROM posts WHERE service = ? AND "user" = ? ORDER BY published DESC, id DESC LIMIT ? OFFSET ?',
    ).all(service, creatorId, batch, offset);
    for (const row of rows) yield row.id;
    if (rows.length < batch) return;
  }
}
