/**
 * Accounts: username, role and the argon2id password hash (hashing happens in the caller); their
 * sessions are in sessions.ts. Not archive data: no change-log rows.
 */
import { stmt, type Db } from './db.ts';
import { createNotification, NOTIFICATION_ROLE_CHANGE } from './notifications.ts';
import { inTransaction as inStoreTransaction, type Store } from './store.ts';
import { likeContains, nowIso } from './util.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import type { Role, Account } from '@shared/shapes/accounts.ts';
export type { Role, Account };

export interface AccountWithHash extends Account {
  password_hash: string;
}

/** Creates an account. Throws when the username is taken (UNIQUE constraint). @returns the account */
export async function createAccount(
  db: Db,
  input: { username: string; password_hash: string; role?: Role; created_at?: string },
): Promise<Account> {
  const created_at = input.created_at ?? nowIso();
  const id = Number(
    stmt(db, 'INSERT INTO accounts (username, password_hash, role, created_at) VALUES (?, ?, ?, ?)').run(
      input.username,
      input.password_hash,
      input.role ?? 'consumer',
      created_at,
    ).lastInsertRowid,
  );
  return { id, username: input.username, role: input.role ?? 'consumer', created_at };
}

/** One account by id, or undefined. */
export async function getAccount(db: Db, id: number): Promise<Account | undefined> {
  return stmt<Account>(db, 'SELECT id, username, role, created_at FROM accounts WHERE id = ?').get(id);
}

/** One account with its password hash, by username (for login), or undefined. */
export async function getAccountByUsername(db: Db, username: string): Promise<AccountWithHash | undefined> {
  return stmt<AccountWithHash>(db, 'SELECT id, username, role, created_at, password_hash FROM accounts WHERE username = ?').get(username);
}

/** The password hash of an account (for password change), or undefined. */
export async function getPasswordHash(db: Db, id: number): Promise<string | undefined> {
  return stmt<{ password_hash: string }>(db, 'SELECT password_hash FROM accounts WHERE id = ?').get(id)?.password_hash;
}

/** Replaces an account's password hash. */
export async function setPasswordHash(db: Db, id: number, passwordHash: string): Promise<boolean> {
  return stmt(db, 'UPDATE accounts SET password_hash = ? WHERE id = ?').run(passwordHash, id).changes > 0;
}

function accountFilter(filter: { name?: string | null; role?: Role | null }): { where: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.name) {
    where.push(`username LIKE ? ESCAPE '\\'`);
    params.push(likeContains(filter.name));
  }
  if (filter.role) {
    where.push('role = ?');
    params.push(filter.role);
  }
  return { where: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}

/** Accounts filtered by name (substring) and role, by id. */
export async function listAccounts(
  db: Db,
  filter: { name?: string | null; role?: Role | null; offset?: number; limit?: number } = {},
): Promise<Account[]> {
  const { where, params } = accountFilter(filter);
  return stmt<Account>(db, `SELECT id, username, role, created_at FROM accounts ${where} ORDER BY id LIMIT ? OFFSET ?`).all(
    ...params,
    filter.limit ?? PAGE_SIZE,
    filter.offset ?? 0,
  );
}

/** Number of accounts matching the filter. */
export async function countAccounts(db: Db, filter: { name?: string | null; role?: Role | null } = {}): Promise<number> {
  const { where, params } = accountFilter(filter);
  return stmt<{ n: number }>(db, `SELECT count(*) AS n FROM accounts ${where}`).get(...params)!.n;
}

/**
 * Changes an account's role and notifies the account (notification type 1 with old_role/new_role).
 * @returns the old and new role, or undefined when the account does not exist
 */
export function setAccountRole(store: Store, id: number, role: Role): Promise<{ old_role: Role; new_role: Role } | undefined> {
  // getAccount still reads the SQLite handle: this module has not moved to the store yet.
  const db = store.sqlite!;
  return inStoreTransaction(store, async (trx) => {
    const account = await getAccount(db, id);
    if (!account) return undefined;
    if (account.role !== role) {
      await trx.k.updateTable('accounts').set({ role }).where('id', '=', id).execute();
      await createNotification(trx, {
        account_id: id,
        type: NOTIFICATION_ROLE_CHANGE,
        extra_info: { old_role: account.role, new_role: role },
      });
    }
    return { old_role: account.role, new_role: role };
  });
}
