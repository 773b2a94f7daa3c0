/**
 * Posts: listings, the post page, search, tags, revisions, comments, popularity, and the writers.
 *
 * Orders (stable, index-backed):
 * - A creator's posts: newest first, `published DESC, id DESC` (posts_creator_published, scanned
 *   backwards). Posts without a published date come last (SQLite sorts NULL last in DESC; a
 *   PostgreSQL port says NULLS LAST).
 *   `next` is the next OLDER post of that listing, `prev` the next NEWER one.
 * - Global recent posts: `added DESC, seq DESC` (posts_added).
 * - Global search and tag listings: newest archived first, `seq DESC` (the FTS rowid is seq).
 *
 * Shapes follow API-NOTES.md: `file` is {} when absent, `attachments` is always a list, dates are
 * ISO strings without a zone.
 */
import { stmt, type Db } from './db.ts';
import { recordChange } from './changes.ts';
import {
  extensionOf,
  hashFromPath,
  htmlToText,
  inTransaction,
  inTransactionNoSavepoint,
  likeContains,
  nowIso,
  parseJson,
  truncateChars,
} from './util.ts';
import { shortWordTerm, shortWordText } from './search-words.ts';
import { isPostFlagged } from './moderation.ts';
import type { PostFileRef, PostEmbed, PollChoice, Poll, PostSummary, Comment } from '@shared/shapes/posts.ts';
export type { PostFileRef, PostEmbed, PollChoice, Poll, PostSummary, Comment };

// ---------------------------------------------------------------------------------------------------
// Types

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

/** The full post object (post page, revisions). */
export interface FullPost {
  id: string;
  user: string;
  service: string;
  title: string;
  content: string;
  embed: PostEmbed | Record<string, never>;
  shared_file: boolean;
  added: string;
  published: string | null;
  edited: string | null;
  file: PostFileRef | Record<string, never>;
  attachments: PostFileRef[];
  poll: Poll | null;
  tags: string[];
  incomplete_rewards: string | null;
  next: string | null;
  prev: string | null;
}

/** A previous version of a post. */
export interface PostRevision extends Omit<FullPost, 'next' | 'prev'> {
  revision_id: number;
  next: string | null;
  prev: string | null;
}

export interface Attachment {
  server: string;
  name: string | null;
  path: string;
  extension: string;
  name_extension: string;
  stem: string;
}

export interface Video {
  index: number;
  path: string;
  name: string | null;
  extension: string;
  server: string;
  caption: string | null;
}

export type Preview =
  | { type: 'thumbnail'; server: string; name: string | null; path: string; caption: string | null }
  | { type: 'embed'; url: string; subject: string | null; description: string | null };

export interface PostPage {
  post: FullPost;
  attachments: Attachment[];
  previews: Preview[];
  videos: Video[];
  props: {
    flagged: boolean;
    /**
     * [index, post] pairs: [0, the post as it is now], then [1, newest older version], [2, ...], so a
     * post without older versions has the one pair. Clients (KToolBox, kemono-dl) read the index as an
     * integer; an older version is told apart by its revision_id.
     */
    revisions: [number, FullPost | PostRevision][];
  };
}

export interface PostKey {
  service: string;
  user: string;
  id: string;
}

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

export interface TagCount {
  tag: string;
  post_count: number;
}

// ---------------------------------------------------------------------------------------------------
// Row mapping

/** Extensions shown as images (SPEC.md, post cards). */
export const IMAGE_EXTENSIONS = ['.gif', '.jpeg', '.jpg', '.jpe', '.png', '.webp'];
/** Extensions shown in the video player. */
export const VIDEO_EXTENSIONS = ['.mp4', '.webm', '.m4v', '.mov'];
/**
 * Length of a summary's substring (plain-text characters): one more than a post card shows (50), so a
 * card falling back to the content knows when to cut it and add the ellipsis.
 */
export const SUBSTRING_LENGTH = 51;

const SUMMARY_COLUMNS = `p.service, p."user", p.id, p.title, substr(p.content, 1, 1000) AS head, p.published,
  p.added, p.edited, p.tags, p.file, p.attachments, p.poll, p.incomplete_rewards, p.embed, p.shared_file`;

const FULL_COLUMNS = `p.service, p."user", p.id, p.seq, p.title, p.content, p.published, p.added, p.edited, p.tags,
  p.file, p.attachments, p.poll, p.incomplete_rewards, p.embed, p.shared_file`;

interface SummaryRow {
  service: string;
  user: string;
  id: string;
  title: string;
  head: string;
  published: string | null;
  added: string;
  edited: string | null;
  tags: string;
  file: string | null;
  attachments: string;
  poll: string | null;
  incomplete_rewards: string | null;
  embed: string | null;
  shared_file: number;
}

interface FullRow extends Omit<SummaryRow, 'head'> {
  seq: number;
  content: string;
}

