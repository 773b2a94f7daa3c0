/**
 * imports.key_fingerprint: HMAC-SHA256 of service and session key (api/importer/key-store.ts
 * keyFingerprint), so the same key submitted while its import is still queued or running finds that
 * import instead of queueing a second one. The key itself is never stored in the import row.
 */
import type { Migration } from './index.ts';

const migration: Migration = {
  version: 6,
  name: 'import_fingerprints',
  sql: `ALTER TABLE imports ADD COLUMN key_fingerprint TEXT;
  CREATE INDEX imports_pending_fingerprint ON imports (key_fingerprint)
    WHERE key_fingerprint IS NOT NULL AND finished_at IS NULL AND is_key_invalid = 0;`,
};

export default migration;
