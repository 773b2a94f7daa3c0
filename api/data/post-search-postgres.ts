/**
 * Post search on PostgreSQL: searchPosts' contract and answers (post-search.ts) over post_search, the
 * table PostgreSQL has instead of SQLite's two FTS5 indexes (docs/decisions.md, "Search on PostgreSQL").
 *
 * - A word of three or more characters: `search_lower LIKE lower('%word%')` (wildcards escaped), one
 *   condition per word, all must hold (FTS5's implicit AND); the pg_trgm GIN index finds the candidates.
 *   That is `search_text ILIKE '%word%'` with the text lower-cased once when written (migration 014):
 *   ILIKE lower-cases every row it checks, which cost most of a search over a million posts.
 * - Words of one or two characters: one tsquery of their terms ANDed (`'ca':* & '夜'`), folded as the
 *   short-word tokens were (shortWordTsqueryTerm), over `words` and its GIN index.
 * - Lone letters alone: ILIKE on the newest posts' title and content, which are COLLATE "C", so the case
 *   of ASCII letters only is ignored, as SQLite's LIKE does; written as LIKE (likeAsciiCase), which does
 *   not lower-case every row it reads.
 * - A global search of words made of letters and digits only (Latin, Greek, Cyrillic): the postings of
 *   migration 016 first (post-search-postings.ts), which find the newest matches without reading rows.
 * - Orders are SQLite's: NULL sorts lowest there, so `published DESC` is `published DESC NULLS LAST` here.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Store } from './store.ts';
import { likeContains } from './util.ts';
import { countPosts, creatorPostsByOffset } from './posts.ts';
import { shortWordTsqueryTerm } from './search-words.ts';
import { newestByPostings } from './post-search-postings.ts';
import { SUMMARY_COLUMNS, type SummaryRow, summariesOf, countOf, searchPageAfter, toSummary } from './post-rows.ts';
import {
  LONE_LETTER_SCAN_POSTS,
  SEARCH_COUNT_LIMIT,
  searchQueryWords,
  searchTags,
  type SearchOptions,
  type SearchResult,
} from './post-search.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import type { ArchiveCursor, CreatorCursor } from '@shared/cursor.ts';
import type { PostSummary } from '@shared/shapes/posts.ts';

type Fragment = RawBuilder<unknown>;

const COLUMNS = sql.raw(SUMMARY_COLUMNS);

function and(conditions: Fragment[]): Fragment {
  return sql.join(conditions, sql` AND `);
}

/**
 * `column ILIKE pattern` for a COLLATE "C" column, whose ILIKE folds ASCII letters only, without ILIKE's
 * lower-casing of every row it reads: a pattern without ASCII letters is the same test as LIKE, and one
 * with a single ASCII letter (a lone-letter word holds at most one letter or digit) matches when LIKE
 * matches with that letter in either case.
 */
function likeAsciiCase(column: Fragment, pattern: string): Fragment {
  const letters = pattern.match(/[A-Za-z]/g) ?? [];
  if (letters.length > 1) return sql`${column} ILIKE ${pattern}`;
  if (letters.length === 0) return sql`${column} LIKE ${pattern}`;
  const lower = pattern.replace(/[A-Za-z]/, (letter) => letter.toLowerCase());
  const upper = pattern.replace(/[A-Za-z]/, (letter) => letter.toUpperCase());
  return sql`(${column} LIKE ${lower} OR ${column} LIKE ${upper})`;
}

/**
 * Post search on PostgreSQL (store.engine 'postgres'): the same posts in the same order, the same
 * count and capped flag as searchPosts gives on SQLite for the same archive and options.
 */
