/** 012 on PostgreSQL (../012_hiding.ts): the creators and tags an account hides. */
import type { PostgresMigration } from './index.ts';

const NOW = `(to_char(now() AT TIME ZONE 'utc', 'YYYY-MM-DD"T"HH24:MI:SS'))`;

const migration: PostgresMigration = {
  version: 12,
  name: 'hiding',
  sql: `CREATE TABLE hidden_creators (
    account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    service text COLLATE "C" NOT NULL,
    creator_id text COLLATE "C" NOT NULL,
    added_at text COLLATE "C" NOT NULL DEFAULT ${NOW},
    PRIMARY KEY (account_id, service, creator_id)
  );
  CREATE TABLE hidden_tags (
    account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    tag text COLLATE "C" NOT NULL,
    added_at text COLLATE "C" NOT NULL DEFAULT ${NOW},
    PRIMARY KEY (account_id, tag)
  );`,
};

export default migration;
