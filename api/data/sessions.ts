/**
 * Server-side sessions, stored by the sha256 of their token (token generation happens in the caller),
 * so a copied database cannot be replayed as cookies. Not archive data: no change-log rows.
 */
import { stmt, type Db } from './db.ts';
import { nowIso } from './util.ts';
import type { Account } from '@shared/shapes/accounts.ts';

/** Stores a session (by the sha256 of its token). */
export async function createSession(
  db: Db,
  input: { token_hash: string; account_id: number; expires_at: string; created_at?: string },
): Promise<void> {
  stmt(db, 'INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(
    input.token_hash,
    input.account_id,
    input.created_at ?? nowIso(),
    input.expires_at,
  );
}

/** The account of an unexpired session, or undefined. `now` is an ISO time (default: now). */
export async function getSessionAccount(db: Db, tokenHash: string, now: string = nowIso()): Promise<Account | undefined> {
  return stmt<Account>(
    db,
    `SELECT a.id, a.username, a.role, a.created_at FROM sessions s JOIN accounts a ON a.id = s.account_id
      WHERE s.token_hash = ? AND s.expires_at > ?`,
  ).get(tokenHash, now);
}

/** Deletes one session (logout). */
export async function deleteSession(db: Db, tokenHash: string): Promise<boolean> {
  return stmt(db, 'DELETE FROM sessions WHERE token_hash = ?').run(tokenHash).changes > 0;
}

/** Deletes every session of an account (e.g. after a password change). */
export async function deleteAccountSessions(db: Db, accountId: number): Promise<number> {
  return stmt(db, 'DELETE FROM sessions WHERE account_id = ?').run(accountId).changes;
}

/** Deletes expired sessions. */
export async function purgeExpiredSessions(db: Db, now: string = nowIso()): Promise<number> {
  return stmt(db, 'DELETE FROM sessions WHERE expires_at <= ?').run(now).changes;
}
