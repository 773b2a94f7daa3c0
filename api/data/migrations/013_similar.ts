/**
 * Similar creators (api/similar/): `similar_creators` holds each creator's list, best first (at most
 * SIMILAR_TOP_K rows per creator, each with its score); `similar_tag_profiles` holds each creator's
 * top tags with their tf-idf weights (unit length), so that a recompute of one creator finds the other
 * creators sharing a top tag through an index instead of reading every post's tags. Neither references
 * creators: a taken-down creator's rows are removed by the job, and reads join creators.
 */
import type { Migration } from './index.ts';

const NOW = "(strftime('%Y-%m-%dT%H:%M:%S','now'))";

const migration: Migration = {
  version: 13,
  name: 'similar',
  sql: `
CREATE TABLE similar_creators (
  service TEXT NOT NULL,
  creator_id TEXT NOT NULL,
  similar_service TEXT NOT NULL,
  similar_id TEXT NOT NULL,
  score REAL NOT NULL,
  computed_at TEXT NOT NULL DEFAULT ${NOW},
  PRIMARY KEY (service, creator_id, similar_service, similar_id)
) WITHOUT ROWID;
CREATE INDEX similar_creators_reverse ON similar_creators (similar_service, similar_id, score);

CREATE TABLE similar_tag_profiles (
  service TEXT NOT NULL,
  creator_id TEXT NOT NULL,
  tag TEXT NOT NULL,
  weight REAL NOT NULL,
  PRIMARY KEY (service, creator_id, tag)
) WITHOUT ROWID;
CREATE INDEX similar_tag_profiles_tag ON similar_tag_profiles (tag, weight);
`,
};

export default migration;
