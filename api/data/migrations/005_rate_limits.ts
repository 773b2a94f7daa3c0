/**
 * rate_limits: the counters of the login and registration rate limits (api/auth/rate-limits.ts), in
 * the shape rate-limiter-flexible's SQLite store reads and writes (expire in epoch milliseconds). Kept
 * in the main database so limits survive a restart and hold across processes sharing the file.
 */
import type { Migration } from './index.ts';

const migration: Migration = {
  version: 5,
  name: 'rate_limits',
  sql: `CREATE TABLE rate_limits (
    key TEXT PRIMARY KEY,
    points INTEGER NOT NULL DEFAULT 0,
    expire INTEGER
  );`,
};

export default migration;
