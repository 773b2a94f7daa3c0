/**
 * Signing in for tests without the login form: an account and a session row in the real database,
 * and the cookie a browser would send. (The login route itself is tested through HTTP.)
 */
import { createAccount, type Account, type Role } from '@api/data/accounts.ts';
import { createSession } from '@api/data/sessions.ts';
import type { Db } from '@api/data/db.ts';
import { hashSessionToken, newSessionToken, SESSION_COOKIE } from '@api/http/session.ts';

export interface TestSession {
  account: Account;
  token: string;
  /** The Cookie header value, e.g. for supertest's .set('Cookie', cookie). */
  cookie: string;
}

let counter = 0;

/** Creates an account (a fresh username unless given) and an unexpired session for it. */
export async function signIn(db: Db, options: { username?: string; role?: Role; account?: Account } = {}): Promise<TestSession> {
  const account =
    options.account ??
    (await createAccount(db, {
      username: options.username ?? `tester${process.pid % 1000}${(counter += 1)}`,
      password_hash: 'not-a-real-hash',
      role: options.role ?? 'consumer',
    }));
  const token = newSessionToken();
  const expires = new Date(Date.now() + 24 * 3600 * 1000).toISOString().slice(0, 19);
  await createSession(db, { token_hash: hashSessionToken(token), account_id: account.id, expires_at: expires });
  return { account, token, cookie: `${SESSION_COOKIE}=${token}` };
}
