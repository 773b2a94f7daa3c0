/** Header links that depend on the login state: Favorites and Logout, or Register and Login. */
import { useShellSession } from './useShellSession';

function GuestLinks({ className }: { className?: string }) {
  return (
    <ul className={`header-links header-links--account ${className ?? ''}`.trim()}>
      <li>
        <a href="/authentication/register">Register</a>
      </li>
      <li>
        <a className="is-primary" href="/authentication/login">
          Login
        </a>
      </li>
    </ul>
  );
}

function UserLinks({ className }: { className?: string }) {
  return (
    <ul className={`header-links header-links--account ${className ?? ''}`.trim()}>
      <li>
        <a href="/account/favorites">Favorites</a>
      </li>
      <li>
        <a href="/authentication/logout">Logout</a>
      </li>
    </ul>
  );
}

export default function HeaderAccount() {
  const session = useShellSession();
  if (session === null) {
    return (
      <>
        <GuestLinks className="auth-guest" />
        <UserLinks className="auth-user" />
      </>
    );
  }
  return session.loggedIn ? <UserLinks /> : <GuestLinks />;
}
