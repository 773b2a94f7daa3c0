/**
 * Import submission rate limits (numbers in shared/constants.ts IMPORT_RATE_LIMITS), counted in the
 * database like the login limits (api/auth/rate-limits.ts): counters survive restarts and hold across
 * processes and machines sharing the database.
 */
import { RateLimiterRes, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import { databaseLimiter } from '../auth/rate-limits.ts';
import type { Store } from '../data/store.ts';
import { IMPORT_RATE_LIMITS } from '@shared/constants.ts';
import { TooManyRequestsError } from '../http/errors.ts';

export const IMPORT_RATE_LIMIT_MESSAGE = 'Too many imports submitted. Please try again later.';

const limiters = new WeakMap<Store, { address: RateLimiterStoreAbstract; account: RateLimiterStoreAbstract }>();

function limitersFor(db: Store) {
  let set = limiters.get(db);
  if (!set) {
    set = {
      address: databaseLimiter(db, 'import-address', IMPORT_RATE_LIMITS.perAddress),
      account: databaseLimiter(db, 'import-account', IMPORT_RATE_LIMITS.perAccount),
    };
    limiters.set(db, set);
  }
  return set;
}

/** Counts one submission against the address and, when signed in, the account; 429 once either is used up. */
export async function takeImportSubmission(db: Store, address: string, accountId: number | null): Promise<void> {
  const { address: byAddress, account: byAccount } = limitersFor(db);
  try {
    await byAddress.consume(address);
    if (accountId !== null) await byAccount.consume(String(accountId));
  } catch (error) {
    if (error instanceof RateLimiterRes) throw new TooManyRequestsError(IMPORT_RATE_LIMIT_MESSAGE, error.msBeforeNext / 1000);
    throw error;
  }
}
