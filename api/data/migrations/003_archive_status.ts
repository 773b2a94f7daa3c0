/**
 * What listing an archive file gave, so a hostile or broken archive is read once, not on every visit:
 * NULL when file_list is the whole list, 'truncated' when it holds only the first names, 'unreadable'
 * (not an archive of its type, or damaged), 'too-big' (declares more than the size cap) or
 * 'timed-out' (7-Zip needed more than the time limit).
 */
import type { Migration } from './index.ts';

const migration: Migration = {
  version: 3,
  name: 'archive_status',
  sql: `ALTER TABLE archive_files ADD COLUMN list_status TEXT;`,
};

export default migration;
