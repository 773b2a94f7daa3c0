/**
 * Global post search on PostgreSQL through the postings of migration 016: the newest matches of long
 * words made only of term characters and of short words, read from search_postings' key without reading
 * post_search's rows. The same posts and count as the trigram and tsquery paths
 * (post-search-postgres.ts), by construction: a word made of term characters occurs in a post's
 * search_lower exactly when it occurs inside one of the post's terms, and a short word's key stands for
 * exactly the tokens its tsquery term matches (docs/decisions.md, "Search postings on PostgreSQL").
 * A short word is a word with one term, its key. A CJK word of three or more characters stands as the keys
 * of its neighbouring pairs, each a word of its own, and the posts they find are checked against the text
 * (search_lower LIKE, as the trigram path asks): a row read per candidate, not per post walked.
 *
 * One word: each of its terms' newest `depth` postings (depth at least the count limit). Above the cut,
 * the highest of the depth-th newest postings of the terms that have that many, every match of the word
 * is among them; and one term alone has `depth` posts there, so the newest `depth` matches are exact.
 *
 * Several words: the same lists for each word; the word whose list reaches furthest back (no cut at all
 * when every term had fewer than `depth` posts) is walked newest first, and each of its posts is checked
 * against each other word: in that word's list above its cut, in search_postings' key below it. Its
 * matches above its cut are exact; when they are fewer than wanted (the count limit, or the page's end)
 * and a cut remains, a deeper round is tried, then the trigram path.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Store } from './store.ts';
import { SUMMARY_COLUMNS, type SummaryRow, toSummary } from './post-rows.ts';
import { cjkPairKeys, shortWordPostingsKey } from './search-words.ts';
import { likeContains } from './util.ts';
import type { ArchiveCursor } from '@shared/cursor.ts';
import type { PostSummary } from '@shared/shapes/posts.ts';

type Fragment = RawBuilder<unknown>;
/** A query word as the postings find it: the terms containing a long word, or a short word's one key. */
type PostingsWord = { contains: string } | { key: string };

/** A term's letters beyond ASCII: Latin, Greek, Cyrillic (migration 016's regular expression: the same set). */
const TERM_LETTERS = '\\u00c0-\\u024f\\u0370-\\u03ff\\u0400-\\u052f\\u1e00-\\u1eff';
/** A term's characters, lower case. */
const TERM_CHARACTERS = new RegExp(`^[0-9a-z${TERM_LETTERS}]+$`, 'u');
/** The same characters, and the ASCII capitals that lower-case into them. */
const TERM_CHARACTERS_ANY_CASE = new RegExp(`^[0-9A-Za-z${TERM_LETTERS}]+$`, 'u');
/** Long runs are stored as 64-character pieces every 32 characters: a longer word may span two. */
const LONGEST_WORD = 33;
/** How deep each round reads a term's postings, in multiples of the matches wanted. */
const ROUND_DEPTHS = [1, 8];
/** Pages by offset reaching further than this many matches are left to the trigram path. */
const DEEPEST_PAGE = 10_000;

/**
 * Whether a query word can be answered from the postings: term characters only, before and after lower
 * casing, with no character that lower-cases into several (JavaScript's lower casing stands in for
 * PostgreSQL's here; for these scripts they agree).
 */
function isPostingsWord(word: string): boolean {
  const lower = word.toLowerCase();
  const length = Array.from(word).length;
  return (
    length <= LONGEST_WORD && Array.from(lower).length === length && TERM_CHARACTERS_ANY_CASE.test(word) && TERM_CHARACTERS.test(lower)
  );
}

interface PageOfMatches {
  /** How deep the walked word's list reached: 0 when it holds all of that word's posts. */
  cut: number;
  /** How many of the newest `wanted` matches were found above the cut. */
  found: number;
  /** The page cut from those matches (by offset, or below the cursor). */
  posts: PostSummary[];
}

/**
 * The page and the number of the newest `wanted` posts holding every word, or null when the rounds could
 * not establish them (two common words that seldom meet): the caller then takes the trigram path.
 */
async function newestPostingsPage(store: Store, words: PostingsWord[], page: PageWanted): Promise<PageOfMatches | null> {
  for (const round of ROUND_DEPTHS) {
    const answer = await pageAtDepth(store, words, round * page.wanted, page);
    if (answer.cut === 0 || answer.found >= page.wanted) return answer;
  }
  return null;
}

interface PageWanted {
  /** CJK words found through their pairs' keys: the text itself must hold them. */
  rechecked: string[];
  wanted: number;
  offset: number;
  limit: number;
  after: ArchiveCursor | undefined;
}

