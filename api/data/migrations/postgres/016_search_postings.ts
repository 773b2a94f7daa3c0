/**
 * 016 on PostgreSQL (a no-op on SQLite, ../016_search_postings.ts): the postings that let a search of
 * words of letters and digits find its newest matches without reading post_search's rows
 * (docs/decisions.md, "Search postings on PostgreSQL"; the queries are in post-search-postings.ts).
 *
 * - A post's terms are the runs of term characters (ASCII digits and letters, Latin, Greek and Cyrillic
 *   letters; TERM_CHARACTERS in post-search-postings.ts must be the same set) in its search_lower, the
 *   text PostgreSQL itself lower-cased. A query word made only of term characters occurs in the text
 *   exactly when it occurs inside one of the post's terms: an occurrence cannot cross a character that
 *   ends a run. Runs longer than 64 characters are kept as 64-character pieces starting every 32
 *   characters (and one ending the run), so every stretch of up to 33 characters lies inside a piece and
 *   no key outgrows a btree entry; longer query words keep the trigram path.
 * - The short words' keys, from post_search.words (the short-word tokens): `=token` for a token of up to
 *   two characters that may be a CJK gram (looked up exactly), and `^` and the first two characters of a
 *   token of two or more that may be a prefix of a word of other scripts (short query words are at most
 *   two characters). Only CJK words are looked up exactly and only other words as prefixes, so a token
 *   all of whose characters come before U+1100 (where the CJK scripts start) needs no `=` key, and a token
 *   opening with two characters of the main Han, kana and Hangul blocks needs no `^` key: about half the
 *   short keys. They cannot be mistaken for terms, which never start with `=` or `^`.
 * - search_postings (term, seq), its primary key in that order: a term's or key's posts newest first from
 *   the index alone. search_terms, the vocabulary, with a trigram index: the terms that contain a query word.
 *   Terms are added when first seen and never removed (a term whose posts are gone finds nothing). The
 *   vocabulary has no unique key on purpose: two imports adding the same new term at once would otherwise
 *   wait on each other until one commits, and could deadlock; a term listed twice is read once.
 * - Statement triggers on post_search keep both, so every writer (the post writers, db:copy) is unchanged.
 * - The key is added after the existing posts are filled in: one sort instead of an insert into the
 *   btree per row (at a million posts, 17.5 million postings, about two minutes here).
 */
import type { PostgresMigration } from './index.ts';

const migration: PostgresMigration = {
  version: 16,
  name: 'search_postings',
  sql: `CREATE FUNCTION search_terms_of(body text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT DISTINCT substr(r.run, s.start, 64)
      FROM (SELECT m[1] AS run FROM regexp_matches(body, '([0-9a-z\\u00c0-\\u024f\\u0370-\\u03ff\\u0400-\\u052f\\u1e00-\\u1eff]+)', 'g') m) r
     CROSS JOIN LATERAL (SELECT generate_series(1, greatest(length(r.run) - 63, 1), 32) AS start
                         UNION SELECT greatest(length(r.run) - 63, 1)) s
  $$;
  CREATE FUNCTION search_short_keys_of(words tsvector) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT '=' || token FROM unnest(tsvector_to_array(words)) AS token
     WHERE length(token) <= 2 AND token ~ '[^\u0001-\u10ff]'
    UNION
    SELECT '^' || left(token, 2) FROM unnest(tsvector_to_array(words)) AS token
     WHERE length(token) >= 2
       AND left(token, 2) !~ '^[\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u4e00-\u9fff\uac00-\ud7a3]{2}$'
  $$;
  CREATE FUNCTION search_keys_of(body text, words tsvector) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT search_terms_of(body) UNION ALL SELECT search_short_keys_of(words)
  $$;
  CREATE TABLE search_postings (term text COLLATE "C" NOT NULL, seq bigint NOT NULL);
  CREATE TABLE search_terms (term text COLLATE "C" NOT NULL);
  INSERT INTO search_postings (term, seq) SELECT t.term, s.seq FROM post_search s, search_keys_of(s.search_lower, s.words) AS t(term);
  ALTER TABLE search_postings ADD PRIMARY KEY (term, seq);
  INSERT INTO search_terms (term) SELECT DISTINCT term FROM search_postings WHERE left(term, 1) NOT IN ('=', '^');
  CREATE INDEX search_terms_term ON search_terms (term);
  CREATE INDEX search_terms_trigrams ON search_terms USING gin (term gin_trgm_ops);
  CREATE FUNCTION search_postings_moved() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
      DELETE FROM search_postings p USING old_rows o, search_keys_of(o.search_lower, o.words) AS t(term)
       WHERE p.term = t.term AND p.seq = o.seq;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      WITH found AS MATERIALIZED (SELECT n.seq, t.term FROM new_rows n, search_keys_of(n.search_lower, n.words) AS t(term)),
           posted AS (INSERT INTO search_postings (term, seq) SELECT term, seq FROM found)
      INSERT INTO search_terms (term)
      SELECT DISTINCT f.term FROM found f
       WHERE left(f.term, 1) NOT IN ('=', '^') AND NOT EXISTS (SELECT 1 FROM search_terms v WHERE v.term = f.term);
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER search_postings_insert AFTER INSERT ON post_search REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_postings_moved();
  CREATE TRIGGER search_postings_update AFTER UPDATE ON post_search REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_postings_moved();
  CREATE TRIGGER search_postings_delete AFTER DELETE ON post_search REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION search_postings_moved();`,
};

export default migration;
