/**
 * "New from your favourites" (docs/product.md#new-from-your-favourites):
 * - `favorites_news`: per account, when it last opened /account/favorites/new (`last_visit`, the
 *   baseline of the sidebar count and of the page's default "since"), and the SHA-256 of its personal
 *   feed token (the token itself is shown once and never stored), unique so a feed request finds its
 *   account by the hash alone.
 * - `posts_creator_added`: posts of one creator by the date they were added to the archive, so "posts of
 *   my favourite creators added since X" reads only the new rows of each favourite creator.
 */
import type { Migration } from './index.ts';

const migration: Migration = {
  version: 11,
  name: 'favorites_news',
  sql: `CREATE TABLE favorites_news (
    account_id INTEGER PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    last_visit TEXT,
    feed_token_hash TEXT UNIQUE,
    feed_created_at TEXT
  );
  CREATE INDEX posts_creator_added ON posts (service, "user", added, seq);`,
};

export default migration;
