/**
 * 002 on PostgreSQL (../002_listing_speed.ts): per-tag counts kept by triggers. The rebuild of
 * posts_creator_published is SQLite's own repair of an early 001 index and is left out: the twin of 001
 * creates that index ascending already.
 *
 * The three triggers keep SQLite's names and effect; their bodies are one PL/pgSQL function. Concurrent
 * first uses of a tag meet in ON CONFLICT, so two writers adding the same new tag both count.
 */
import type { PostgresMigration } from './index.ts';

const migration: PostgresMigration = {
  version: 2,
  name: 'listing_speed',
  sql: `
CREATE TABLE tag_counts (
  tag text COLLATE "C" PRIMARY KEY,
  post_count integer NOT NULL
);
CREATE INDEX tag_counts_by_count ON tag_counts (post_count DESC, tag);
INSERT INTO tag_counts (tag, post_count) SELECT tag, count(*) FROM post_tags GROUP BY tag;

CREATE FUNCTION post_tags_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE tag_counts SET post_count = post_count - 1 WHERE tag = OLD.tag;
    DELETE FROM tag_counts WHERE tag = OLD.tag AND post_count <= 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO tag_counts (tag, post_count) VALUES (NEW.tag, 1)
      ON CONFLICT (tag) DO UPDATE SET post_count = tag_counts.post_count + 1;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER post_tags_count_insert AFTER INSERT ON post_tags FOR EACH ROW EXECUTE FUNCTION post_tags_count();
CREATE TRIGGER post_tags_count_delete AFTER DELETE ON post_tags FOR EACH ROW EXECUTE FUNCTION post_tags_count();
CREATE TRIGGER post_tags_count_update AFTER UPDATE OF tag ON post_tags FOR EACH ROW EXECUTE FUNCTION post_tags_count();
`,
};

export default migration;