/** One round: the matches at this depth, their number, the cut, and the page from them, in one statement. */
async function pageAtDepth(store: Store, words: PostingsWord[], depth: number, page: PageWanted): Promise<PageOfMatches> {
  const name = (prefix: string, i: number) => sql.raw(`${prefix}${i}`);
  const lists: Fragment[] = words.flatMap((word, i) => [
    'key' in word
      ? sql`${name('t', i)} AS MATERIALIZED (SELECT ${word.key}::text AS term)`
      : sql`${name('t', i)} AS MATERIALIZED (SELECT DISTINCT term FROM search_terms WHERE term LIKE '%' || lower(${word.contains}) || '%')`,
    sql`${name('l', i)} AS MATERIALIZED (
      SELECT x.seq, x.place FROM ${name('t', i)} t CROSS JOIN LATERAL (
        SELECT p.seq, row_number() OVER (ORDER BY p.seq DESC) AS place FROM search_postings p
         WHERE p.term = t.term ORDER BY p.seq DESC LIMIT ${depth}) x)`,
  ]);
  const cuts = sql.join(
    words.map((_, i) => sql`SELECT ${i}::int AS i, coalesce((SELECT max(seq) FROM ${name('l', i)} WHERE place = ${depth}), 0) AS cut`),
    sql` UNION ALL `,
  );
  // One branch per word, only the picked one runs. OFFSET 0 keeps the checks above the sort, so the walk
  // stops at the LIMIT instead of checking every post of the list. Another word's own list holds all of
  // its posts down to its cut: above it a hash lookup answers, below it a probe of search_postings' key.
  const branches = words.map((_, i) => {
    const others = words.flatMap((__, j) => {
      if (j === i) return [];
      const cut = sql`(SELECT cut FROM w WHERE i = ${j})`;
      return [
        sql`((c.seq >= ${cut} AND c.seq IN (SELECT seq FROM ${name('l', j)}))
          OR (c.seq < ${cut} AND EXISTS (SELECT 1 FROM ${name('t', j)} o JOIN search_postings q ON q.term = o.term AND q.seq = c.seq)))`,
      ];
    });
    const checks = [
      ...others,
      ...page.rechecked.map(
        (word) => sql`EXISTS (SELECT 1 FROM post_search s WHERE s.seq = c.seq AND s.search_lower LIKE lower(${likeContains(word)}))`,
      ),
    ];
    return sql`(SELECT c.seq FROM (
        SELECT DISTINCT seq FROM ${name('l', i)} WHERE (SELECT i FROM pick) = ${i} AND seq >= (SELECT cut FROM pick)
         ORDER BY seq DESC OFFSET 0) c
      WHERE ${checks.length > 0 ? sql.join(checks, sql` AND `) : sql`TRUE`} LIMIT ${page.wanted})`;
  });
  const below = page.after ? sql`WHERE m.seq < ${page.after.seq}` : sql``;
  // The cut and the number found ride on every row of the page, and on one row of NULLs for an empty page.
  const { rows } = await sql<
    Partial<SummaryRow> & { cut: string | number; found: string | number; page_seq: string | null }
  >`WITH ${sql.join(lists)},
      w AS MATERIALIZED (${cuts}),
      pick AS MATERIALIZED (SELECT i, cut FROM w ORDER BY cut, i LIMIT 1),
      m AS MATERIALIZED (${sql.join(branches, sql` UNION ALL `)}),
      chosen AS (SELECT m.seq FROM m ${below} ORDER BY m.seq DESC LIMIT ${page.limit} OFFSET ${page.offset})
    SELECT h.cut, h.found, x.* FROM (SELECT (SELECT cut FROM pick) AS cut, (SELECT count(*) FROM m) AS found) h
      LEFT JOIN LATERAL (SELECT p.seq AS page_seq, ${sql.raw(SUMMARY_COLUMNS)} FROM chosen JOIN posts p ON p.seq = chosen.seq) x ON TRUE
     ORDER BY x.page_seq DESC`.execute(store.k);
  const posts = rows.filter((row) => row.page_seq !== null).map((row) => toSummary(row as SummaryRow));
  return { cut: Number(rows[0].cut), found: Number(rows[0].found), posts };
}

/**
 * A global search's page and count from the postings, or null when they cannot answer it: a long word
 * they do not cover (other characters than term characters, too long), matches the rounds could not
 * establish, or a cursor's page beyond the matches counted. Short words are looked up by their key.
 */
export async function newestByPostings(
  store: Store,
  words: { long: string[]; short: string[] },
  page: { offset: number; limit: number; after: ArchiveCursor | undefined; countLimit: number },
): Promise<{ posts: PostSummary[]; count: number } | null> {
  const lookups: PostingsWord[] = [];
  const rechecked: string[] = [];
  for (const word of words.long) {
    if (isPostingsWord(word)) {
      lookups.push({ contains: word });
      continue;
    }
    const pairs = cjkPairKeys(word);
    if (!pairs) return null;
    lookups.push(...pairs.map((key) => ({ key })));
    rechecked.push(word);
  }
  for (const word of words.short) {
    const key = shortWordPostingsKey(word);
    if (key === null) return null;
    lookups.push({ key });
  }
  if (lookups.length === 0) return null;
  const { after, limit } = page;
  const offset = after ? 0 : page.offset;
  // Enough matches for the count and for a page by offset (a cursor's page is cut from the same matches).
  const wanted = Math.max(page.countLimit, offset + limit);
  if (wanted > DEEPEST_PAGE) return null;
  const answer = await newestPostingsPage(store, lookups, { wanted, offset, limit, after, rechecked });
  if (!answer) return null;
  // A cursor's page that runs out where the matches found stop may go on past them.
  if (answer.posts.length < limit && answer.found >= wanted) return null;
  return { posts: answer.posts, count: Math.min(answer.found, page.countLimit) };
}
