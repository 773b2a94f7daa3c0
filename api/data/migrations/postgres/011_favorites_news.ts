/** 011 on PostgreSQL (../011_favorites_news.ts): "New from your favourites" and posts by date added per creator. */
import type { PostgresMigration } from './index.ts';

const migration: PostgresMigration = {
  version: 11,
  name: 'favorites_news',
  sql: `CREATE TABLE favorites_news (
    account_id bigint PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    last_visit text COLLATE "C",
    feed_token_hash text COLLATE "C" UNIQUE,
    feed_created_at text COLLATE "C"
  );
  CREATE INDEX posts_creator_added ON posts (service, "user", added, seq);`,
};

export default migration;
