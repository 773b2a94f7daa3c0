/**
 * 015 on PostgreSQL (a no-op on SQLite, ../015_listing_order.ts): what the page store's rebuild spent
 * most of its database time on at a million posts (docs/benchmarks.md, "PostgreSQL beside SQLite").
 *
 * - A creator's listing is `published DESC NULLS LAST, id DESC` (SQLite's order, undated posts last).
 *   posts_creator_published (published, id ascending) read backwards gives `DESC NULLS FIRST`, so
 *   PostgreSQL fetched every post of the creator and sorted them for each page: 30 ms for a creator of
 *   574 posts, each on a heap page of its own. posts_creator_newest and post_tags_creator_newest hold that
 *   order, so a page reads its own rows. The ascending indexes stay for the neighbour queries, which ask
 *   for `published, id` in both directions among dated posts.
 * - The unfiltered recent-posts listing counts every post for each page: a scan of a million index
 *   entries, 280-480 ms. post_count keeps the number as rows of changes, one per statement that adds or
 *   removes posts, so countPosts sums a few rows. Rows, not one row updated in place: every import would
 *   hold that row's lock until it commits, queueing the other workers behind it (and an import meeting a
 *   takedown that holds a tag's count first could deadlock). Every 256th change folds the rows into one;
 *   a concurrent fold waits for the rows the first one deleted and then skips them, so the sum stays exact.
 */
import type { PostgresMigration } from './index.ts';

const migration: PostgresMigration = {
  version: 15,
  name: 'listing_order',
  sql: `CREATE INDEX posts_creator_newest ON posts (service, "user", published DESC NULLS LAST, id DESC);
  CREATE INDEX post_tags_creator_newest ON post_tags (service, "user", tag, published DESC NULLS LAST, post_id DESC);
  CREATE TABLE post_count (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, n bigint NOT NULL);
  INSERT INTO post_count (n) SELECT count(*) FROM posts;
  CREATE FUNCTION post_count_moved() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    moved bigint;
    added bigint;
  BEGIN
    moved := (SELECT count(*) FROM changed_rows) * CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
    IF moved <> 0 THEN
      INSERT INTO post_count (n) VALUES (moved) RETURNING id INTO added;
      IF added % 256 = 0 THEN
        WITH folded AS (DELETE FROM post_count RETURNING n) INSERT INTO post_count (n) SELECT sum(n) FROM folded;
      END IF;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER post_count_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS changed_rows
    FOR EACH STATEMENT EXECUTE FUNCTION post_count_moved();
  CREATE TRIGGER post_count_delete AFTER DELETE ON posts REFERENCING OLD TABLE AS changed_rows
    FOR EACH STATEMENT EXECUTE FUNCTION post_count_moved();`,
};

export default migration;
