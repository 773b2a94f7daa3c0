/**
 * Auto-import (api/importer/auto-import.ts): whether a kept key was kept for auto-import
 * (`auto_import_keys.auto_import`; a key kept only for debugging is never imported by a round), and
 * the rounds themselves (`auto_import_rounds`): requested by an administrator or due every 24 hours,
 * claimed by whichever process holds the operator's private key, with what each round did.
 */
import type { Migration } from './index.ts';

const migration: Migration = {
  version: 9,
  name: 'auto_import',
  sql: `ALTER TABLE auto_import_keys ADD COLUMN auto_import INTEGER NOT NULL DEFAULT 0;
  UPDATE auto_import_keys SET auto_import = 1
   WHERE id IN (SELECT key_id FROM imports WHERE auto_import = 1 AND key_id IS NOT NULL);
  CREATE TABLE auto_import_rounds (
    id INTEGER PRIMARY KEY,
    requested_at TEXT NOT NULL,
    requested_by INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
    started_at TEXT,
    finished_at TEXT,
    queued INTEGER,
    skipped INTEGER,
    failed INTEGER
  );
  CREATE INDEX auto_import_rounds_pending ON auto_import_rounds (id) WHERE started_at IS NULL;`,
};

export default migration;
