/** What the login and registration calls answer, and what the islands do with it. Browser-safe. */
import { api } from '@site/client/api-client.ts';
import { apiPaths } from '@shared/api-paths.ts';
import { reloadFavorites } from '@site/client/stores/favorites.ts';
import { setLoggedIn } from '@site/client/stores/session.ts';
import { safeLocation } from '@shared/redirects.ts';

export interface AccountAnswer {
  id: number;
  username: string;
  created_at: string;
  role: string;
}

/**
 * Records the login locally (logged_in, role, favourites cache), then opens `next`, checked once more
 * as a path of this site (the page already did; this keeps any other caller from opening another host).
 */
export async function enterAccount(account: AccountAnswer, next: string): Promise<void> {
  setLoggedIn(account.role);
  // The favourites cache is a convenience: a failure to load it must not block signing in.
  await reloadFavorites().catch(() => undefined);
  globalThis.location.assign(safeLocation(next));
}

/** The signed-in account, for a login answered 409 (already signed in). */
export async function currentAccount(): Promise<AccountAnswer> {
  const answer = await api.v1.get<{ props: { account: AccountAnswer } }>(apiPaths.account(), { cache: false });
  return answer.props.account;
}
