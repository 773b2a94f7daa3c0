/**
 * Server-side sessions, stored by the sha256 of their token (token generation happens in the caller),
 * so a copied database cannot be replayed as cookies. Not archive data: no change-log rows.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { nowIso } from './util.ts';
import type { Account } from '@shared/shapes/accounts.ts';

/** Stores a session (by the sha256 of its token). */
export async function createSession(
  db: Store,
  input: { token_hash: string; account_id: number; expires_at: string; created_at?: string },
): Promise<void> {
  await db.k
    .insertInto('sessions')
    .values({
      token_hash: input.token_hash,
      account_id: input.account_id,
      created_at: input.created_at ?? nowIso(),
      expires_at: input.expires_at,
    })
    .execute();
}

/** The account of an unexpired session, or undefined. `now` is an ISO time (default: now). */
export async function getSessionAccount(db: Store, tokenHash: string, now: string = nowIso()): Promise<Account | undefined> {
  const { rows } = await sql<Account>`SELECT a.id, a.username, a.role, a.created_at FROM sessions s JOIN accounts a ON a.id = s.account_id
      WHERE s.token_hash = ${tokenHash} AND s.expires_at > ${now}`.execute(db.k);
  return rows[0];
}

/** Deletes one session (logout). */
export async function deleteSession(db: Store, tokenHash: string): Promise<boolean> {
  const result = await db.k.deleteFrom('sessions').where('token_hash', '=', tokenHash).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Deletes every session of an account (e.g. after a password change). */
export async function deleteAccountSessions(db: Store, accountId: number): Promise<number> {
  const result = await db.k.deleteFrom('sessions').where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes expired sessions. */
export async function purgeExpiredSessions(db: Store, now: string = nowIso()): Promise<number> {
  const result = await db.k.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