function toSummary(row: SummaryRow): PostSummary {
  return {
    id: row.id,
    user: row.user,
    service: row.service,
    title: row.title,
    substring: truncateChars(htmlToText(row.head), SUBSTRING_LENGTH),
    published: row.published,
    added: row.added,
    edited: row.edited,
    tags: parseJson<string[]>(row.tags, []),
    file: parseJson<PostFileRef | Record<string, never>>(row.file, {}),
    attachments: parseJson<PostFileRef[]>(row.attachments, []),
    poll: parseJson<Poll | null>(row.poll, null),
    incomplete_rewards: row.incomplete_rewards,
    embed: parseJson<PostEmbed | Record<string, never>>(row.embed, {}),
    shared_file: row.shared_file === 1,
  };
}

function toFullPost(row: FullRow, neighbours: { prev: string | null; next: string | null }): FullPost {
  return {
    id: row.id,
    user: row.user,
    service: row.service,
    title: row.title,
    content: row.content,
    embed: parseJson<PostEmbed | Record<string, never>>(row.embed, {}),
    shared_file: row.shared_file === 1,
    added: row.added,
    published: row.published,
    edited: row.edited,
    file: parseJson<PostFileRef | Record<string, never>>(row.file, {}),
    attachments: parseJson<PostFileRef[]>(row.attachments, []),
    poll: parseJson<Poll | null>(row.poll, null),
    tags: parseJson<string[]>(row.tags, []),
    incomplete_rewards: row.incomplete_rewards,
    next: neighbours.next,
    prev: neighbours.prev,
  };
}

function getFullRow(db: Db, service: string, user: string, id: string): FullRow | undefined {
  return stmt<FullRow>(db, `SELECT ${FULL_COLUMNS} FROM posts p WHERE p.service = ? AND p."user" = ? AND p.id = ?`).get(service, user, id);
}

// ---------------------------------------------------------------------------------------------------
// Listings

/** A creator's posts, newest first (published DESC, id DESC), as summaries. */
export function listCreatorPosts(db: Db, service: string, creatorId: string, offset: number, limit: number): PostSummary[] {
  return stmt<SummaryRow>(
    db,
    `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.service = ? AND p."user" = ?
      ORDER BY p.published DESC, p.id DESC LIMIT ? OFFSET ?`,
  )
    .all(service, creatorId, limit, offset)
    .map(toSummary);
}

/** Number of posts of a creator. */
export function countCreatorPosts(db: Db, service: string, creatorId: string): number {
  return stmt<{ n: number }>(db, 'SELECT count(*) AS n FROM posts WHERE service = ? AND "user" = ?').get(service, creatorId)!.n;
}

/** All posts, most recently added first (added DESC, seq DESC), as summaries. */
export function listRecentPosts(db: Db, offset: number, limit: number): PostSummary[] {
  return stmt<SummaryRow>(db, `SELECT ${SUMMARY_COLUMNS} FROM posts p ORDER BY p.added DESC, p.seq DESC LIMIT ? OFFSET ?`)
    .all(limit, offset)
    .map(toSummary);
}

/** Number of posts in the archive. */
export function countPosts(db: Db): number {
  return stmt<{ n: number }>(db, 'SELECT count(*) AS n FROM posts').get()!.n;
}

