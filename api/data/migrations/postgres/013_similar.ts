/** 013 on PostgreSQL (../013_similar.ts): similar creators and the creators' tag profiles. */
import type { PostgresMigration } from './index.ts';

const NOW = `(to_char(now() AT TIME ZONE 'utc', 'YYYY-MM-DD"T"HH24:MI:SS'))`;

const migration: PostgresMigration = {
  version: 13,
  name: 'similar',
  sql: `
CREATE TABLE similar_creators (
  service text COLLATE "C" NOT NULL,
  creator_id text COLLATE "C" NOT NULL,
  similar_service text COLLATE "C" NOT NULL,
  similar_id text COLLATE "C" NOT NULL,
  score double precision NOT NULL,
  computed_at text COLLATE "C" NOT NULL DEFAULT ${NOW},
  PRIMARY KEY (service, creator_id, similar_service, similar_id)
);
CREATE INDEX similar_creators_reverse ON similar_creators (similar_service, similar_id, score);

CREATE TABLE similar_tag_profiles (
  service text COLLATE "C" NOT NULL,
  creator_id text COLLATE "C" NOT NULL,
  tag text COLLATE "C" NOT NULL,
  weight double precision NOT NULL,
  PRIMARY KEY (service, creator_id, tag)
);
CREATE INDEX similar_tag_profiles_tag ON similar_tag_profiles (tag, weight);
`,
};

export default migration;
