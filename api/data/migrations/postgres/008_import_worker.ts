/** 008 on PostgreSQL (../008_import_worker.ts): the import worker's lease, resume cursor and sealed key. */
import type { PostgresMigration } from './index.ts';

const migration: PostgresMigration = {
  version: 8,
  name: 'import_worker',
  sql: `ALTER TABLE imports ADD COLUMN lease_owner text COLLATE "C";
  ALTER TABLE imports ADD COLUMN lease_expires_at text COLLATE "C";
  ALTER TABLE imports ADD COLUMN cursor text COLLATE "C";
  ALTER TABLE imports ADD COLUMN work_key bytea;
  CREATE INDEX imports_claimable ON imports (priority DESC, created_at, id)
    WHERE finished_at IS NULL AND is_key_invalid = 0;`,
};

export default migration;
