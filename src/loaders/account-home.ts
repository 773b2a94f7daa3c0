/**
 * The signed-in account's own pages (rendered on demand, never stored): the overview with its
 * notification count, and the notifications, which viewing marks seen (as the API does).
 */
import type { SiteDeps } from './deps.ts';
import type { Account } from '@api/data/accounts.ts';
import { countUnseenNotifications, listNotifications, markNotificationsSeen } from '@api/data/notifications.ts';
import { notificationMessage } from '@shared/notifications.ts';
import { requireAccess } from './account.ts';
import { ok, type PageOutcome } from './outcome.ts';

export interface AccountOverview {
  account: Account;
  unseenNotifications: number;
  isModerator: boolean;
  isAdministrator: boolean;
}

export async function loadAccountOverview(deps: SiteDeps, request: Request): Promise<PageOutcome<AccountOverview>> {
  const access = await requireAccess(deps, request, 'account');
  if (access.kind !== 'ok') return access;
  const { account } = access.data;
  return ok({
    account,
    unseenNotifications: await countUnseenNotifications(deps.db, account.id),
    isModerator: account.role === 'moderator' || account.role === 'administrator',
    isAdministrator: account.role === 'administrator',
  });
}

export interface NotificationView {
  id: number;
  message: string;
  created_at: string;
  /** Seen before this visit (new ones are highlighted once). */
  seen: boolean;
}

export async function loadNotifications(deps: SiteDeps, request: Request): Promise<PageOutcome<{ notifications: NotificationView[] }>> {
  const access = await requireAccess(deps, request, 'account');
  if (access.kind !== 'ok') return access;
  const store = deps.db;
  const { account } = access.data;
  const notifications = (await listNotifications(store, account.id)).map((n) => ({
    id: n.id,
    message: notificationMessage(n.type, n.extra_info),
    created_at: n.created_at,
    seen: n.is_seen,
  }));
  await markNotificationsSeen(store, account.id);
  return ok({ notifications });
}

/** The change-password page only needs the visitor to be signed in. */
export async function loadChangePassword(deps: SiteDeps, request: Request): Promise<PageOutcome<{ account: Account }>> {
  return await requireAccess(deps, request, 'account');
}
