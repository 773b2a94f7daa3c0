/**
 * The import worker (api/importer/worker.ts): a lease (owner and expiry, renewed by a heartbeat) so one
 * worker runs an import at a time and a crashed worker's import is claimed again once its lease expires;
 * the importer's resume position (`cursor`, JSON, written in the same transaction as each committed
 * step); and the session key sealed with the data folder's working key (`work_key`,
 * api/importer/work-key.ts), kept only until the import ends, then wiped.
 */
import type { Migration } from './index.ts';

const migration: Migration = {
  version: 8,
  name: 'import_worker',
  sql: `ALTER TABLE imports ADD COLUMN lease_owner TEXT;
  ALTER TABLE imports ADD COLUMN lease_expires_at TEXT;
  ALTER TABLE imports ADD COLUMN cursor TEXT;
  ALTER TABLE imports ADD COLUMN work_key BLOB;
  CREATE INDEX imports_claimable ON imports (priority DESC, created_at, id)
    WHERE finished_at IS NULL AND is_key_invalid = 0;`,
};

export default migration;
