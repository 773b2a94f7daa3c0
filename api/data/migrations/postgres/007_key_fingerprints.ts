/**
 * 007 on PostgreSQL (../007_key_fingerprints.ts): a kept key's fingerprint, unique per owner (anonymous
 * keys share owner 0). SQLite's ifnull is coalesce here; a query that wants the index names the same
 * expression, `coalesce(account_id, 0)`.
 */
import type { PostgresMigration } from './index.ts';

const migration: PostgresMigration = {
  version: 7,
  name: 'key_fingerprints',
  sql: `ALTER TABLE auto_import_keys ADD COLUMN fingerprint text COLLATE "C";
  CREATE UNIQUE INDEX auto_import_keys_fingerprint ON auto_import_keys (fingerprint, coalesce(account_id, 0))
    WHERE fingerprint IS NOT NULL;`,
};

export default migration;
