/**
 * 001: the whole archive data model (docs/product.md#data-model).
 *
 * Conventions:
 * - Natural keys as in kemono: creators (service, id), posts (service, "user", id). Child rows of a post
 *   reference it by that composite key with ON DELETE CASCADE.
 * - Dates of archived content (posts, DMs, comments, messages, ...) are ISO 8601 text without a zone,
 *   e.g. '2024-06-04T23:53:36'. creators.indexed / updated / last_imported are epoch seconds.
 * - JSON columns hold JSON text (TEXT in SQLite, jsonb in a future PostgreSQL backend).
 * - WITHOUT ROWID (SQLite) is used for narrow link tables whose primary key is the whole row;
 *   a PostgreSQL port simply drops the clause.
 * - Booleans are INTEGER 0/1. "user" is always quoted (a reserved word in PostgreSQL).
 * - posts.seq is a stable integer per post (assigned on first insert, never reused). The FTS index
 *   uses it as its rowid, it orders the newest-first search, and narrow link tables key on it.
 * - Indexes are ascending; newest-first listings scan them backwards (ORDER BY ... DESC on every
 *   column). Descending indexes over growing keys fill their pages only half: new rows land at the
 *   left edge of each range.
 * - File paths are '/ab/cd/<sha256>.<ext>'; files are content addressed (api/media/store.ts).
 * - Everything that changes archive pages is written through api/data/*.ts, which also appends to
 *   `changes` (see api/data/changes.ts) in the same transaction.
 */
const NOW = "(strftime('%Y-%m-%dT%H:%M:%S','now'))";

