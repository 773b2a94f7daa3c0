/** 003 on PostgreSQL (../003_archive_status.ts): what listing an archive file gave. */
import type { PostgresMigration } from './index.ts';

const migration: PostgresMigration = {
  version: 3,
  name: 'archive_status',
  sql: `ALTER TABLE archive_files ADD COLUMN list_status text COLLATE "C";`,
};

export default migration;
