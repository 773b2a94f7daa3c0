/**
 * 005 on PostgreSQL (../005_rate_limits.ts): the rate limit counters. On PostgreSQL the limits will use
 * rate-limiter-flexible's PostgreSQL store, which creates and owns a table of its own; this one is kept
 * so both engines hold the same tables (it costs nothing while empty). expire is epoch milliseconds.
 */
import type { PostgresMigration } from './index.ts';

const migration: PostgresMigration = {
  version: 5,
  name: 'rate_limits',
  sql: `CREATE TABLE rate_limits (
    key text COLLATE "C" PRIMARY KEY,
    points integer NOT NULL DEFAULT 0,
    expire bigint
  );`,
};

export default migration;
