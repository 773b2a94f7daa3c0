/** 006 on PostgreSQL (../006_import_fingerprints.ts): the key fingerprint of a pending import. */
import type { PostgresMigration } from './index.ts';

const migration: PostgresMigration = {
  version: 6,
  name: 'import_fingerprints',
  sql: `ALTER TABLE imports ADD COLUMN key_fingerprint text COLLATE "C";
  CREATE INDEX imports_pending_fingerprint ON imports (key_fingerprint)
    WHERE key_fingerprint IS NOT NULL AND finished_at IS NULL AND is_key_invalid = 0;`,
};

export default migration;
