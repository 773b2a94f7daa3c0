/**
 * Registration, login and password change: the checks, rate limits and hashing behind the account
 * routes (api/routes/accounts.ts), which only add the session cookie. Rate limits are taken before any
 * hashing (api/auth/rate-limits.ts); a wrong password and an unknown username fail alike, in the same time.
 */
import { createAccount, getAccountByUsername, getPasswordHash, setPasswordHash, type Account } from '../data/accounts.ts';
import { deleteAccountSessions } from '../data/sessions.ts';
import type { Store } from '../data/store.ts';
import { addFavoriteCreator, addFavoritePost } from '../data/favorites.ts';
import type { FavoriteRef } from '@shared/validation/accounts.ts';
import { ConflictError, UnauthorizedError, ValidationError } from '../http/errors.ts';
import { checkPassword, hashPassword } from './passwords.ts';
import { checkUsernameFailures, clearLoginFailures, recordLoginFailure, takeLoginAttempt, takeRegistration } from './rate-limits.ts';

export const ACCOUNT_MESSAGES = {
  taken: 'Username already taken.',
  badCredentials: 'Incorrect username or password.',
  alreadyLoggedIn: 'You are already logged in.',
  wrongCurrentPassword: 'Current password is incorrect.',
} as const;

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

type GuestFavorite = Pick<FavoriteRef, 'id' | 'user' | 'faved_at'> & { service: string };

async function createWithFavorites(db: Store, username: string, passwordHash: string, favorites: GuestFavorite[]): Promise<Account> {
  const created = await createAccount(db, { username, password_hash: passwordHash });
  // Unknown creators and posts are skipped: the guest's device may name some this archive never had.
  for (const favorite of favorites) {
    if (favorite.user === undefined) await addFavoriteCreator(db, created.id, favorite.service, favorite.id, favorite.faved_at);
    else await addFavoritePost(db, created.id, favorite.service, favorite.user, favorite.id, favorite.faved_at);
  }
  return created;
}

/** A new account with the guest's favourites; 429 when `address` registered too often, 409 for a taken name. */
export async function registerAccount(
  db: Store,
  address: string,
  input: { username: string; password: string; favorites_json: GuestFavorite[] },
): Promise<Account> {
  await takeRegistration(db, address);
  if (await getAccountByUsername(db, input.username)) throw new ConflictError(ACCOUNT_MESSAGES.taken);
  const passwordHash = await hashPassword(input.password);
  try {
    return await createWithFavorites(db, input.username, passwordHash, input.favorites_json);
  } catch (error) {
    // Two registrations of one name at once: the second loses at the UNIQUE constraint.
    if (isUniqueViolation(error)) throw new ConflictError(ACCOUNT_MESSAGES.taken);
    throw error;
  }
}

/** The account a username and password sign in to; 401 (counted as a failure) or 429. */
export async function verifyLogin(db: Store, address: string, input: { username: string; password: string }): Promise<Account> {
  await takeLoginAttempt(db, address);
  await checkUsernameFailures(db, input.username);
  const found = await getAccountByUsername(db, input.username);
  if (!(await checkPassword(found?.password_hash, input.password)) || !found) {
    await recordLoginFailure(db, input.username);
    throw new UnauthorizedError(ACCOUNT_MESSAGES.badCredentials);
  }
  await clearLoginFailures(db, input.username);
  return found;
}

/**
 * Sets a new password once the current one checks out (a login attempt of `address`) and ends every
 * session of the account; the caller signs the browser in again.
 */
export async function changePassword(db: Store, address: string, accountId: number, current: string, next: string): Promise<void> {
  await takeLoginAttempt(db, address);
  if (!(await checkPassword(await getPasswordHash(db, accountId), current))) {
    throw new ValidationError(ACCOUNT_MESSAGES.wrongCurrentPassword);
  }
  await setPasswordHash(db, accountId, await hashPassword(next));
  await deleteAccountSessions(db, accountId);
}
