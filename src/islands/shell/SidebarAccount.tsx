/**
 * The sidebar's Account section. Guests: Register, Login. Signed-in users: Account, Keys, Favorites,
 * Review DMs (with a red dot while DMs wait for review, from GET /api/v1/has_pending_dms) and Logout.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { api } from '../../lib/api-client';
import { useShellSession } from './useShellSession';

interface Props {
  /** Path of the current page, to mark its link with aria-current. */
  current?: string;
}

function Item({ href, current, children }: { href: string; current?: string; children: ReactNode }) {
  return (
    <li>
      <a className="sidebar-link" href={href} aria-current={current === href ? 'page' : undefined}>
        {children}
      </a>
    </li>
  );
}

/** Asks the API whether DMs wait for review; any failure simply means "no dot". */
function usePendingDms(enabled: boolean): boolean {
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (!enabled) {
      setPending(false);
      return;
    }
    const controller = new AbortController();
    // Once per page, no retries: a failure only means no dot. The client clears the login state on a
    // 401 (SPEC.md section 4).
    api.v1
      .get<unknown>('/has_pending_dms', { cache: false, retry: false, signal: controller.signal })
      .then((body) => setPending(body === true))
      .catch(() => {
        // Route missing, offline or aborted: no dot.
      });
    return () => controller.abort();
  }, [enabled]);
  return pending;
}

function GuestItems({ current, className }: Props & { className?: string }) {
  return (
    <ul className={`sidebar-list ${className ?? ''}`.trim()}>
      <Item href="/authentication/register" current={current}>
        Register
      </Item>
      <Item href="/authentication/login" current={current}>
        Login
      </Item>
    </ul>
  );
}

function UserItems({ current, className, pending }: Props & { className?: string; pending: boolean }) {
  return (
    <ul className={`sidebar-list ${className ?? ''}`.trim()}>
      <Item href="/account" current={current}>
        Account
      </Item>
      <Item href="/account/keys" current={current}>
        Keys
      </Item>
      <Item href="/account/favorites" current={current}>
        Favorites
      </Item>
      <Item href="/account/review_dms" current={current}>
        Review DMs
        {pending && (
          <span
            className="pending-dot"
            role="img"
            aria-label="DMs waiting for review"
            title="DMs are waiting for your review"
          />
        )}
      </Item>
      <Item href="/authentication/logout" current={current}>
        Logout
      </Item>
    </ul>
  );
}

export default function SidebarAccount({ current }: Props) {
  const session = useShellSession();
  const pending = usePendingDms(session?.loggedIn === true);
  if (session === null) {
    return (
      <>
        <GuestItems current={current} className="auth-guest" />
        <UserItems current={current} className="auth-user" pending={false} />
      </>
    );
  }
  return session.loggedIn ? (
    <UserItems current={current} pending={pending} />
  ) : (
    <GuestItems current={current} />
  );
}