/** Summaries of the given posts, in the order of `keys` (missing posts are skipped). */
export function getPostSummaries(db: Db, keys: PostKey[]): PostSummary[] {
  const select = stmt<SummaryRow>(db, `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.service = ? AND p."user" = ? AND p.id = ?`);
  const out: PostSummary[] = [];
  for (const key of keys) {
    const row = select.get(key.service, key.user, key.id);
    if (row) out.push(toSummary(row));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Neighbours (prev / next in the creator's newest-first listing)

interface OrderKey {
  id: string;
  published: string | null;
}

/** The next OLDER post after `at` in the creator's listing (published DESC, id DESC; undated last), or null. */
function olderThan(db: Db, service: string, user: string, at: OrderKey): string | null {
  if (at.published !== null) {
    const same = stmt<{ id: string }>(
      db,
      `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published = ? AND id < ? ORDER BY id DESC LIMIT 1`,
    ).get(service, user, at.published, at.id);
    if (same) return same.id;
    const older = stmt<{ id: string }>(
      db,
      `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published < ? ORDER BY published DESC, id DESC LIMIT 1`,
    ).get(service, user, at.published);
    if (older) return older.id;
    const undated = stmt<{ id: string }>(
      db,
      `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published IS NULL ORDER BY id DESC LIMIT 1`,
    ).get(service, user);
    return undated?.id ?? null;
  }
  const next = stmt<{ id: string }>(
    db,
    `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published IS NULL AND id < ? ORDER BY id DESC LIMIT 1`,
  ).get(service, user, at.id);
  return next?.id ?? null;
}

/** The next NEWER post before `at` in the creator's listing, or null. */
function newerThan(db: Db, service: string, user: string, at: OrderKey): string | null {
  if (at.published === null) {
    const same = stmt<{ id: string }>(
      db,
      `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published IS NULL AND id > ? ORDER BY id LIMIT 1`,
    ).get(service, user, at.id);
    if (same) return same.id;
    const dated = stmt<{ id: string }>(
      db,
      `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published IS NOT NULL ORDER BY published, id LIMIT 1`,
    ).get(service, user);
    return dated?.id ?? null;
  }
  const same = stmt<{ id: string }>(
    db,
    `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published = ? AND id > ? ORDER BY id LIMIT 1`,
  ).get(service, user, at.published, at.id);
  if (same) return same.id;
  const newer = stmt<{ id: string }>(
    db,
    `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published > ? ORDER BY published, id LIMIT 1`,
  ).get(service, user, at.published);
  return newer?.id ?? null;
}

/**
 * The current neighbours of a post in its creator's newest-first listing: `next` is the next older
 * post, `prev` the next newer one (null at the ends). Undefined when the post does not exist.
 * A rebuild re-renders these when the post was added (their prev/next now point at it).
 */
export function postPageNeighbours(
  db: Db,
  service: string,
  creatorId: string,
  postId: string,
): { prev: string | null; next: string | null } | undefined {
  const row = stmt<OrderKey>(db, 'SELECT id, published FROM posts WHERE service = ? AND "user" = ? AND id = ?').get(
    service,
    creatorId,
    postId,
  );
  if (!row) return undefined;
  return { prev: newerThan(db, service, creatorId, row), next: olderThan(db, service, creatorId, row) };
}

/**
 * Zero-based position of a post in its creator's newest-first listing (the number of posts before it),
 * or undefined when it does not exist. Its listing page offset is floor(position / 50) * 50; a rebuild
 * re-renders that page and every later one when a post was inserted or removed.
 */
export function creatorPostPosition(db: Db, service: string, creatorId: string, postId: string): number | undefined {
  const row = stmt<OrderKey>(db, 'SELECT id, published FROM posts WHERE service = ? AND "user" = ? AND id = ?').get(
    service,
    creatorId,
    postId,
  );
  if (!row) return undefined;
  if (row.published === null) {
    return stmt<{ n: number }>(
      db,
      `SELECT (SELECT count(*) FROM posts WHERE service = :s AND "user" = :u AND published IS NOT NULL)
            + (SELECT count(*) FROM posts WHERE service = :s AND "user" = :u AND published IS NULL AND id > :id) AS n`,
    ).get({ s: service, u: creatorId, id: postId })!.n;
  }
  return stmt<{ n: number }>(
    db,
    `SELECT (SELECT count(*) FROM posts WHERE service = :s AND "user" = :u AND published > :p)
          + (SELECT count(*) FROM posts WHERE service = :s AND "user" = :u AND published = :p AND id > :id) AS n`,
  ).get({ s: service, u: creatorId, p: row.published, id: postId })!.n;
}

// ---------------------------------------------------------------------------------------------------
// The post page

function attachmentEntry(server: string, file: PostFileRef): Attachment {
  const base = file.path.split('/').pop() ?? '';
  const extension = extensionOf(file.path);
  return {
    server,
    name: file.name,
    path: file.path,
    extension,
    name_extension: extensionOf(file.name) || extension,
    stem: extension ? base.slice(0, base.length - extension.length) : base,
  };
}

/**
 * Derives the post page's lists from a post: `previews` are the images (the file first, then image
 * attachments) followed by the embed; `videos` are video files; `attachments` (downloads) are every
 * attachment that is not an image.
 */
export function postMedia(post: Pick<FullPost, 'file' | 'attachments' | 'embed'>, server: string) {
  const previews: Preview[] = [];
  const videos: Video[] = [];
  const attachments: Attachment[] = [];
  const file = 'path' in post.file ? (post.file as PostFileRef) : null;
  const all = file ? [file, ...post.attachments] : post.attachments;
  all.forEach((item, index) => {
    const ext = extensionOf(item.path) || extensionOf(item.name);
    const isMainFile = file !== null && index === 0;
    if (IMAGE_EXTENSIONS.includes(ext)) {
      previews.push({ type: 'thumbnail', server, name: item.name, path: item.path, caption: null });
      return;
    }
    if (VIDEO_EXTENSIONS.includes(ext)) {
      videos.push({ index: videos.length, path: item.path, name: item.name, extension: ext, server, caption: null });
    }
    if (!isMainFile || !VIDEO_EXTENSIONS.includes(ext)) attachments.push(attachmentEntry(server, item));
  });
  const embed = post.embed as PostEmbed;
  if (embed && typeof embed.url === 'string' && embed.url) {
    previews.push({ type: 'embed', url: embed.url, subject: embed.subject ?? null, description: embed.description ?? null });
  }
  return { previews, videos, attachments };
}

/** Whether a post exists (favourites and flags answer 404 for unknown posts). */
export function postExists(db: Db, service: string, creatorId: string, postId: string): boolean {
  return !!stmt(db, 'SELECT 1 FROM posts WHERE service = ? AND "user" = ? AND id = ?').get(service, creatorId, postId);
}

/**
 * The full post object (API-NOTES `post`): content, raw file/attachments, tags, and `next` (the next
 * older post of the creator) / `prev` (the next newer one). Undefined when the post does not exist.
 * For the whole post-page answer (attachments with server, previews, videos, props) use getPostPage.
 */
export function getPost(db: Db, service: string, creatorId: string, postId: string): FullPost | undefined {
  const row = getFullRow(db, service, creatorId, postId);
  if (!row) return undefined;
  return toFullPost(row, { prev: newerThan(db, service, creatorId, row), next: olderThan(db, service, creatorId, row) });
}

/**
 * The post page answer of GET /v1/{service}/user/{id}/post/{post}: the full post (getPost), its
 * attachments, previews and videos with `server` set to `server` (the origin that serves files,
 * e.g. 'http://localhost:4321'), and props {flagged, revisions}. Undefined when the post does not exist.
 */
export function getPostPage(db: Db, service: string, creatorId: string, postId: string, server = ''): PostPage | undefined {
  const post = getPost(db, service, creatorId, postId);
  if (!post) return undefined;
  const flagged = isPostFlagged(db, service, creatorId, postId);
  // The revisions carry the current post's neighbours, which getPost has just looked up.
  const older = revisionRows(db, service, creatorId, postId).map((row) => toRevision(row, post));
  const revisions: PostPage['props']['revisions'] = [[0, post], ...older.map((rev, i): [number, PostRevision] => [i + 1, rev])];
  return { post, ...postMedia(post, server), props: { flagged, revisions } };
}

/** The older version `revisionId` among a post page's revisions, or undefined. */
export function findRevision(page: PostPage, revisionId: number): PostRevision | undefined {
  const found = page.props.revisions.find(([, version]) => 'revision_id' in version && version.revision_id === revisionId);
  return found?.[1] as PostRevision | undefined;
}

/** The revision answer: the post page's envelope with the older version as `post`, and its own media. */
export interface PostRevisionPage extends Omit<PostPage, 'post'> {
  post: PostRevision;
}

/**
 * GET /v1/{service}/user/{id}/post/{post}/revision/{revision}: the same envelope as getPostPage
 * (`props` is the post's: flag state and every version), with the revision as `post` and its
 * attachments, previews and videos. Undefined when the post or the revision does not exist.
 */
export function getPostRevisionPage(
  db: Db,
  service: string,
  creatorId: string,
  postId: string,
  revisionId: number,
  server = '',
): PostRevisionPage | undefined {
  const page = getPostPage(db, service, creatorId, postId, server);
  const revision = page && findRevision(page, revisionId);
  if (!page || !revision) return undefined;
  return { post: revision, ...postMedia(revision, server), props: page.props };
}

/** Resolves a post id within a service to its creator (GET /{service}/post/{post}), or undefined. */
export function resolvePost(db: Db, service: string, postId: string): { service: string; artist_id: string; post_id: string } | undefined {
  const row = stmt<{ user: string }>(db, 'SELECT "user" FROM posts WHERE service = ? AND id = ? ORDER BY "user" LIMIT 1').get(
    service,
    postId,
  );
  return row ? { service, artist_id: row.user, post_id: postId } : undefined;
}

/** A random post key, or undefined when there are no posts. */
export function randomPost(db: Db, random: () => number = Math.random): PostKey | undefined {
  // Two queries: SQLite answers a lone min() or max() from the index, not both in one query.
  const lo = stmt<{ v: number | null }>(db, 'SELECT min(seq) AS v FROM posts').get()!.v;
  const hi = stmt<{ v: number | null }>(db, 'SELECT max(seq) AS v FROM posts').get()!.v;
  if (lo === null || hi === null) return undefined;
  const pick = lo + Math.floor(random() * (hi - lo + 1));
  return stmt<PostKey>(db, 'SELECT service, "user", id FROM posts WHERE seq >= ? ORDER BY seq LIMIT 1').get(pick);
}

// ---------------------------------------------------------------------------------------------------
// Search

export interface SearchOptions {
  /** Free text; words of 3+ characters use the trigram index, shorter ones the short-word index. */
  q?: string | null;
  /** One tag or several (a post must carry all of them). */
  tag?: string | string[] | null;
  /** Restrict to one creator (the creator page's search); ordering is then the creator's listing order. */
  service?: string | null;
  user?: string | null;
  offset?: number;
  limit?: number;
  /** Stop counting matches at this many (default SEARCH_COUNT_LIMIT; `capped` then says so). */
  countLimit?: number;
}

export interface SearchResult {
  posts: PostSummary[];
  /** Number of matching posts (at most the count limit). */
  count: number;
  /** Same as count (both keys are in the API answer). */
  true_count: number;
  /** true when counting stopped at the limit (there may be more matches). */
  capped: boolean;
}

/**
 * Searches count their matches up to this many (20 pages): counting every post that holds a common
 * word costs tens of milliseconds over a million posts (measured: 10,000 matches 10-11 ms, 1,000 under
 * 1 ms on top of the page itself, docs/benchmarks.md). `capped` tells the pages there is more.
 */
export const SEARCH_COUNT_LIMIT = 1_000;
/** A query made only of lone letters (nothing to look up) scans at most this many newest posts. */
export const LONE_LETTER_SCAN_POSTS = 20_000;

const MAX_SEARCH_WORDS = 8;
const MAX_SEARCH_TAGS = 8;

/**
 * Splits a query into trigram words (3+ characters, substrings anywhere: `ftsQuery`), short words
 * (posts_words terms: `wordsQuery`), and lone letters outside CJK that match too much to search on
 * (`ignored`).
 */
export function splitSearchQuery(q: string): { ftsQuery: string | null; wordsQuery: string | null; ignored: string[] } {
  const words = q.trim().split(/\s+/).filter(Boolean).slice(0, MAX_SEARCH_WORDS);
  const long = words.filter((w) => Array.from(w).length >= 3);
  const terms: string[] = [];
  const ignored: string[] = [];
  for (const word of words.filter((w) => Array.from(w).length < 3)) {
    const term = shortWordTerm(word);
    if (term) terms.push(term);
    else ignored.push(word);
  }
  return {
    ftsQuery: long.length ? long.map((w) => `"${w.replace(/"/g, '""')}"`).join(' ') : null,
    wordsQuery: terms.length ? terms.join(' ') : null,
    ignored,
  };
}

/**
 * Post search: free text (`q`, trigram FTS for words of 3+ characters so Japanese and Chinese
 * substrings are found; shorter words use a LIKE scan), tags (all must match), optionally within one
 * creator. Global results are newest archived first (seq DESC); creator results follow the creator's
 * listing order. Without q and tag this is listRecentPosts / listCreatorPosts.
 */
export function searchPosts(db: Db, options: SearchOptions): SearchResult {
  const offset = options.offset ?? 0;
  const limit = options.limit ?? 50;
  const tags = (Array.isArray(options.tag) ? options.tag : options.tag ? [options.tag] : [])
    .filter((t) => t !== '')
    .slice(0, MAX_SEARCH_TAGS);
  const { ftsQuery, wordsQuery, ignored } = options.q ? splitSearchQuery(options.q) : { ftsQuery: null, wordsQuery: null, ignored: [] };
  const creator = options.service && options.user ? { service: options.service, user: options.user } : null;
  const countLimit = options.countLimit ?? SEARCH_COUNT_LIMIT;
  // Only lone letters were typed: nothing an index can answer, so look for them in the newest posts.
  const loneLetters = !ftsQuery && !wordsQuery ? ignored : [];

  const result = (posts: PostSummary[], count: number): SearchResult => {
    const capped = count >= countLimit;
    return { posts, count, true_count: count, capped };
  };

  if (!ftsQuery && !wordsQuery && loneLetters.length === 0 && tags.length === 0) {
    if (creator) {
      const count = countCreatorPosts(db, creator.service, creator.user);
      return { posts: listCreatorPosts(db, creator.service, creator.user, offset, limit), count, true_count: count, capped: false };
    }
    const count = countPosts(db);
    return { posts: listRecentPosts(db, offset, limit), count, true_count: count, capped: false };
  }

  // Fast path (ARCHITECTURE.md): global text search only, newest first straight from the indexes'
  // rowids (= posts.seq), LIMIT inside, then the join.
  if (!creator && tags.length === 0 && loneLetters.length === 0) {
    const [table, match, also] = ftsQuery ? ['posts_fts', ftsQuery, wordsQuery] : ['posts_words', wordsQuery!, null];
    const filter = also ? ' AND rowid IN (SELECT rowid FROM posts_words WHERE posts_words MATCH ?)' : '';
    const params = also ? [match, also] : [match];
    const posts = stmt<SummaryRow>(
      db,
      `SELECT ${SUMMARY_COLUMNS}
         FROM (SELECT rowid AS seq FROM ${table} WHERE ${table} MATCH ?${filter} ORDER BY rowid DESC LIMIT ? OFFSET ?) f
         JOIN posts p ON p.seq = f.seq
        ORDER BY p.seq DESC`,
    )
      .all(...params, limit, offset)
      .map(toSummary);
    const count = stmt<{ n: number }>(db, `SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH ?${filter} LIMIT ?)`).get(
      ...params,
      countLimit,
    )!.n;
    return result(posts, count);
  }

  const where: string[] = [];
  const params: unknown[] = [];
  let from: string;
  let order: string;
  let restTags = tags;
  if (creator && tags.length > 0) {
    from = `post_tags t JOIN posts p ON p.service = t.service AND p."user" = t."user" AND p.id = t.post_id`;
    where.push('t.service = ?', 't."user" = ?', 't.tag = ?');
    params.push(creator.service, creator.user, tags[0]);
    order = 't.published DESC, t.post_id DESC';
    restTags = tags.slice(1);
  } else if (creator) {
    from = 'posts p';
    where.push('p.service = ?', 'p."user" = ?');
    params.push(creator.service, creator.user);
    order = 'p.published DESC, p.id DESC';
  } else if (tags.length > 0) {
    from = 'post_tags t JOIN posts p ON p.seq = t.post_seq';
    where.push('t.tag = ?');
    params.push(tags[0]);
    order = 't.post_seq DESC';
    restTags = tags.slice(1);
  } else {
    from = 'posts p';
    where.push(`p.seq > (SELECT coalesce(max(seq), 0) FROM posts) - ${LONE_LETTER_SCAN_POSTS}`);
    order = 'p.seq DESC';
  }
  for (const [table, match] of [
    ['posts_fts', ftsQuery],
    ['posts_words', wordsQuery],
  ] as const) {
    if (!match) continue;
    where.push(`p.seq IN (SELECT rowid FROM ${table} WHERE ${table} MATCH ?)`);
    params.push(match);
  }
  for (const tag of restTags) {
    where.push(
      'EXISTS (SELECT 1 FROM post_tags t2 WHERE t2.service = p.service AND t2."user" = p."user" AND t2.post_id = p.id AND t2.tag = ?)',
    );
    params.push(tag);
  }
  for (const letter of loneLetters) {
    where.push(`(p.title LIKE ? ESCAPE '\\' OR p.content LIKE ? ESCAPE '\\')`);
    const pattern = likeContains(letter);
    params.push(pattern, pattern);
  }
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const posts = stmt<SummaryRow>(db, `SELECT ${SUMMARY_COLUMNS} FROM ${from} ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .all(...params, limit, offset)
    .map(toSummary);
  const count = stmt<{ n: number }>(db, `SELECT count(*) AS n FROM (SELECT 1 FROM ${from} ${whereSql} LIMIT ?)`).get(
    ...params,
    countLimit,
  )!.n;
  return result(posts, count);
}

// ---------------------------------------------------------------------------------------------------
// Tags

/** Every tag with its number of posts, most used first, then by name. */
export function listAllTags(db: Db): TagCount[] {
  return stmt<TagCount>(db, 'SELECT tag, post_count FROM tag_counts ORDER BY post_count DESC, tag').all();
}

/** A creator's tags with their number of posts, most used first, then by name. */
export function listCreatorTags(db: Db, service: string, creatorId: string): TagCount[] {
  return stmt<TagCount>(
    db,
    `SELECT tag, count(*) AS post_count FROM post_tags WHERE service = ? AND "user" = ?
      GROUP BY tag ORDER BY post_count DESC, tag`,
  ).all(service, creatorId);
}

// ---------------------------------------------------------------------------------------------------
// Revisions

interface RevisionRow {
  revision_id: number;
  data: string;
  added: string;
}

function toRevision(row: RevisionRow, neighbours: { prev: string | null; next: string | null }): PostRevision {
  const data = parseJson<Omit<FullPost, 'next' | 'prev'>>(row.data, {} as Omit<FullPost, 'next' | 'prev'>);
  return { ...data, added: row.added, revision_id: row.revision_id, next: neighbours.next, prev: neighbours.prev };
}

function revisionRows(db: Db, service: string, creatorId: string, postId: string): RevisionRow[] {
  return stmt<RevisionRow>(
    db,
    `SELECT revision_id, data, added FROM post_revisions WHERE service = ? AND "user" = ? AND post_id = ?
      ORDER BY revision_id DESC`,
  ).all(service, creatorId, postId);
}

/**
 * Previous versions of a post, newest first. Each is the full post as it was, with revision_id and
 * `added` = when that version was replaced. next/prev are the current post's neighbours.
 */
export function listPostRevisions(db: Db, service: string, creatorId: string, postId: string): PostRevision[] {
  const rows = revisionRows(db, service, creatorId, postId);
  if (rows.length === 0) return [];
  const neighbours = postPageNeighbours(db, service, creatorId, postId) ?? { prev: null, next: null };
  return rows.map((row) => toRevision(row, neighbours));
}

/** Ids of a post's previous versions, newest first (the revision pages a change to the post re-renders). */
export function listRevisionIds(db: Db, service: string, creatorId: string, postId: string): number[] {
  return stmt<{ revision_id: number }>(
    db,
    `SELECT revision_id FROM post_revisions WHERE service = ? AND "user" = ? AND post_id = ? ORDER BY revision_id DESC`,
  )
    .all(service, creatorId, postId)
    .map((row) => row.revision_id);
}

/** Every revision's key in revision order, in batches by keyset pagination (a full rebuild). */
export function* iterateRevisionKeys(db: Db, batch = 10_000): Generator<PostKey & { revision_id: number }> {
  let after = 0;
  for (;;) {
    const rows = stmt<PostKey & { revision_id: number }>(
      db,
      `SELECT service, "user", post_id AS id, revision_id FROM post_revisions WHERE revision_id > ? ORDER BY revision_id LIMIT ?`,
    ).all(after, batch);
    for (const row of rows) yield row;
    if (rows.length < batch) return;
    after = rows[rows.length - 1].revision_id;
  }
}

// ---------------------------------------------------------------------------------------------------
// Comments

/** A post's comments, oldest first, each with its previous versions. */
export function listComments(db: Db, service: string, creatorId: string, postId: string): Comment[] {
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
export function upsertComment(db: Db, input: CommentInput, options: { now?: string } = {}): 'inserted' | 'updated' | 'unchanged' {
  return inTransaction(db, () => {
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
    recordChange(db, { kind: 'comment', action: 'upsert', service: input.service, creator_id: input.user, post_id: input.post_id });
    return existing ? 'updated' : 'inserted';
  });
}

// ---------------------------------------------------------------------------------------------------
// Writes

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
}

/**
 * Inserts or updates a post with its file links (post_files), tags (post_tags) and search index row,
 * in one transaction. Inside a caller's transaction it joins that transaction without a savepoint
 * (see inTransactionNoSavepoint), so a bulk import batches thousands of posts per transaction. When the post exists and any archived field differs, the previous version is
 * stored as a revision. Records a 'post' change; when an update moves the post (published changed),
 * also records its old neighbours (ref 'neighbour'). An identical re-import writes nothing.
 * The creator row must exist. options.now (ISO) is the time stamped on a stored revision (default now).
 */
export function upsertPost(db: Db, input: PostInput, options: { now?: string } = {}): UpsertPostResult {
  return inTransactionNoSavepoint(db, () => {
    const existing = getFullRow(db, input.service, input.user, input.id);
    const next = columnsOf(input);
    const key = { service: input.service, user: input.user, id: input.id };
    let revisionId: number | undefined;
    let seq: number;
    let added: string;
    if (existing) {
      const changed = COMPARED.filter((column) => existing[column] !== next[column]);
      if (changed.length === 0 && (input.added == null || input.added === existing.added)) return { action: 'unchanged' };
      seq = existing.seq;
      added = input.added ?? existing.added;
      if (changed.length > 0) {
        const snapshot = toFullPost(existing, { prev: null, next: null }) as Partial<FullPost>;
        delete snapshot.next;
        delete snapshot.prev;
        revisionId = Number(
          stmt(db, `INSERT INTO post_revisions (service, "user", post_id, data, added) VALUES (?, ?, ?, ?, ?)`).run(
            input.service,
            input.user,
            input.id,
            JSON.stringify(snapshot),
            options.now ?? nowIso(),
          ).lastInsertRowid,
        );
      }
      if (existing.published !== next.published) {
        const neighbours = {
          prev: newerThan(db, input.service, input.user, existing),
          next: olderThan(db, input.service, input.user, existing),
        };
        for (const neighbour of [neighbours.prev, neighbours.next]) {
          if (neighbour !== null) {
            recordChange(db, {
              kind: 'post',
              action: 'upsert',
              service: input.service,
              creator_id: input.user,
              post_id: neighbour,
              ref: 'neighbour',
            });
          }
        }
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
      if (existing) stmt(db, 'DELETE FROM post_files WHERE post_seq = ?').run(seq);
      const insertFile = stmt(db, 'INSERT INTO post_files (post_seq, kind, idx, hash) VALUES (?, ?, ?, ?)');
      const fileHash = input.file ? (input.file.hash?.toLowerCase() ?? hashFromPath(input.file.path)) : null;
      if (fileHash) insertFile.run(seq, 'file', 0, fileHash);
      (input.attachments ?? []).forEach((attachment, idx) => {
        const hash = attachment.hash?.toLowerCase() ?? hashFromPath(attachment.path);
        if (hash) insertFile.run(seq, 'attachment', idx, hash);
      });
    }

    if (!existing || existing.tags !== next.tags || existing.published !== next.published) {
      if (existing)
        stmt(db, 'DELETE FROM post_tags WHERE service = ? AND "user" = ? AND post_id = ?').run(input.service, input.user, input.id);
      const insertTag = stmt(db, `INSERT INTO post_tags (service, "user", post_id, tag, published, post_seq) VALUES (?, ?, ?, ?, ?, ?)`);
      for (const tag of JSON.parse(next.tags) as string[]) {
        insertTag.run(input.service, input.user, input.id, tag, next.published, seq);
      }
    }

    if (!existing || existing.title !== next.title || existing.content !== next.content) {
      if (existing) {
        stmt(db, 'DELETE FROM posts_fts WHERE rowid = ?').run(seq);
        stmt(db, 'DELETE FROM posts_words WHERE rowid = ?').run(seq);
      }
      const text = htmlToText(next.content);
      stmt(db, 'INSERT INTO posts_fts (rowid, title, body) VALUES (?, ?, ?)').run(seq, next.title, text);
      stmt(db, 'INSERT INTO posts_words (rowid, text) VALUES (?, ?)').run(seq, shortWordText(next.title, text));
    }

    recordChange(db, { kind: 'post', action: 'upsert', service: input.service, creator_id: input.user, post_id: input.id });
    return revisionId !== undefined
      ? { action: existing ? 'updated' : 'inserted', revision_id: revisionId }
      : { action: existing ? 'updated' : 'inserted' };
  });
}

/**
 * Deletes a post with everything attached to it (files links, tags, revisions, comments, favourites,
 * flags, popularity, search row). Records a 'post' delete and the old neighbours (ref 'neighbour').
 * @returns false when the post did not exist
 */
export function deletePost(db: Db, service: string, creatorId: string, postId: string): boolean {
  return inTransactionNoSavepoint(db, () => {
    const row = stmt<OrderKey & { seq: number }>(
      db,
      'SELECT id, published, seq FROM posts WHERE service = ? AND "user" = ? AND id = ?',
    ).get(service, creatorId, postId);
    if (!row) return false;
    const neighbours = [newerThan(db, service, creatorId, row), olderThan(db, service, creatorId, row)];
    // The revisions go with the post (ON DELETE CASCADE); a rebuild can then no longer find their pages.
    for (const revisionId of listRevisionIds(db, service, creatorId, postId)) {
      recordChange(db, { kind: 'post', action: 'delete', service, creator_id: creatorId, post_id: postId, ref: `revision:${revisionId}` });
    }
    stmt(db, 'DELETE FROM posts_fts WHERE rowid = ?').run(row.seq);
    stmt(db, 'DELETE FROM posts_words WHERE rowid = ?').run(row.seq);
    stmt(db, 'DELETE FROM posts WHERE service = ? AND "user" = ? AND id = ?').run(service, creatorId, postId);
    recordChange(db, { kind: 'post', action: 'delete', service, creator_id: creatorId, post_id: postId });
    for (const neighbour of neighbours) {
      if (neighbour !== null) {
        recordChange(db, { kind: 'post', action: 'upsert', service, creator_id: creatorId, post_id: neighbour, ref: 'neighbour' });
      }
    }
    return true;
  });
}

/**
 * All post keys in archive order (seq), fetched in batches by keyset pagination over the seq index:
 * cheap on millions of rows, and no statement stays open between batches.
 */
export function* iteratePostKeys(db: Db, batch = 10_000): Generator<PostKey & { seq: number }> {
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
export function* iterateCreatorPostIds(db: Db, service: string, creatorId: string, batch = 5_000): Generator<string> {
  for (let offset = 0; ; offset += batch) {
    const rows = stmt<{ id: string }>(
      db,
      'SELECT id FROM posts WHERE service = ? AND "user" = ? ORDER BY published DESC, id DESC LIMIT ? OFFSET ?',
    ).all(service, creatorId, batch, offset);
    for (const row of rows) yield row.id;
    if (rows.length < batch) return;
  }
}

// ---------------------------------------------------------------------------------------------------
// Popularity

export interface PopularityInput {
  day: string;
  service: string;
  user: string;
  post_id: string;
  favorites?: number;
  views?: number;
}

/**
 * Adds favourite/view counts of posts for days (summed into existing counts). Records one
 * 'popularity' change per distinct day.
 */
export function addPopularity(db: Db, rows: PopularityInput[]): void {
  if (rows.length === 0) return;
  inTransaction(db, () => {
    const upsert = stmt(
      db,
      `INSERT INTO post_popularity (day, service, "user", post_id, favorites, views) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (day, service, "user", post_id) DO UPDATE SET
         favorites = post_popularity.favorites + excluded.favorites, views = post_popularity.views + excluded.views`,
    );
    const days = new Set<string>();
    for (const row of rows) {
      upsert.run(row.day, row.service, row.user, row.post_id, row.favorites ?? 0, row.views ?? 0);
      days.add(row.day);
    }
    for (const day of [...days].sort()) recordChange(db, { kind: 'popularity', action: 'upsert', ref: day });
  });
}

/**
 * Most favourited posts of the days from..to (inclusive, 'YYYY-MM-DD'), ties broken by views then
 * newest. Each summary carries fav_count (favourites within the period).
 */
export function listPopularPosts(
  db: Db,
  options: { from: string; to: string; offset?: number; limit?: number },
): { posts: (PostSummary & { fav_count: number })[]; count: number } {
  const rows = stmt<SummaryRow & { fav_count: number }>(
    db,
    `SELECT ${SUMMARY_COLUMNS}, s.fav_count FROM (
        SELECT service, "user", post_id, sum(favorites) AS fav_count, sum(views) AS view_count
          FROM post_popularity WHERE day >= ? AND day <= ?
         GROUP BY service, "user", post_id
      ) s JOIN posts p ON p.service = s.service AND p."user" = s."user" AND p.id = s.post_id
      ORDER BY s.fav_count DESC, s.view_count DESC, p.seq DESC LIMIT ? OFFSET ?`,
  ).all(options.from, options.to, options.limit ?? 50, options.offset ?? 0);
  const count = stmt<{ n: number }>(
    db,
    `SELECT count(*) AS n FROM (SELECT DISTINCT service, "user", post_id FROM post_popularity WHERE day >= ? AND day <= ?)`,
  ).get(options.from, options.to)!.n;
  return { posts: rows.map((row) => ({ ...toSummary(row), fav_count: row.fav_count })), count };
}

/** First and last day that have popularity data ('YYYY-MM-DD'), or nulls. */
export function popularityDateRange(db: Db): { min_day: string | null; max_day: string | null } {
  return stmt<{ min_day: string | null; max_day: string | null }>(
    db,
    'SELECT min(day) AS min_day, max(day) AS max_day FROM post_popularity',
  ).get()!;
}

/** Number of favourites of a post by accounts. */
export function countPostFavorites(db: Db, service: string, creatorId: string, postId: string): number {
  return stmt<{ n: number }>(db, 'SELECT count(*) AS n FROM favorite_posts WHERE service = ? AND "user" = ? AND post_id = ?').get(
    service,
    creatorId,
    postId,
  )!.n;
}

/** Summaries of posts whose file or attachments have this sha256 (hash search), newest archived first. */
export function listPostsWithFile(db: Db, sha256: string, offset = 0, limit = 50): PostSummary[] {
  return stmt<SummaryRow>(
    db,
    `SELECT ${SUMMARY_COLUMNS}
       FROM (SELECT DISTINCT post_seq FROM post_files WHERE hash = ? ORDER BY post_seq DESC LIMIT ? OFFSET ?) f
       JOIN posts p ON p.seq = f.post_seq
      ORDER BY p.seq DESC`,
  )
    .all(sha256.toLowerCase(), limit, offset)
    .map(toSummary);
}

/** Number of posts carrying a file of this sha256. */
export function countPostsWithFile(db: Db, sha256: string): number {
  return stmt<{ n: number }>(db, 'SELECT count(DISTINCT post_seq) AS n FROM post_files WHERE hash = ?').get(sha256.toLowerCase())!.n;
}
