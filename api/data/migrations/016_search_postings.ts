/**
 * 016: PostgreSQL got a postings index of post search's words (./postgres/016_search_postings.ts).
 * SQLite's FTS5 indexes already answer from doclists ordered by rowid; the version is taken here so that
 * both engines keep the same numbers.
 */
import type { Migration } from './index.ts';

const migration: Migration = {
  version: 16,
  name: 'search_postings',
  sql: '',
};

export default migration;
