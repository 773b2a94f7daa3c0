/**
 * Hiding creators and tags (docs/product.md#hiding-creators-and-tags): what a signed-in account chose
 * not to see. The API's listings leave these out for that account; guests keep the same list on the
 * device instead. Deleting an account deletes its lists. A hidden creator is not a foreign key to
 * creators: a creator removed and imported again stays hidden.
 */
import type { Migration } from './index.ts';

const NOW = "(strftime('%Y-%m-%dT%H:%M:%S','now'))";

const migration: Migration = {
  version: 12,
  name: 'hiding',
  sql: `CREATE TABLE hidden_creators (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    service TEXT NOT NULL,
    creator_id TEXT NOT NULL,
    added_at TEXT NOT NULL DEFAULT ${NOW},
    PRIMARY KEY (account_id, service, creator_id)
  ) WITHOUT ROWID;
  CREATE TABLE hidden_tags (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    added_at TEXT NOT NULL DEFAULT ${NOW},
    PRIMARY KEY (account_id, tag)
  ) WITHOUT ROWID;`,
};

export default migration;
