/**
 * Post search: free text (`q`) and tags, over the whole archive or one creator, through the text index
 * (search-index.ts) and post_tags. Global results are newest archived first (seq DESC, the index rowid
 * is posts.seq); a creator's results follow its listing order.
 */
import { stmt, type Db } from './db.ts';
import { likeContains } from './util.ts';
import { shortWordTerm } from './search-words.ts';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './post-rows.ts';
import { countCreatorPosts, countPosts, listCreatorPosts, listRecentPosts } from './posts.ts';
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
 */
export async function searchPosts(db: Db, options: SearchOptions): Promise<SearchResult> {
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
    const [table, match, also] = ftsQuery ? ['posts_fts', ftsQuery, wordsQuery] : ['posts_words', wordsQuery!, null];
    const filter = also ? ' AND rowid IN (SELECT rowid FROM posts_words WHERE posts_words MATCH ?)' : '';
    const params = also ? [match, also] : [match];
    const below = options.archiveAfter ? ' AND rowid < ?' : '';
    const belowParams = options.archiveAfter ? [options.archiveAfter.seq] : [];
    const posts = stmt<SummaryRow>(
      db,
      `SELECT ${SUMMARY_COLUMNS}
         FROM (SELECT rowid AS seq FROM ${table} WHERE ${table} MATCH ?${filter}${below} ORDER BY rowid DESC LIMIT ? OFFSET ?) f
         JOIN posts p ON p.seq = f.seq
        ORDER BY p.seq DESC`,
    )
      .all(...params, ...belowParams, limit, offset)
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
  const page = pageAfter(tags.length > 0 ? 't' : 'p', creator ? options.creatorAfter : options.archiveAfter);
  const pageWhere = page.sql ? `${whereSql ? `${whereSql} AND` : 'WHERE'} ${page.sql}` : whereSql;
  const posts = stmt<SummaryRow>(db, `SELECT ${SUMMARY_COLUMNS} FROM ${from} ${pageWhere} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .all(...params, ...page.params, limit, offset)
    .map(toSummary);
  const count = stmt<{ n: number }>(db, `SELECT count(*) AS n FROM (SELECT 1 FROM ${from} ${whereSql} LIMIT ?)`).get(
    ...params,
    countLimit,
  )!.n;
  return result(posts, count);
}

/**
 * The where-clause of a search page after a cursor, in the search's order: a creator's order (published
 * DESC, id DESC, undated last; `t` is post_tags when a tag leads the search) or the archive's (seq DESC).
 */
function pageAfter(alias: 'p' | 't', cursor: CreatorCursor | ArchiveCursor | undefined): { sql: string; params: unknown[] } {
  if (!cursor) return { sql: '', params: [] };
  if ('seq' in cursor) return { sql: alias === 't' ? 't.post_seq < ?' : 'p.seq < ?', params: [cursor.seq] };
  const [published, id] = alias === 't' ? ['t.published', 't.post_id'] : ['p.published', 'p.id'];
  if (cursor.published === null) return { sql: `(${published} IS NULL AND ${id} < ?)`, params: [cursor.id] };
  return { sql: `((${published}, ${id}) < (?, ?) OR ${published} IS NULL)`, params: [cursor.published, cursor.id] };
}
