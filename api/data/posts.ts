/**
 * Posts: the listings, one post, random and resolved posts, and the writers (upsertPost, deletePost).
 * The writers keep the post's other rows in step through their modules: search index (search-index.ts),
 * tags (tags.ts), file links (post-files.ts) and revisions (post-revisions.ts).
 *
 * Orders (stable, index-backed):
 * - A creator's posts: newest first, `published DESC NULLS LAST, id DESC`, undated last (post-neighbours.ts);
 *   NULLS LAST is SQLite's own order for DESC and still reads posts_creator_published backwards there.
 * - Global recent posts: `added DESC, seq DESC` (posts_added).
 * - Global search and tag listings: newest archived first, `seq DESC` (post-search.ts).
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { recordChange } from './changes.ts';
import { inTransactionNoSavepoint, nowIso } from './util.ts';
import { getFullRow, SUMMARY_COLUMNS, toFullPost, type SummaryRow, summariesOf } from './post-rows.ts';
import { NEIGHBOUR_COLUMNS, postPageNeighbours, type PostNeighbours } from './post-neighbours.ts';
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

/** A post key as one string (a Map key): service, user and id joined by NUL, which no id contains. */
export function postKeyString(key: PostKey): string {
  return `${key.service}\u0000${key.user}\u0000${key.id}`;
}

// Listings ------------------------------------------------------------------------------------------

const COLUMNS = sql.raw(SUMMARY_COLUMNS);

/** PostgreSQL: the transaction-scoped advisory lock that serialises new posts' seq (any fixed bigint; 'trove-sq'). */
const SEQ_LOCK = '8390891610038956913';

/**
 * A page of a creator's posts by offset, newest first (published DESC, undated last, then id DESC). On
 * PostgreSQL past the first page, the offset is skipped in posts_creator_newest alone and only the page's
 * rows are read: PostgreSQL reads the row of every post it skips (about 20 µs each on this machine; a
 * rebuild re-renders every listing page after a new post, 44 ms a page on average at a million posts).
 * SQLite skips without reading rows, so it keeps the plain query.
 */
