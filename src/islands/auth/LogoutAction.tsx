/**
 * /authentication/logout: ends the server session, clears the local login state and opens the default
 * page. The page's GET never logs out by itself (a link or image from another site could), only this
 * same-origin POST does.
 */
import { useEffect, useState } from 'react';
import { api, describeError } from '@site/client/api-client.ts';
import { apiPaths } from '@shared/api-paths.ts';
import { DEFAULT_AFTER_LOGOUT } from '@shared/redirects.ts';
import { clearLoginState } from '@site/client/stores/session.ts';

export default function LogoutAction() {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.v1
      .post(apiPaths.logout())
      .then(() => {
        clearLoginState();
        globalThis.location.replace(DEFAULT_AFTER_LOGOUT);
      })
      .catch((failure: unknown) => setError(describeError(failure)));
  }, []);
  return error ? (
    <p className="error" role="alert">
      Logout failed: {error}
    </p>
  ) : (
    <p role="status">Logging out...</p>
  );
}
