/**
 * 014 on PostgreSQL (a no-op on SQLite, ../014_search_speed.ts): `post_search.search_lower`, the trigram
 * text lower-cased by PostgreSQL itself, and the trigram index moved onto it.
 *
 * Why: `search_text ILIKE $1` lower-cases the whole text of every row it checks (that is how PostgreSQL
 * runs ILIKE in a UTF-8 database: lower(text) LIKE lower(pattern)), and that was most of a search over a
 * million posts: about 14 µs a row against under 1 µs for LIKE over the same text (docs/benchmarks.md,
 * "PostgreSQL beside SQLite"). `search_lower LIKE lower($1)` is the same test, the lower-casing done
 * once when the row is written: the same answers, by construction. A generated column, so the writers
 * (search-index.ts, the copy from SQLite) are unchanged. The index keeps its name.
 */
import type { PostgresMigration } from './index.ts';

const migration: PostgresMigration = {
  version: 14,
  name: 'search_speed',
  sql: `ALTER TABLE post_search ADD COLUMN search_lower text GENERATED ALWAYS AS (lower(search_text)) STORED;
  DROP INDEX post_search_trigrams;
  CREATE INDEX post_search_trigrams ON post_search USING gin (search_lower gin_trgm_ops);`,
};

export default migration;
