/**
 * Login state for islands with login-dependent parts (favourite, flag, unlink buttons).
 *
 * Returns null until the island has hydrated: the server (and the first client render, which must
 * match it) does not know who is visiting, so callers then render both the guest and the signed-in
 * variants, marked .auth-guest and .auth-user; the head script has already set html[data-auth] from
 * localStorage, and the CSS shows the right one with no flash (the shell's script keeps data-auth on
 * the login state afterwards, src/islands/shell/login-state.ts). After hydration the real $session
 * value is returned.
 */
import { useStore } from '@nanostores/react';
import { $session } from '@site/client/stores/session';
import { useHydrated } from './useHydrated';

export interface ShellSession {
  loggedIn: boolean;
  role: string | null;
}

export function useShellSession(): ShellSession | null {
  const hydrated = useHydrated();
  const session = useStore($session) as ShellSession;
  return hydrated ? { loggedIn: Boolean(session?.loggedIn), role: session?.role ?? null } : null;
}