export async function creatorPostsByOffset(
  db: Store,
  service: string,
  creatorId: string,
  offset: number,
  limit: number,
): Promise<PostSummary[]> {
  if (db.engine === 'postgres' && offset > 0) {
    return await summariesOf(
      db,
      sql<SummaryRow>`SELECT ${COLUMNS}
          FROM (SELECT id FROM posts WHERE service = ${service} AND "user" = ${creatorId}
                 ORDER BY published DESC NULLS LAST, id DESC LIMIT ${limit} OFFSET ${offset}) k
          JOIN posts p ON p.service = ${service} AND p."user" = ${creatorId} AND p.id = k.id
         ORDER BY p.published DESC NULLS LAST, p.id DESC`,
    );
  }
  return await summariesOf(
    db,
    sql<SummaryRow>`SELECT ${COLUMNS} FROM posts p WHERE p.service = ${service} AND p."user" = ${creatorId}
      ORDER BY p.published DESC NULLS LAST, p.id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
}

/**
 * A creator's posts, newest first (published DESC, id DESC, undated last), as summaries: `limit` from
 * `offset`, or with `after` (a cursor, offset ignored) the `limit` posts that follow that post in this
 * order. The cursor pages by key ranges of posts_creator_published: dated posts below the cursor, then
 * the undated ones (NULL sorts lowest in the index, so they end a newest-first scan).
 */
export async function listCreatorPosts(
  db: Store,
  service: string,
  creatorId: string,
  offset: number,
  limit: number,
  after?: CreatorCursor,
): Promise<PostSummary[]> {
  if (!after) return await creatorPostsByOffset(db, service, creatorId, offset, limit);
  const posts: PostSummary[] = [];
  if (after.published !== null) {
    posts.push(
      ...(await summariesOf(
        db,
        sql<SummaryRow>`SELECT ${COLUMNS} FROM posts p
          WHERE p.service = ${service} AND p."user" = ${creatorId} AND (p.published, p.id) < (${after.published}, ${after.id})
          ORDER BY p.published DESC, p.id DESC LIMIT ${limit}`,
      )),
    );
  }
  if (posts.length < limit) {
    // Undated posts: all of them after a dated cursor, those below the cursor's id after an undated one.
    const below = after.published === null ? sql` AND p.id < ${after.id}` : sql``;
    // INDEXED BY (SQLite only): without it the planner may walk the primary key's id range through every dated post.
    const indexed = db.engine === 'sqlite' ? sql` INDEXED BY posts_creator_published` : sql``;
    posts.push(
      ...(await summariesOf(
        db,
        sql<SummaryRow>`SELECT ${COLUMNS} FROM posts p${indexed}
          WHERE p.service = ${service} AND p."user" = ${creatorId} AND p.published IS NULL${below}
          ORDER BY p.id DESC LIMIT ${limit - posts.length}`,
      )),
    );
  }
  return posts;
}

/** Number of posts of a creator. */
export async function countCreatorPosts(db: Store, service: string, creatorId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM posts WHERE service = ${service} AND "user" = ${creatorId}`.execute(
    db.k,
  );
  return Number(rows[0].n);
}

/**
 * All posts, most recently added first (added DESC, seq DESC), as summaries: `limit` from `offset`, or
 * with `after` (offset ignored) the posts that follow that one, by a key range of posts_added.
 */
export async function listRecentPosts(db: Store, offset: number, limit: number, after?: ArchiveCursor): Promise<PostSummary[]> {
  if (after) {
    return await summariesOf(
      db,
      sql<SummaryRow>`SELECT ${COLUMNS} FROM posts p WHERE (p.added, p.seq) < (${after.added}, ${after.seq})
        ORDER BY p.added DESC, p.seq DESC LIMIT ${limit}`,
    );
  }
  return await summariesOf(
    db,
    sql<SummaryRow>`SELECT ${COLUMNS} FROM posts p ORDER BY p.added DESC, p.seq DESC LIMIT ${limit} OFFSET ${offset}`,
  );
}

/** The global listings' cursor of a post (its added date and archive number), or null when it is gone. */
export async function archiveCursorOf(db: Store, post: PostKey): Promise<ArchiveCursor | null> {
  const { rows } = await sql<ArchiveCursor>`SELECT added, seq FROM posts
    WHERE service = ${post.service} AND "user" = ${post.user} AND id = ${post.id}`.execute(db.k);
  const row = rows[0];
  return row ? { added: row.added, seq: row.seq } : null;
}

/** Number of posts in the archive. */
export async function countPosts(db: Store): Promise<number> {
  // PostgreSQL keeps the number in post_count's rows (migration 015): its count(*) reads every index entry.
  const query =
    db.engine === 'postgres'
      ? sql<{ n: number }>`SELECT coalesce(sum(n), 0) AS n FROM post_count`
      : sql<{ n: number }>`SELECT count(*) AS n FROM posts`;
  const { rows } = await query.execute(db.k);
  return Number(rows[0].n);
}

/** Summaries of the given posts, in the order of `keys` (missing posts are skipped). */
export async function getPostSummaries(db: Store, keys: PostKey[]): Promise<PostSummary[]> {
  const out: PostSummary[] = [];
  // One fixed statement per key (as many lookups as keys, each on the primary key) keeps the order of `keys`.
  for (const key of keys) {
    out.push(
      ...(await summariesOf(
        db,
        sql<SummaryRow>`SELECT ${COLUMNS} FROM posts p WHERE p.service = ${key.service} AND p."user" = ${key.user} AND p.id = ${key.id}`,
      )),
    );
  }
  return out;
}

// One post ------------------------------------------------------------------------------------------

/** Whether a post exists (favourites and flags answer 404 for unknown posts). */
export async function postExists(db: Store, service: string, creatorId: string, postId: string): Promise<boolean> {
  const { rows } = await sql`SELECT 1 AS one FROM posts WHERE service = ${service} AND "user" = ${creatorId} AND id = ${postId}`.execute(
    db.k,
  );
  return rows.length > 0;
}

/**
 * The full post object (kemono's `post`): content, raw file/attachments, tags, and `next` (the next
 * older post of the creator) / `prev` (the next newer one). Undefined when the post does not exist.
 * For the whole post-page answer (attachments with server, previews, videos, props) use getPostPage.
 */
export async function getPost(db: Store, service: string, creatorId: string, postId: string): Promise<FullPost | undefined> {
  const row = await getFullRow<PostNeighbours>(db, service, creatorId, postId, NEIGHBOUR_COLUMNS);
  return row && toFullPost(row, row);
}

/** Resolves a post id within a service to its creator (GET /{service}/post/{post}), or undefined. */
export async function resolvePost(
  db: Store,
  service: string,
  postId: string,
): Promise<{ service: string; artist_id: string; post_id: string } | undefined> {
  const { rows } = await sql<{ user: string }>`SELECT "user" FROM posts WHERE service = ${service} AND id = ${postId}
    ORDER BY "user" LIMIT 1`.execute(db.k);
  const row = rows[0];
  return row ? { service, artist_id: row.user, post_id: postId } : undefined;
}

/** A random post key, or undefined when there are no posts. */
export async function randomPost(db: Store, random: () => number = Math.random): Promise<PostKey | undefined> {
  // Two queries: SQLite answers a lone min() or max() from the index, not both in one query.
  const lo = (await sql<{ v: number | null }>`SELECT min(seq) AS v FROM posts`.execute(db.k)).rows[0].v;
  const hi = (await sql<{ v: number | null }>`SELECT max(seq) AS v FROM posts`.execute(db.k)).rows[0].v;
  if (lo === null || hi === null) return undefined;
  const pick = lo + Math.floor(random() * (hi - lo + 1));
  const { rows } = await sql<PostKey>`SELECT service, "user", id FROM posts WHERE seq >= ${pick} ORDER BY seq LIMIT 1`.execute(db.k);
  return rows[0];
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
async function recordNeighbours(
  db: Store,
  service: string,
  creatorId: string,
  around: { prev: string | null; next: string | null } | undefined,
): Promise<void> {
  for (const neighbour of [around?.prev ?? null, around?.next ?? null]) {
    if (neighbour !== null) {
      await recordChange(db, { kind: 'post', action: 'upsert', service, creator_id: creatorId, post_id: neighbour, ref: 'neighbour' });
    }
  }
}

/**
 * The archive number of a new post: one past the highest. Called inside the write transaction. SQLite
 * writes one transaction at a time; on PostgreSQL several import workers may insert at once, so a
 * transaction-scoped advisory lock makes them take turns from here to their commit (two writers reading
 * the same max(seq) would otherwise pick the same number).
 */
async function nextSeq(db: Store): Promise<number> {
  if (db.engine === 'postgres') await sql`SELECT pg_advisory_xact_lock(${SEQ_LOCK}::bigint)`.execute(db.k);
  const { rows } = await sql<{ seq: number }>`SELECT coalesce(max(seq), 0) + 1 AS seq FROM posts`.execute(db.k);
  return Number(rows[0].seq);
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
export async function upsertPost(db: Store, input: PostInput, options: { now?: string } = {}): Promise<UpsertPostResult> {
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
        await recordNeighbours(db, input.service, input.user, await postPageNeighbours(db, input.service, input.user, input.id));
      }
    } else {
      seq = await nextSeq(db);
      added = input.added ?? nowIso();
    }

    await sql`INSERT INTO posts (service, "user", id, seq, title, content, published, edited, added, file, attachments, embed,
                                 poll, tags, incomplete_rewards, shared_file)
       VALUES (${key.service}, ${key.user}, ${key.id}, ${seq}, ${next.title}, ${next.content}, ${next.published}, ${next.edited},
               ${added}, ${next.file}, ${next.attachments}, ${next.embed}, ${next.poll}, ${next.tags}, ${next.incomplete_rewards},
               ${next.shared_file})
       ON CONFLICT (service, "user", id) DO UPDATE SET
         title = excluded.title, content = excluded.content, published = excluded.published, edited = excluded.edited,
         added = excluded.added, file = excluded.file, attachments = excluded.attachments, embed = excluded.embed,
         poll = excluded.poll, tags = excluded.tags, incomplete_rewards = excluded.incomplete_rewards,
         shared_file = excluded.shared_file`.execute(db.k);

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
export async function deletePost(db: Store, service: string, creatorId: string, postId: string): Promise<boolean> {
  return await inTransactionNoSavepoint(db, async (db) => {
    const { rows } = await sql<{ seq: number }>`SELECT seq FROM posts
      WHERE service = ${service} AND "user" = ${creatorId} AND id = ${postId}`.execute(db.k);
    const row = rows[0];
    if (!row) return false;
    const neighbours = await postPageNeighbours(db, service, creatorId, postId);
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
    await sql`DELETE FROM posts WHERE service = ${service} AND "user" = ${creatorId} AND id = ${postId}`.execute(db.k);
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
export async function* iteratePostKeys(db: Store, batch = 10_000): AsyncGenerator<PostKey & { seq: number }> {
  let after = 0;
  for (;;) {
    const { rows } = await sql<PostKey & { seq: number }>`SELECT service, "user", id, seq FROM posts WHERE seq > ${after}
      ORDER BY seq LIMIT ${batch}`.execute(db.k);
    for (const row of rows) yield row;
    if (rows.length < batch) return;
    after = rows[rows.length - 1].seq;
  }
}

/** Post ids of one creator in listing order (newest first), fetched in batches of `batch`. */
export async function* iterateCreatorPostIds(db: Store, service: string, creatorId: string, batch = 5_000): AsyncGenerator<string> {
  for (let offset = 0; ; offset += batch) {
    const { rows } = await sql<{ id: string }>`SELECT id FROM posts WHERE service = ${service} AND "user" = ${creatorId}
      ORDER BY published DESC NULLS LAST, id DESC LIMIT ${batch} OFFSET ${offset}`.execute(db.k);
    for (const row of rows) yield row.id;
    if (rows.length < batch) return;
  }
}