export async function searchPostsPostgres(store: Store, options: SearchOptions): Promise<SearchResult> {
  if (store.engine !== 'postgres') throw new Error(`searchPostsPostgres needs a PostgreSQL store, not ${store.engine}`);
  const creator = options.service && options.user ? { service: options.service, user: options.user } : null;
  const cursor = creator ? options.creatorAfter : options.archiveAfter;
  const offset = cursor ? 0 : (options.offset ?? 0);
  const limit = options.limit ?? PAGE_SIZE;
  const tags = searchTags(options.tag);
  const words = options.q ? searchQueryWords(options.q) : { long: [], short: [], ignored: [] };
  const countLimit = options.countLimit ?? SEARCH_COUNT_LIMIT;
  const text: Fragment[] = words.long.map((word) => sql`s.search_lower LIKE lower(${likeContains(word)})`);
  if (words.short.length > 0) {
    const tsquery = words.short.map((word) => shortWordTsqueryTerm(word)!).join(' & ');
    text.push(sql`s.words @@ ${tsquery}::tsquery`);
  }
  // Only lone letters were typed: nothing an index can answer, so look for them in the newest posts.
  const loneLetters = text.length === 0 ? words.ignored : [];
  const result = (posts: PostSummary[], count: number): SearchResult => ({
    posts,
    count,
    true_count: count,
    capped: count >= countLimit,
  });

  if (text.length === 0 && loneLetters.length === 0 && tags.length === 0) {
    return creator
      ? listCreator(store, creator, offset, limit, options.creatorAfter)
      : listRecent(store, offset, limit, options.archiveAfter);
  }

  // Fast path: global text search only, newest first from post_search's seq, then the join.
  if (!creator && tags.length === 0 && loneLetters.length === 0) {
    const page = { offset, limit, after: options.archiveAfter, countLimit };
    const found = (await newestByPostings(store, words, page)) ?? (await newestMatches(store, and(text), page));
    return result(found.posts, found.count);
  }

  const where: Fragment[] = [];
  let from: Fragment;
  let order: Fragment;
  let restTags = tags;
  if (creator && tags.length > 0) {
    from = sql`post_tags t JOIN posts p ON p.service = t.service AND p."user" = t."user" AND p.id = t.post_id`;
    where.push(sql`t.service = ${creator.service}`, sql`t."user" = ${creator.user}`, sql`t.tag = ${tags[0]}`);
    order = sql`t.published DESC NULLS LAST, t.post_id DESC`;
    restTags = tags.slice(1);
  } else if (creator) {
    from = sql`posts p`;
    where.push(sql`p.service = ${creator.service}`, sql`p."user" = ${creator.user}`);
    order = sql`p.published DESC NULLS LAST, p.id DESC`;
  } else if (tags.length > 0) {
    from = sql`post_tags t JOIN posts p ON p.seq = t.post_seq`;
    where.push(sql`t.tag = ${tags[0]}`);
    order = sql`t.post_seq DESC`;
    restTags = tags.slice(1);
  } else {
    from = sql`posts p`;
    where.push(sql`p.seq > (SELECT coalesce(max(seq), 0) FROM posts) - ${LONE_LETTER_SCAN_POSTS}`);
    order = sql`p.seq DESC`;
  }
  // When a tag leads, the conditions name post_tags' copy of the post's key, so the count reads post_tags
  // alone (its foreign key guarantees the post): joined, PostgreSQL hashes the whole posts table.
  const tagLed = tags.length > 0;
  const [seq, service, user, id] = tagLed
    ? [sql`t.post_seq`, sql`t.service`, sql`t."user"`, sql`t.post_id`]
    : [sql`p.seq`, sql`p.service`, sql`p."user"`, sql`p.id`];
  if (text.length > 0) where.push(sql`${seq} IN (SELECT s.seq FROM post_search s WHERE ${and(text)})`);
  for (const tag of restTags) {
    where.push(
      sql`EXISTS (SELECT 1 FROM post_tags t2 WHERE t2.service = ${service} AND t2."user" = ${user} AND t2.post_id = ${id} AND t2.tag = ${tag})`,
    );
  }
  for (const letter of loneLetters) {
    const pattern = likeContains(letter);
    where.push(sql`(${likeAsciiCase(sql`p.title`, pattern)} OR ${likeAsciiCase(sql`p.content`, pattern)})`);
  }
  const page = searchPageAfter(tagLed ? 't' : 'p', cursor);
  const pageWhere = page ? [...where, page] : where;
  const posts = await summariesOf(
    store,
    sql`SELECT ${COLUMNS} FROM ${from} WHERE ${and(pageWhere)} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
  );
  const countFrom = tagLed && loneLetters.length === 0 ? sql`post_tags t` : from;
  const count = await countOf(store, sql`SELECT count(*) AS n FROM (SELECT 1 FROM ${countFrom} WHERE ${and(where)} LIMIT ${countLimit}) c`);
  return result(posts, count);
}

/**
 * A global text search's page and count in one statement: `m`, the seqs of the newest `countLimit`
 * matches (their number is the count, capped as SQLite counts), the page cut from them and joined to
 * posts, each row carrying the count. PostgreSQL reads `m` walking post_search's key backwards when
 * matches are common and from the GIN indexes, sorted, when they are rare: one pass and one round trip
 * instead of a page query and a count query that each paid for it. A page beyond those matches (or an
 * empty page, whose count no row carries) takes a query of its own.
 */
async function newestMatches(
  store: Store,
  where: Fragment,
  page: { offset: number; limit: number; after: ArchiveCursor | undefined; countLimit: number },
): Promise<{ posts: PostSummary[]; count: number }> {
  const { limit, after, countLimit } = page;
  const offset = after ? 0 : page.offset;
  const below = after ? sql`WHERE m.seq < ${after.seq}` : sql``;
  const { rows } = await sql<SummaryRow & { match_count: number }>`WITH m AS MATERIALIZED (
      SELECT s.seq FROM post_search s WHERE ${where} ORDER BY s.seq DESC LIMIT ${countLimit}
    )
    SELECT ${COLUMNS}, c.n AS match_count
      FROM (SELECT m.seq FROM m ${below} ORDER BY m.seq DESC LIMIT ${limit} OFFSET ${offset}) f
      JOIN posts p ON p.seq = f.seq
     CROSS JOIN (SELECT count(*) AS n FROM m) c
     ORDER BY p.seq DESC`.execute(store.k);
  const count =
    rows.length > 0
      ? Number(rows[0].match_count)
      : await countOf(store, sql`SELECT count(*) AS n FROM (SELECT 1 FROM post_search s WHERE ${where} LIMIT ${countLimit}) c`);
  if (rows.length === limit || count < countLimit) return { posts: rows.map(toSummary), count };
  // The page reaches past the newest countLimit matches.
  const filter = after ? sql` AND s.seq < ${after.seq}` : sql``;
  const posts = await summariesOf(
    store,
    sql`SELECT ${COLUMNS}
          FROM (SELECT s.seq FROM post_search s WHERE ${where}${filter} ORDER BY s.seq DESC LIMIT ${limit} OFFSET ${offset}) f
          JOIN posts p ON p.seq = f.seq
         ORDER BY p.seq DESC`,
  );
  return { posts, count };
}

/** No words and no tags, one creator: listCreatorPosts and countCreatorPosts (posts.ts) on PostgreSQL. */
async function listCreator(
  store: Store,
  creator: { service: string; user: string },
  offset: number,
  limit: number,
  after: CreatorCursor | undefined,
): Promise<SearchResult> {
  const page = searchPageAfter('p', after);
  const posts = page
    ? await summariesOf(
        store,
        sql`SELECT ${COLUMNS} FROM posts p WHERE p.service = ${creator.service} AND p."user" = ${creator.user} AND ${page}
             ORDER BY p.published DESC NULLS LAST, p.id DESC LIMIT ${limit} OFFSET ${offset}`,
      )
    : await creatorPostsByOffset(store, creator.service, creator.user, offset, limit);
  const count = await countOf(store, sql`SELECT count(*) AS n FROM posts WHERE service = ${creator.service} AND "user" = ${creator.user}`);
  return { posts, count, true_count: count, capped: false };
}

/** No words, no tags, no creator: listRecentPosts and countPosts (posts.ts) on PostgreSQL. */
async function listRecent(store: Store, offset: number, limit: number, after: ArchiveCursor | undefined): Promise<SearchResult> {
  const below = after ? sql`WHERE (p.added, p.seq) < (${after.added}, ${after.seq})` : sql``;
  const posts = await summariesOf(
    store,
    sql`SELECT ${COLUMNS} FROM posts p ${below} ORDER BY p.added DESC, p.seq DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  const count = await countPosts(store);
  return { posts, count, true_count: count, capped: false };
}
