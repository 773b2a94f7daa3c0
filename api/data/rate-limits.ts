/**
 * The sign-in rate-limit counters (rate_limits, migration 005), which api/auth/rate-limits.ts counts
 * through its library; this module only clears the expired ones.
 */
import type { Store } from './store.ts';

/** Deletes expired rate-limit counters (rate_limits, migration 005; expire is epoch milliseconds). */
export async function purgeExpiredRateLimits(db: Store, nowMs: number = Date.now()): Promise<number> {
  const result = await db.k.deleteFrom('rate_limits').where('expire', 'is not', null).where('expire', '<', nowMs).executeTakeFirst();
  return Number(result.numDeletedRows);
}
