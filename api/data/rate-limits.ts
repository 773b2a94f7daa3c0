/**
 * The sign-in rate-limit counters (rate_limits, migration 005), which api/auth/rate-limits.ts counts
 * through its library; this module only clears the expired ones.
 */
import { stmt, type Db } from './db.ts';

/** Deletes expired rate-limit counters (rate_limits, migration 005; expire is epoch milliseconds). */
export async function purgeExpiredRateLimits(db: Db, nowMs: number = Date.now()): Promise<number> {
  return stmt(db, 'DELETE FROM rate_limits WHERE expire IS NOT NULL AND expire < ?').run(nowMs).changes;
}
