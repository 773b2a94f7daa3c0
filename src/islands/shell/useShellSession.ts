/**
 * Login state for the shell islands.
 *
 * Returns null until the island has hydrated: the server (and the first client render, which must
 * match it) does not know who is visiting, so callers then render both the guest and the signed-in
 * variants, marked .auth-guest and .auth-user; the inline head script has already set
 * html[data-auth] from localStorage, and the CSS shows the right one with no flash. After hydration
 * the real $session value is returned, and html[data-auth] follows it (logout, a 401 elsewhere).
 */
import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { $session } from '../../lib/stores/session';
import { useHydrated } from './useHydrated';

export interface ShellSession {
  loggedIn: boolean;
  role: string | null;
}

export function useShellSession(): ShellSession | null {
  const hydrated = useHydrated();
  const session = useStore($session) as ShellSession;
  const loggedIn = Boolean(session?.loggedIn);

  useEffect(() => {
    if (hydrated) document.documentElement.setAttribute('data-auth', loggedIn ? 'user' : 'guest');
  }, [hydrated, loggedIn]);

  return hydrated ? { loggedIn, role: session?.role ?? null } : null;
}
