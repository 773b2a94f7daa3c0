/**
 * Listing speed at a million posts (see docs/benchmarks.md):
 * - a creator's newest-first listing orders by (published DESC, id DESC), which SQLite reads off an
 *   ascending (published, id) index backwards. Archives made by an early 001 had a (published DESC, id)
 *   index, which sorts ties in a temporary tree; it is rebuilt in the ascending form (a no-op rebuild
 *   on newer archives, where 001 already creates it so);
 * - the all-tags page reads per-tag counts kept by triggers instead of grouping every post's tags.
 */
import type { Migration } from './index.ts';

const migration: Migration = {
  version: 2,
  name: 'listing_speed',
  sql: `
DROP INDEX posts_creator_published;
CREATE INDEX posts_creator_published ON posts (service, "user", published, id);

CREATE TABLE tag_counts (
  tag TEXT PRIMARY KEY,
  post_count INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX tag_counts_by_count ON tag_counts (post_count DESC, tag);
INSERT INTO tag_counts (tag, post_count) SELECT tag, count(*) FROM post_tags GROUP BY tag;

CREATE TRIGGER post_tags_count_insert AFTER INSERT ON post_tags BEGIN
  INSERT INTO tag_counts (tag, post_count) VALUES (NEW.tag, 1)
    ON CONFLICT (tag) DO UPDATE SET post_count = post_count + 1;
END;
CREATE TRIGGER post_tags_count_delete AFTER DELETE ON post_tags BEGIN
  UPDATE tag_counts SET post_count = post_count - 1 WHERE tag = OLD.tag;
  DELETE FROM tag_counts WHERE tag = OLD.tag AND post_count <= 0;
END;
CREATE TRIGGER post_tags_count_update AFTER UPDATE OF tag ON post_tags BEGIN
  UPDATE tag_counts SET post_count = post_count - 1 WHERE tag = OLD.tag;
  DELETE FROM tag_counts WHERE tag = OLD.tag AND post_count <= 0;
  INSERT INTO tag_counts (tag, post_count) VALUES (NEW.tag, 1)
    ON CONFLICT (tag) DO UPDATE SET post_count = post_count + 1;
END;
`,
};

export default migration;
