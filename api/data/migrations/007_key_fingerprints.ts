/**
 * auto_import_keys.fingerprint: HMAC-SHA256 of service and session key (api/importer/key-store.ts),
 * so a key submitted again is recognised without decrypting anything (the server cannot). Unique per
 * owner (anonymous keys share owner 0); keys stored before this migration have none.
 */
import type { Migration } from './index.ts';

const migration: Migration = {
  version: 7,
  name: 'key_fingerprints',
  sql: `ALTER TABLE auto_import_keys ADD COLUMN fingerprint TEXT;
  CREATE UNIQUE INDEX auto_import_keys_fingerprint ON auto_import_keys (fingerprint, ifnull(account_id, 0))
    WHERE fingerprint IS NOT NULL;`,
};

export default migration;
