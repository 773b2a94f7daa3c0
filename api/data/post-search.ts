/**
 * Post search: free text (`q`) and tags, over the whole archive or one creator, through the text index
 * (search-index.ts) and post_tags. Global results are newest archived first (seq DESC, the index rowid
 * is posts.seq); a creator's results follow its listing order.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Store } from './store.ts';
import { likeContains } from './util.ts';
import { shortWordTerm } from './search-words.ts';
import { SUMMARY_COLUMNS, type SummaryRow, summariesOf, countOf, searchPageAfter } from './post-rows.ts';
import { countCreatorPosts, countPosts, listCreatorPosts, listRecentPosts } from './posts.ts';
import { searchPostsPostgres } from './post-search-postgres.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import type { PostSummary } from '@shared/shapes/posts.ts';
import type { ArchiveCursor, CreatorCursor } from '@shared/cursor.ts';

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
  /** A creator search's cursor: the posts after this one in the creator's order (offset ignored). */
  creatorAfter?: CreatorCursor;
  /** A global search's cursor: the posts after this one (offset ignored; searches order by seq alone). */
  archiveAfter?: ArchiveCursor;
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
 * The words of a query as both engines search them: `long` (3+ characters, substrings anywhere),
 * `short` (1-2 characters with a short-word term, shortWordTerm) and `ignored` (lone letters outside CJK).
 */
export function searchQueryWords(q: string): { long: string[]; short: string[]; ignored: string[] } {
  const words = q.trim().split(/\s+/).filter(Boolean).slice(0, MAX_SEARCH_WORDS);
  const long = words.filter((w) => Array.from(w).length >= 3);
  const short: string[] = [];
  const ignored: string[] = [];
  for (const word of words.filter((w) => Array.from(w).length < 3)) {
    if (shortWordTerm(word)) short.push(word);
    else ignored.push(word);
  }
  return { long, short, ignored };
}

/** The tags a search asks for (a post must carry all of them): empty ones dropped, at most MAX_SEARCH_TAGS. */
export function searchTags(tag: SearchOptions['tag']): string[] {
  return (Array.isArray(tag) ? tag : tag ? [tag] : []).filter((t) => t !== '').slice(0, MAX_SEARCH_TAGS);
}

/**
 * Splits a query into trigram words (3+ characters, substrings anywhere: `ftsQuery`), short words
 * (posts_words terms: `wordsQuery`), and lone letters outside CJK that match too much to search on
 * (`ignored`).
 */
export function splitSearchQuery(q: string): { ftsQuery: string | null; wordsQuery: string | null; ignored: string[] } {
  const { long, short, ignored } = searchQueryWords(q);
  const terms = short.map((word) => shortWordTerm(word)!);
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
 *
 * PostgreSQL has no FTS5: there searchPostsPostgres (post-search-postgres.ts) answers the same over post_search.
 */
export async function searchPosts(db: Store, options: SearchOptions): Promise<SearchResult> {
  if (db.engine === 'postgres') return await searchPostsPostgres(db, options);
  const cursor = options.service && options.user ? options.creatorAfter : options.archiveAfter;
  const offset = cursor ? 0 : (options.offset ?? 0);
  const limit = options.limit ?? PAGE_SIZE;
  const tags = searchTags(options.tag);
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
      const count = await countCreatorPosts(db, creator.service, creator.user);
      const posts = await listCreatorPosts(db, creator.service, creator.user, offset, limit, options.creatorAfter);
      return { posts, count, true_count: count, capped: false };
    }
    const count = await countPosts(db);
    return { posts: await listRecentPosts(db, offset, limit, options.archiveAfter), count, true_count: count, capped: false };
  }

  // Fast path: global text search only, newest first straight from the indexes'
  // rowids (= posts.seq), LIMIT inside, then the join.
  if (!creator && tags.length === 0 && loneLetters.length === 0) {
    const [table, match, also] = ftsQuery ? [sql.raw('posts_fts'), ftsQuery, wordsQuery] : [sql.raw('posts_words'), wordsQuery!, null];
    const filter = also ? sql` AND rowid IN (SELECT rowid FROM posts_words WHERE posts_words MATCH ${also})` : sql``;
    const below = options.archiveAfter ? sql` AND rowid < ${options.archiveAfter.seq}` : sql``;
    const posts = await summariesOf(
      db,
      sql<SummaryRow>`SELECT ${COLUMNS}
         FROM (SELECT rowid AS seq FROM ${table} WHERE ${table} MATCH ${match}${filter}${below} ORDER BY rowid DESC LIMIT ${limit} OFFSET ${offset}) f
         JOIN posts p ON p.seq = f.seq
        ORDER BY p.seq DESC`,
    );
    const count = await countOf(
      db,
      sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH ${match}${filter} LIMIT ${countLimit})`,
    );
    return result(posts, count);
  }

  // Every branch below sets at least one condition, so the WHERE is never empty.
  const where: Fragment[] = [];
  let from: Fragment;
  let order: Fragment;
  let restTags = tags;
  if (creator && tags.length > 0) {
    from = sql`post_tags t JOIN posts p ON p.service = t.service AND p."user" = t."user" AND p.id = t.post_id`;
    where.push(sql`t.service = ${creator.service}`, sql`t."user" = ${creator.user}`, sql`t.tag = ${tags[0]}`);
    order = sql`t.published DESC, t.post_id DESC`;
    restTags = tags.slice(1);
  } else if (creator) {
    from = sql`posts p`;
    where.push(sql`p.service = ${creator.service}`, sql`p."user" = ${creator.user}`);
    order = sql`p.published DESC, p.id DESC`;
  } else if (tags.length > 0) {
    from = sql`post_tags t JOIN posts p ON p.seq = t.post_seq`;
    where.push(sql`t.tag = ${tags[0]}`);
    order = sql`t.post_seq DESC`;
    restTags = tags.slice(1);
  } else {
    from = sql`posts p`;
    where.push(sql`p.seq > (SELECT coalesce(max(seq), 0) FROM posts) - ${sql.raw(String(LONE_LETTER_SCAN_POSTS))}`);
    order = sql`p.seq DESC`;
  }
  if (ftsQuery) where.push(sql`p.seq IN (SELECT rowid FROM posts_fts WHERE posts_fts MATCH ${ftsQuery})`);
  if (wordsQuery) where.push(sql`p.seq IN (SELECT rowid FROM posts_words WHERE posts_words MATCH ${wordsQuery})`);
  for (const tag of restTags) {
    where.push(
      sql`EXISTS (SELECT 1 FROM post_tags t2 WHERE t2.service = p.service AND t2."user" = p."user" AND t2.post_id = p.id AND t2.tag = ${tag})`,
    );
  }
  for (const letter of loneLetters) {
    const pattern = likeContains(letter);
    where.push(sql`(p.title LIKE ${pattern} ESCAPE '\\' OR p.content LIKE ${pattern} ESCAPE '\\')`);
  }
  const page = searchPageAfter(tags.length > 0 ? 't' : 'p', creator ? options.creatorAfter : options.archiveAfter);
  const pageWhere = page ? [...where, page] : where;
  const posts = await summariesOf(
    db,
    sql<SummaryRow>`SELECT ${COLUMNS} FROM ${from} WHERE ${and(pageWhere)} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
  );
  const count = await countOf(
    db,
    sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM ${from} WHERE ${and(where)} LIMIT ${countLimit})`,
  );
  return result(posts, count);
}

type Fragment = RawBuilder<unknown>;

const COLUMNS = sql.raw(SUMMARY_COLUMNS);

function and(conditions: Fragment[]): Fragment {
  return sql.join(conditions, sql` AND `);
}
