/**
 * Accounts: username, role and the argon2id password hash (hashing happens in the caller); their
 * sessions are in sessions.ts. Not archive data: no change-log rows.
 */
import { sql } from 'kysely';
import { createNotification, NOTIFICATION_ROLE_CHANGE } from './notifications.ts';
import { inTransaction, type Store } from './store.ts';
import { likeContains, nowIso } from './util.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import type { Role, Account } from '@shared/shapes/accounts.ts';
export type { Role, Account };

export interface AccountWithHash extends Account {
  password_hash: string;
}

/** Creates an account. Throws when the username is taken (UNIQUE constraint). @returns the account */
export async function createAccount(
  db: Store,
  input: { username: string; password_hash: string; role?: Role; created_at?: string },
): Promise<Account> {
  const created_at = input.created_at ?? nowIso();
  const role = input.role ?? 'consumer';
  const row = await db.k
    .insertInto('accounts')
    .values({ username: input.username, password_hash: input.password_hash, role, created_at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), username: input.username, role, created_at };
}

/** One account by id, or undefined. */
export async function getAccount(db: Store, id: number): Promise<Account | undefined> {
  const { rows } = await sql<Account>`SELECT id, username, role, created_at FROM accounts WHERE id = ${id}`.execute(db.k);
  return rows[0];
}

/** One account with its password hash, by username (for login), or undefined. */
export async function getAccountByUsername(db: Store, username: string): Promise<AccountWithHash | undefined> {
  const { rows } =
    await sql<AccountWithHash>`SELECT id, username, role, created_at, password_hash FROM accounts WHERE username = ${username}`.execute(
      db.k,
    );
  return rows[0];
}

/** The password hash of an account (for password change), or undefined. */
export async function getPasswordHash(db: Store, id: number): Promise<string | undefined> {
  const { rows } = await sql<{ password_hash: string }>`SELECT password_hash FROM accounts WHERE id = ${id}`.execute(db.k);
  return rows[0]?.password_hash;
}

/** Replaces an account's password hash. */
export async function setPasswordHash(db: Store, id: number, passwordHash: string): Promise<boolean> {
  const result = await db.k.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The accounts matching a filter: the name as a substring, ASCII letters in any case (SQLite's LIKE;
 * PostgreSQL's ILIKE folds ASCII only on the "C"-collated username, so both find the same accounts).
 */
function filtered(db: Store, filter: { name?: string | null; role?: Role | null }) {
  let query = db.k.selectFrom('accounts');
  if (filter.name) {
    const like = sql.raw(db.engine === 'postgres' ? 'ILIKE' : 'LIKE');
    query = query.where(sql<boolean>`username ${like} ${likeContains(filter.name)} ESCAPE '\\'`);
  }
  if (filter.role) query = query.where('role', '=', filter.role);
  return query;
}

/** Accounts filtered by name (substring) and role, by id. */
export async function listAccounts(
  db: Store,
  filter: { name?: string | null; role?: Role | null; offset?: number; limit?: number } = {},
): Promise<Account[]> {
  const rows = await filtered(db, filter)
    .select(['id', 'username', 'role', 'created_at'])
    .orderBy('id')
    .limit(filter.limit ?? PAGE_SIZE)
    .offset(filter.offset ?? 0)
    .execute();
  return rows as Account[];
}

/** Number of accounts matching the filter. */
export async function countAccounts(db: Store, filter: { name?: string | null; role?: Role | null } = {}): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Changes an account's role and notifies the account (notification type 1 with old_role/new_role).
 * @returns the old and new role, or undefined when the account does not exist
 */
export function setAccountRole(db: Store, id: number, role: Role): Promise<{ old_role: Role; new_role: Role } | undefined> {
  return inTransaction(db, async (db) => {
    const account = await getAccount(db, id);
    if (!account) return undefined;
    if (account.role !== role) {
      await db.k.updateTable('accounts').set({ role }).where('id', '=', id).execute();
      await createNotification(db, {
        account_id: id,
        type: NOTIFICATION_ROLE_CHANGE,
        extra_info: { old_role: account.role, new_role: role },
      });
    }
    return { old_role: account.role, new_role: role };
  });
}
