/**
 * 004 on PostgreSQL (../004_short_words.ts). The FTS5 table posts_words is not translated: its short words
 * become `post_search.words`, a tsvector beside the trigram text of 001, with a GIN index.
 *
 * What posts_words answers: words of one or two characters, as whole unicode61 tokens (letters and
 * digits, case folded, diacritics removed) with 2- and 3-character prefix indexes, over shortWordText
 * (api/data/search-words.ts: CJK runs spelled out as single characters and neighbouring pairs). The
 * column is meant to hold those same tokens, computed by the writer in JavaScript and stored with
 * `array_to_tsvector(tokens)`: no parser in between, so PostgreSQL's own tokenizer (which keeps URLs,
 * hosts and hyphenated words whole and leaves diacritics) cannot make the two engines disagree. Queries
 * give the terms the same way, as tsquery text cast without parsing: `words @@ $1::tsquery` with
 * `'ca':*` for a prefix (the GIN index answers prefix terms from its ordered keys, as FTS5's prefix
 * indexes do) and `'森の'` for an exact CJK gram. The 'simple' configuration (to_tsquery('simple', ...),
 * which only lowercases) reads the same tokens for a query that wants parsing.
 *
 * The fill: SQLite's migration indexes the posts already stored with htmlToText and shortWordText, which
 * SQL cannot reproduce exactly. No PostgreSQL archive holds posts before this schema is complete (the
 * engine is not wired in yet), so nothing is filled here; a data copy from SQLite must write every
 * post_search row (search_text and words) with the writer's own functions, not copy FTS5 tables.
 */
import type { PostgresMigration } from './index.ts';

const migration: PostgresMigration = {
  version: 4,
  name: 'short_words',
  sql: `ALTER TABLE post_search ADD COLUMN words tsvector NOT NULL DEFAULT ''::tsvector;
  CREATE INDEX post_search_words ON post_search USING gin (words);`,
};

export default migration;
