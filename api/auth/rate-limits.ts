/**
 * The login and registration rate limits (numbers in shared/constants.ts AUTH_RATE_LIMITS), checked
 * before any password hashing. Counters live in the main database's rate_limits table (migration 005)
 * through rate-limiter-flexible's SQLite or PostgreSQL store, so they survive restarts and, on
 * PostgreSQL, are shared by every web node; one set of limiters per database.
 *
 * Addresses: IPv4 as is (IPv4-mapped IPv6 unwrapped); IPv6 by its /64, since one host usually owns a
 * whole /64 and could otherwise step through addresses.
 */
import type { IncomingMessage } from 'node:http';
import { RateLimiterPostgres, RateLimiterRes, RateLimiterSQLite, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import type { Store } from '../data/store.ts';
import { AUTH_RATE_LIMITS } from '@shared/constants.ts';
import { TooManyRequestsError } from '../http/errors.ts';

export const RATE_LIMIT_MESSAGES = {
  login: 'Too many login attempts. Please try again later.',
  registration: 'Too many registrations from your address. Please try again later.',
} as const;

interface Limiters {
  loginAddress: RateLimiterStoreAbstract;
  loginUsername: RateLimiterStoreAbstract;
  registrationAddress: RateLimiterStoreAbstract;
}

const limiters = new WeakMap<Store, Limiters>();

/** A limiter of `limit.points` per `limit.seconds` counted in the database's rate_limits table under `prefix`. */
export function databaseLimiter(db: Store, prefix: string, limit: { points: number; seconds: number }): RateLimiterStoreAbstract {
  const options = { tableName: 'rate_limits', tableCreated: true, keyPrefix: prefix, points: limit.points, duration: limit.seconds };
  if (db.pool) return new RateLimiterPostgres({ ...options, storeClient: db.pool, storeType: 'pool' });
  return new RateLimiterSQLite({ ...options, storeClient: db.sqlite, storeType: 'better-sqlite3' });
}

function limitersFor(db: Store): Limiters {
  let set = limiters.get(db);
  if (!set) {
    set = {
      loginAddress: databaseLimiter(db, 'login-address', AUTH_RATE_LIMITS.loginPerAddress),
      loginUsername: databaseLimiter(db, 'login-username', AUTH_RATE_LIMITS.loginFailuresPerUsername),
      registrationAddress: databaseLimiter(db, 'register-address', AUTH_RATE_LIMITS.registrationPerAddress),
    };
    limiters.set(db, set);
  }
  return set;
}

/** The rate-limit key of an address. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  // Expand '::' so the first four groups are the /64 prefix.
  const [head, tail = ''] = address.toLowerCase().split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The client's address: the socket's, or behind a trusted proxy the last X-Forwarded-For entry. */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const last = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .at(-1);
    if (last) return addressKey(last);
  }
  return addressKey(req.socket.remoteAddress ?? 'unknown');
}

function refused(error: unknown, message: string): never {
  if (error instanceof RateLimiterRes) throw new TooManyRequestsError(message, error.msBeforeNext / 1000);
  throw error;
}

/** Counts one login attempt from `address`; 429 once the address has used its attempts. */
export async function takeLoginAttempt(db: Store, address: string): Promise<void> {
  await limitersFor(db)
    .loginAddress.consume(address)
    .catch((error: unknown) => refused(error, RATE_LIMIT_MESSAGES.login));
}

/** 429 when `username` has had too many failed logins lately (known or not: the answer is the same). */
export async function checkUsernameFailures(db: Store, username: string): Promise<void> {
  const { loginUsername } = limitersFor(db);
  const state = await loginUsername.get(username);
  if (state && state.consumedPoints >= loginUsername.points) {
    throw new TooManyRequestsError(RATE_LIMIT_MESSAGES.login, state.msBeforeNext / 1000);
  }
}

/** Records a failed login for `username`. */
export async function recordLoginFailure(db: Store, username: string): Promise<void> {
  // Penalty, not consume: it never throws, the next attempt is the one refused.
  await limitersFor(db).loginUsername.penalty(username);
}

/** A successful login clears the username's failures. */
export async function clearLoginFailures(db: Store, username: string): Promise<void> {
  await limitersFor(db).loginUsername.delete(username);
}

/** Counts one registration from `address`; 429 once the address has used its registrations. */
export async function takeRegistration(db: Store, address: string): Promise<void> {
  await limitersFor(db)
    .registrationAddress.consume(address)
    .catch((error: unknown) => refused(error, RATE_LIMIT_MESSAGES.registration));
}