export const sql = /* sql */ `
-- Accounts and sessions ---------------------------------------------------------------------------
CREATE TABLE accounts (
  id INTEGER PRIMARY KEY,
  username TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  role TEXT NOT NULL DEFAULT 'consumer' CHECK (role IN ('consumer', 'moderator', 'administrator')),
  created_at TEXT NOT NULL DEFAULT ${NOW}
);
CREATE INDEX accounts_role ON accounts (role, id);

CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,            -- sha256 hex of the cookie token; the token itself is never stored
  account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL DEFAULT ${NOW},
  expires_at TEXT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

-- Files ---------------------------------------------------------------------------------------------
CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,              -- sha256, lowercase hex
  mime TEXT,
  size INTEGER NOT NULL,
  ext TEXT NOT NULL,                      -- with the dot, e.g. '.png'
  added TEXT NOT NULL DEFAULT ${NOW}
);

-- Archive metadata of an archive file (zip, rar, 7z). password NULL and password_required 1 means
-- "required but unknown".
CREATE TABLE archive_files (
  file_hash TEXT PRIMARY KEY REFERENCES files (hash) ON DELETE CASCADE,
  file_list TEXT NOT NULL DEFAULT '[]',   -- JSON array of names inside the archive
  password TEXT,
  password_required INTEGER NOT NULL DEFAULT 0,
  added TEXT NOT NULL DEFAULT ${NOW}
);

-- Creators ------------------------------------------------------------------------------------------
-- relation_id groups linked profiles: creators sharing a relation_id are linked to each other.
CREATE TABLE creators (
  service TEXT NOT NULL,
  id TEXT NOT NULL,
  public_id TEXT,
  name TEXT NOT NULL,
  indexed INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  last_imported INTEGER,
  has_chats INTEGER NOT NULL DEFAULT 0,
  relation_id INTEGER,
  PRIMARY KEY (service, id)
);
CREATE INDEX creators_updated ON creators (updated, service, id);
CREATE INDEX creators_public_id ON creators (service, public_id);
CREATE INDEX creators_relation ON creators (relation_id) WHERE relation_id IS NOT NULL;
CREATE INDEX creators_name ON creators (name);

-- Posts -----------------------------------------------------------------------------------------------
CREATE TABLE posts (
  service TEXT NOT NULL,
  "user" TEXT NOT NULL,
  id TEXT NOT NULL,
  seq INTEGER NOT NULL UNIQUE,
  title TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL DEFAULT '',       -- sanitized HTML; the summary's substring is derived from it
  published TEXT,
  edited TEXT,
  added TEXT NOT NULL,
  file TEXT,                              -- JSON {name, path} or NULL (the API answers {})
  attachments TEXT NOT NULL DEFAULT '[]', -- JSON [{name, path}] in display order (post_files is the index)
  embed TEXT,                             -- JSON {url, subject, description} or NULL
  poll TEXT,                              -- JSON poll or NULL
  tags TEXT NOT NULL DEFAULT '[]',        -- JSON [tag] in display order (post_tags is the index)
  incomplete_rewards TEXT,
  shared_file INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (service, "user", id),
  FOREIGN KEY (service, "user") REFERENCES creators (service, id)
);
CREATE INDEX posts_creator_published ON posts (service, "user", published, id);
CREATE INDEX posts_added ON posts (added, seq);
CREATE INDEX posts_id ON posts (service, id);

-- File links of posts (the post side of hash search): one row per file / attachment whose sha256 is
-- known, keyed by the post's seq; kind 'file' (the main file, idx 0) or 'attachment' (idx = its
-- position). Names and paths for display live in posts.file / posts.attachments.
CREATE TABLE post_files (
  post_seq INTEGER NOT NULL REFERENCES posts (seq) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('file', 'attachment')),
  idx INTEGER NOT NULL,
  hash TEXT NOT NULL,                     -- sha256 (references files.hash when the file is stored)
  PRIMARY KEY (post_seq, kind, idx)
) WITHOUT ROWID;
CREATE INDEX post_files_hash ON post_files (hash, post_seq);

-- Tags, denormalised with the sort keys of the listings they filter.
CREATE TABLE post_tags (
  service TEXT NOT NULL,
  "user" TEXT NOT NULL,
  post_id TEXT NOT NULL,
  tag TEXT NOT NULL,
  published TEXT,
  post_seq INTEGER NOT NULL,
  PRIMARY KEY (service, "user", post_id, tag),
  FOREIGN KEY (service, "user", post_id) REFERENCES posts (service, "user", id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX post_tags_global ON post_tags (tag, post_seq);
CREATE INDEX post_tags_creator ON post_tags (service, "user", tag, published, post_id);

-- Previous versions of a post: the full post object (JSON) as it was before an update.
CREATE TABLE post_revisions (
  revision_id INTEGER PRIMARY KEY,
  service TEXT NOT NULL,
  "user" TEXT NOT NULL,
  post_id TEXT NOT NULL,
  data TEXT NOT NULL,
  added TEXT NOT NULL,
  FOREIGN KEY (service, "user", post_id) REFERENCES posts (service, "user", id) ON DELETE CASCADE
);
CREATE INDEX post_revisions_post ON post_revisions (service, "user", post_id, revision_id);

CREATE TABLE comments (
  service TEXT NOT NULL,
  "user" TEXT NOT NULL,
  post_id TEXT NOT NULL,
  id TEXT NOT NULL,
  parent_id TEXT,
  commenter TEXT NOT NULL,
  commenter_name TEXT,
  content TEXT NOT NULL DEFAULT '',
  published TEXT,
  added TEXT NOT NULL,
  PRIMARY KEY (service, "user", post_id, id),
  FOREIGN KEY (service, "user", post_id) REFERENCES posts (service, "user", id) ON DELETE CASCADE
);
CREATE INDEX comments_post_published ON comments (service, "user", post_id, published, id);

CREATE TABLE comment_revisions (
  id INTEGER PRIMARY KEY,
  service TEXT NOT NULL,
  "user" TEXT NOT NULL,
  post_id TEXT NOT NULL,
  comment_id TEXT NOT NULL,
  content TEXT NOT NULL,
  added TEXT NOT NULL,
  FOREIGN KEY (service, "user", post_id, comment_id) REFERENCES comments (service, "user", post_id, id) ON DELETE CASCADE
);
CREATE INDEX comment_revisions_comment ON comment_revisions (service, "user", post_id, comment_id, id);

-- Post search: title and plain-text content, trigram tokens so CJK substrings are found.
-- Contentless (the text lives in posts); rowid = posts.seq. Kept in sync by api/data/posts.ts.
CREATE VIRTUAL TABLE posts_fts USING fts5 (
  title, body,
  content = '', contentless_delete = 1,
  tokenize = 'trigram'
);

-- Popularity: favourites and views per post per day (UTC day 'YYYY-MM-DD').
CREATE TABLE post_popularity (
  day TEXT NOT NULL,
  service TEXT NOT NULL,
  "user" TEXT NOT NULL,
  post_id TEXT NOT NULL,
  favorites INTEGER NOT NULL DEFAULT 0,
  views INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, service, "user", post_id),
  FOREIGN KEY (service, "user", post_id) REFERENCES posts (service, "user", id) ON DELETE CASCADE
);
CREATE INDEX post_popularity_post ON post_popularity (service, "user", post_id, day);

-- Creator content other than posts ----------------------------------------------------------------
CREATE TABLE announcements (
  service TEXT NOT NULL,
  user_id TEXT NOT NULL,
  hash TEXT NOT NULL,
  content TEXT NOT NULL DEFAULT '',
  published TEXT,
  added TEXT NOT NULL,
  PRIMARY KEY (service, user_id, hash),
  FOREIGN KEY (service, user_id) REFERENCES creators (service, id) ON DELETE CASCADE
);
CREATE INDEX announcements_creator ON announcements (service, user_id, published, added);

CREATE TABLE fancards (
  id INTEGER PRIMARY KEY,
  service TEXT NOT NULL DEFAULT 'fanbox',
  user_id TEXT NOT NULL,
  file_id INTEGER NOT NULL REFERENCES files (id),
  price TEXT,
  added TEXT NOT NULL,
  FOREIGN KEY (service, user_id) REFERENCES creators (service, id) ON DELETE CASCADE
);
CREATE INDEX fancards_creator ON fancards (service, user_id, added, id);

-- Direct messages. status: approved (public), pending / ignored (awaiting the importing account).
CREATE TABLE dms (
  service TEXT NOT NULL,
  "user" TEXT NOT NULL,
  hash TEXT NOT NULL,
  content TEXT NOT NULL DEFAULT '',
  embed TEXT,
  file TEXT,
  published TEXT,
  added TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('approved', 'pending', 'ignored')),
  account_id INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
  import_id TEXT,
  PRIMARY KEY (service, "user", hash),
  FOREIGN KEY (service, "user") REFERENCES creators (service, id) ON DELETE CASCADE
);
CREATE INDEX dms_creator ON dms (service, "user", status, published, hash);
CREATE INDEX dms_global ON dms (status, added, hash);
CREATE INDEX dms_account ON dms (account_id, status, added, hash) WHERE account_id IS NOT NULL;

-- Shares ('Filehaus' uploads) -------------------------------------------------------------------------
CREATE TABLE shares (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  uploader_id INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
  added TEXT NOT NULL
);
CREATE INDEX shares_added ON shares (added, id);

CREATE TABLE share_files (
  share_id INTEGER NOT NULL REFERENCES shares (id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  filename TEXT NOT NULL,
  hash TEXT REFERENCES files (hash),
  upload_url TEXT,
  PRIMARY KEY (share_id, idx)
);
CREATE INDEX share_files_hash ON share_files (hash) WHERE hash IS NOT NULL;

CREATE TABLE share_creators (
  share_id INTEGER NOT NULL REFERENCES shares (id) ON DELETE CASCADE,
  service TEXT NOT NULL,
  creator_id TEXT NOT NULL,
  PRIMARY KEY (share_id, service, creator_id),
  FOREIGN KEY (service, creator_id) REFERENCES creators (service, id) ON DELETE CASCADE
);
CREATE INDEX share_creators_creator ON share_creators (service, creator_id, share_id);

-- Discord: a server is the creator row (service 'discord', id = server id). --------------------------
CREATE TABLE discord_channels (
  id TEXT PRIMARY KEY,
  server_id TEXT NOT NULL,
  name TEXT NOT NULL,
  parent_channel_id TEXT,
  topic TEXT,
  is_nsfw INTEGER NOT NULL DEFAULT 0,
  type INTEGER NOT NULL DEFAULT 0,
  position INTEGER NOT NULL DEFAULT 0,
  post_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX discord_channels_server ON discord_channels (server_id, position, id);

CREATE TABLE discord_messages (
  id TEXT PRIMARY KEY,
  server_id TEXT NOT NULL,
  channel_id TEXT NOT NULL REFERENCES discord_channels (id) ON DELETE CASCADE,
  author TEXT NOT NULL,                   -- JSON {id, username, avatar, ...}
  content TEXT NOT NULL DEFAULT '',
  embeds TEXT NOT NULL DEFAULT '[]',
  mentions TEXT NOT NULL DEFAULT '[]',
  attachments TEXT NOT NULL DEFAULT '[]', -- JSON [{name, path}]
  published TEXT NOT NULL,
  edited TEXT,
  added TEXT NOT NULL
);
CREATE INDEX discord_messages_channel ON discord_messages (channel_id, published, id);

-- Discord side of the file links (hash search).
CREATE TABLE discord_attachments (
  message_id TEXT NOT NULL REFERENCES discord_messages (id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  name TEXT,
  path TEXT NOT NULL,
  hash TEXT,
  PRIMARY KEY (message_id, idx)
);
CREATE INDEX discord_attachments_hash ON discord_attachments (hash) WHERE hash IS NOT NULL;

-- Patreon community chats -------------------------------------------------------------------------------
CREATE TABLE community_channels (
  channel_id TEXT PRIMARY KEY,
  service TEXT NOT NULL DEFAULT 'patreon',
  creator_id TEXT NOT NULL,
  name TEXT NOT NULL,
  messages_refreshed_at TEXT,
  post_count INTEGER NOT NULL DEFAULT 0,
  FOREIGN KEY (service, creator_id) REFERENCES creators (service, id) ON DELETE CASCADE
);
CREATE INDEX community_channels_creator ON community_channels (service, creator_id, name);

CREATE TABLE community_messages (
  message_id TEXT PRIMARY KEY,
  channel_id TEXT NOT NULL REFERENCES community_channels (channel_id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  deleted_at TEXT,
  replies TEXT NOT NULL DEFAULT '[]',     -- JSON
  embeds TEXT NOT NULL DEFAULT '[]',      -- JSON [{type, asset_url, title_link, image_url, thumb_url, title, text}]
  attachments TEXT NOT NULL DEFAULT '[]', -- JSON [{path, name?}]
  original_json TEXT NOT NULL DEFAULT '{}',
  added TEXT NOT NULL
);
CREATE INDEX community_messages_channel ON community_messages (channel_id, created_at, message_id);

-- Accounts' own data ------------------------------------------------------------------------------------
-- faved_seq is one sequence over both tables (kv key 'seq:faved').
CREATE TABLE favorite_creators (
  account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  service TEXT NOT NULL,
  creator_id TEXT NOT NULL,
  faved_seq INTEGER NOT NULL,
  created_at TEXT NOT NULL DEFAULT ${NOW},
  PRIMARY KEY (account_id, service, creator_id),
  FOREIGN KEY (service, creator_id) REFERENCES creators (service, id) ON DELETE CASCADE
);
CREATE INDEX favorite_creators_account ON favorite_creators (account_id, faved_seq);
CREATE INDEX favorite_creators_creator ON favorite_creators (service, creator_id);

CREATE TABLE favorite_posts (
  account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  service TEXT NOT NULL,
  "user" TEXT NOT NULL,
  post_id TEXT NOT NULL,
  faved_seq INTEGER NOT NULL,
  created_at TEXT NOT NULL DEFAULT ${NOW},
  PRIMARY KEY (account_id, service, "user", post_id),
  FOREIGN KEY (service, "user", post_id) REFERENCES posts (service, "user", id) ON DELETE CASCADE
);
CREATE INDEX favorite_posts_account ON favorite_posts (account_id, faved_seq);
CREATE INDEX favorite_posts_post ON favorite_posts (service, "user", post_id);

CREATE TABLE flags (
  id INTEGER PRIMARY KEY,
  service TEXT NOT NULL,
  "user" TEXT NOT NULL,
  post_id TEXT NOT NULL,
  account_id INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
  reason TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT ${NOW},
  FOREIGN KEY (service, "user", post_id) REFERENCES posts (service, "user", id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX flags_post_account ON flags (service, "user", post_id, account_id);

CREATE TABLE link_requests (
  id INTEGER PRIMARY KEY,
  from_service TEXT NOT NULL,
  from_id TEXT NOT NULL,
  to_service TEXT NOT NULL,
  to_id TEXT NOT NULL,
  reason TEXT,
  requester_id INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  created_at TEXT NOT NULL DEFAULT ${NOW},
  reviewed_by INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
  reviewed_at TEXT,
  FOREIGN KEY (from_service, from_id) REFERENCES creators (service, id) ON DELETE CASCADE,
  FOREIGN KEY (to_service, to_id) REFERENCES creators (service, id) ON DELETE CASCADE
);
CREATE INDEX link_requests_status ON link_requests (status, id);

CREATE TABLE notifications (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  type INTEGER NOT NULL,
  extra_info TEXT,                        -- JSON
  is_seen INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT ${NOW}
);
CREATE INDEX notifications_account ON notifications (account_id, id);

-- Imports -------------------------------------------------------------------------------------------
-- Session keys saved for auto-import, encrypted (RSA-OAEP wrapped AES-256-GCM); never plain text.
CREATE TABLE auto_import_keys (
  id INTEGER PRIMARY KEY,
  service TEXT NOT NULL,
  encrypted_key BLOB NOT NULL,
  account_id INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
  dead INTEGER NOT NULL DEFAULT 0,
  added TEXT NOT NULL DEFAULT ${NOW},
  last_used_at TEXT
);
CREATE INDEX auto_import_keys_account ON auto_import_keys (account_id, id) WHERE account_id IS NOT NULL;
CREATE INDEX auto_import_keys_alive ON auto_import_keys (dead, service);

CREATE TABLE imports (
  id TEXT PRIMARY KEY,
  service TEXT NOT NULL,
  account_id INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
  key_id INTEGER REFERENCES auto_import_keys (id) ON DELETE SET NULL,
  priority INTEGER NOT NULL DEFAULT 0,
  sub_count INTEGER,
  save_dms INTEGER NOT NULL DEFAULT 0,
  save_session_key INTEGER NOT NULL DEFAULT 0,
  auto_import INTEGER NOT NULL DEFAULT 0,
  channel_ids TEXT,
  created_at TEXT NOT NULL DEFAULT ${NOW},
  first_started_at TEXT,
  retry_count INTEGER NOT NULL DEFAULT 0,
  current_try_started_at TEXT,
  resuming_at TEXT,
  finished_at TEXT,
  key_failed_at TEXT,
  is_key_invalid INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX imports_queue ON imports (finished_at, priority DESC, created_at);
CREATE INDEX imports_key ON imports (key_id) WHERE key_id IS NOT NULL;
CREATE INDEX imports_account ON imports (account_id, created_at) WHERE account_id IS NOT NULL;

CREATE TABLE import_logs (
  id INTEGER PRIMARY KEY,
  import_id TEXT NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
  line TEXT NOT NULL,
  at TEXT NOT NULL DEFAULT ${NOW}
);
CREATE INDEX import_logs_import ON import_logs (import_id, id);

-- Change log and process state -----------------------------------------------------------------------
CREATE TABLE changes (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  action TEXT NOT NULL,
  service TEXT,
  creator_id TEXT,
  post_id TEXT,
  ref TEXT,
  at TEXT NOT NULL DEFAULT ${NOW}
);

CREATE TABLE kv (
  key TEXT PRIMARY KEY,
  value TEXT
);
`;

export default { version: 1, name: '001_initial', sql };
