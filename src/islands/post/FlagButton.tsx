/**
 * Flag a post for re-import (docs/product.md#flags): unflagged, flagging, flagged. Only registered
 * accounts may flag; guests see a disabled 'Flag' titled 'Flagging requires an account'. A failure
 * goes back to unflagged and alerts 'Error flagging' (with the server's message when it has one).
 * A flag is the post's state (flagged for re-import, by anyone), as in the post API's props.flagged;
 * signed in, the button asks GET .../flag on hydration since the stored page may predate a flag: 200
 * means flagged, 404 not flagged (kemono's statuses).
 */
import { useEffect, useState } from 'react';
import { api, ApiError } from '@site/client/api-client';
import { apiPaths } from '@shared/api-paths';
import { useShellSession } from '../shell/useShellSession';

interface Props {
  service: string;
  creatorId: string;
  postId: string;
  flagged: boolean;
}

type FlagState = 'unflagged' | 'flagging' | 'flagged';

function GuestFlag({ className }: { className?: string }) {
  return (
    <button type="button" className={`button flag-button ${className ?? ''}`.trim()} disabled title="Flagging requires an account">
      ⚑ Flag
    </button>
  );
}

export default function FlagButton({ service, creatorId, postId, flagged }: Props) {
  const session = useShellSession();
  const [state, setState] = useState<FlagState>(flagged ? 'flagged' : 'unflagged');
  const loggedIn = session?.loggedIn === true;
  const path = apiPaths.postFlag(service, creatorId, postId);

  useEffect(() => {
    // The stored page knows the flag state of its last render only; ask the server (one indexed lookup).
    if (!loggedIn || flagged) return;
    let live = true;
    api.v1.get(path, { cache: false }).then(
      () => {
        if (live) setState((current) => (current === 'unflagged' ? 'flagged' : current));
      },
      () => {}, // 404: not flagged, the stored state stands (so does any other failure)
    );
    return () => {
      live = false;
    };
  }, [loggedIn, flagged, path]);

  if (session === null) {
    return (
      <>
        <GuestFlag className="auth-guest" />
        <button type="button" className="button flag-button auth-user" disabled>
          ⚑ {flagged ? 'Flagged' : 'Flag'}
        </button>
      </>
    );
  }
  if (!session.loggedIn) return <GuestFlag />;

  const flag = async () => {
    if (!window.confirm('Flag this post for re-import?')) return;
    setState('flagging');
    try {
      await api.v1.post(path, { reason: 'reason-other' });
      setState('flagged');
    } catch (error) {
      setState('unflagged');
      const message = error instanceof ApiError ? error.serverMessage : undefined;
      window.alert(message ? `Error flagging: ${message}` : 'Error flagging');
    }
  };

  return (
    <button type="button" className="button flag-button" disabled={state !== 'unflagged'} aria-busy={state === 'flagging'} onClick={flag}>
      ⚑ {state === 'flagged' ? 'Flagged' : state === 'flagging' ? 'Flagging...' : 'Flag'}
    </button>
  );
}
