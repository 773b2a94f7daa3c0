/**
 * 014: PostgreSQL's post search got a lower-cased copy of its trigram text (./postgres/014_search_speed.ts).
 * SQLite's FTS5 indexes need nothing: the version is taken here so that both engines keep the same numbers.
 */
import type { Migration } from './index.ts';

const migration: Migration = {
  version: 14,
  name: 'search_speed',
  sql: '',
};

export default migration;
