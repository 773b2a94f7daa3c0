/**
 * Account administration: an administrator gives an account the consumer or moderator role (the
 * account is notified, api/data/accounts.ts). Never an administrator's role, nor one's own. Each change
 * writes an audit line ('role_change') in the same transaction.
 */
import { getAccount, setAccountRole, type Account } from '../data/accounts.ts';
import { recordAudit } from '../data/audit-log.ts';
import type { Store } from '../data/store.ts';
import { inTransaction } from '../data/store.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../http/errors.ts';
import { ASSIGNABLE_ROLES } from '@shared/validation/administration.ts';
import type { AccountRole } from '@shared/validation/accounts.ts';

export const ACCOUNT_MESSAGES = {
  notFound: 'Account not found.',
  ownRole: 'You cannot change your own role.',
  administratorRole: "An administrator's role cannot be changed.",
} as const;

export async function requireAccount(db: Store, id: number): Promise<Account> {
  const found = await getAccount(db, id);
  if (!found) throw new NotFoundError(ACCOUNT_MESSAGES.notFound);
  return found;
}

/** Sets the role and answers the account: 400 for a role the form does not offer, 404, or 403. */
export async function changeAccountRole(db: Store, id: number, role: AccountRole, by: Account): Promise<Account> {
  if (!(ASSIGNABLE_ROLES as readonly string[]).includes(role)) throw new ValidationError('Invalid account role.');
  const target = await requireAccount(db, id);
  if (target.id === by.id) throw new ForbiddenError(ACCOUNT_MESSAGES.ownRole);
  if (target.role === 'administrator') throw new ForbiddenError(ACCOUNT_MESSAGES.administratorRole);
  return await inTransaction(db, async (store) => {
    const change = await setAccountRole(store, target.id, role);
    if (!change) throw new NotFoundError(ACCOUNT_MESSAGES.notFound);
    // Setting the role an account already has changes nothing, so it leaves no line.
    if (change.old_role !== change.new_role) {
      await recordAudit(store, {
        actor: { id: by.id, username: by.username },
        action: 'role_change',
        target: `account ${target.id} (${target.username})`,
        details: { old_role: change.old_role, new_role: change.new_role },
      });
    }
    // Read through the transaction: on PostgreSQL another connection would still see the old role.
    return await requireAccount(store, target.id);
  });
}
