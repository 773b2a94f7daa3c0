/**
 * Import submission rate limits (numbers in shared/constants.ts IMPORT_RATE_LIMITS), in the same
 * SQLite-backed style as the login limits (api/auth/rate-limits.ts): counters survive restarts and hold
 * across processes sharing the database.
 */
import { RateLimiterRes, type RateLimiterSQLite } from 'rate-limiter-flexible';
import { sqliteLimiter } from '../auth/rate-limits.ts';
import type { Db } from '../data/db.ts';
import { IMPORT_RATE_LIMITS } from '@shared/constants.ts';
import { TooManyRequestsError } from '../http/errors.ts';

export const IMPORT_RATE_LIMIT_MESSAGE = 'Too many imports submitted. Please try again later.';

const limiters = new WeakMap<Db, { address: RateLimiterSQLite; account: RateLimiterSQLite }>();

function limitersFor(db: Db) {
  let set = limiters.get(db);
  if (!set) {
    set = {
      address: sqliteLimiter(db, 'import-address', IMPORT_RATE_LIMITS.perAddress),
      account: sqliteLimiter(db, 'import-account', IMPORT_RATE_LIMITS.perAccount),
    };
    limiters.set(db, set);
  }
  return set;
}

/** Counts one submission against the address and, when signed in, the account; 429 once either is used up. */
export async function takeImportSubmission(db: Db, address: string, accountId: number | null): Promise<void> {
  const { address: byAddress, account: byAccount } = limitersFor(db);
  try {
    await byAddress.consume(address);
    if (accountId !== null) await byAccount.consume(String(accountId));
  } catch (error) {
    if (error instanceof RateLimiterRes) throw new TooManyRequestsError(IMPORT_RATE_LIMIT_MESSAGE, error.msBeforeNext / 1000);
    throw error;
  }
}
