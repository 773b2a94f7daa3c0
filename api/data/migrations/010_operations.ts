/**
 * Running an archive in public:
 * - `do_not_post`: creators (post_id NULL) and single posts removed at their owner's request. Importers
 *   skip what is listed; the removed URLs answer 410 while the entry stands. Lifting deletes the entry.
 *   `do_not_post_posts` keeps the ids of a removed creator's posts, so that the /{service}/post/{id}
 *   short links, which name no creator, answer 410 too.
 * - `audit_log`: every moderator and administrator action, append-only (triggers refuse UPDATE, DELETE
 *   and an INSERT OR REPLACE over an existing line, so nothing in it can be changed through the site). The actor's name is copied so that the
 *   line reads the same after the account is renamed or gone; actor_id is deliberately not a foreign key.
 * - imports: `gave_up_at` (the worker gave up after its retries; the sealed key is kept for a while so
 *   that an administrator can retry) and `cancelled_at`/`cancelled_by` (an administrator cancelled it).
 */
import type { Migration } from './index.ts';

const NOW = "(strftime('%Y-%m-%dT%H:%M:%S','now'))";

const migration: Migration = {
  version: 10,
  name: 'operations',
  sql: `CREATE TABLE do_not_post (
    id INTEGER PRIMARY KEY,
    service TEXT NOT NULL,
    creator_id TEXT NOT NULL,
    post_id TEXT,
    name TEXT,
    reason TEXT NOT NULL,
    added_by INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
    added_at TEXT NOT NULL DEFAULT ${NOW}
  );
  CREATE UNIQUE INDEX do_not_post_entry ON do_not_post (service, creator_id, coalesce(post_id, ''));
  CREATE TABLE do_not_post_posts (
    entry_id INTEGER NOT NULL REFERENCES do_not_post (id) ON DELETE CASCADE,
    service TEXT NOT NULL,
    post_id TEXT NOT NULL,
    PRIMARY KEY (service, post_id, entry_id)
  ) WITHOUT ROWID;
  CREATE INDEX do_not_post_posts_entry ON do_not_post_posts (entry_id);

  CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL DEFAULT ${NOW},
    actor_id INTEGER,
    actor_name TEXT,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    reason TEXT,
    details TEXT
  );
  CREATE INDEX audit_log_actor ON audit_log (actor_id, id);
  CREATE INDEX audit_log_action ON audit_log (action, id);
  CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
    BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
  CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
    BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
  CREATE TRIGGER audit_log_no_replace BEFORE INSERT ON audit_log
    WHEN NEW.id IS NOT NULL AND EXISTS (SELECT 1 FROM audit_log WHERE id = NEW.id)
    BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;

  ALTER TABLE imports ADD COLUMN gave_up_at TEXT;
  ALTER TABLE imports ADD COLUMN cancelled_at TEXT;
  ALTER TABLE imports ADD COLUMN cancelled_by INTEGER REFERENCES accounts (id) ON DELETE SET NULL;
  CREATE INDEX imports_created ON imports (created_at DESC, id);`,
};

export default migration;
