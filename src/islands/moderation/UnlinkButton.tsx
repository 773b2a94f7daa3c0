/**
 * For administrators on a creator's Linked Accounts tab: takes the creator out of its linked group.
 * The page is stored (the same for everyone), so the button shows only once the island knows the
 * visitor's role; the server checks the role again (DELETE .../links is administrator-only).
 */
import { useState } from 'react';
import { api, describeError } from '@site/client/api-client';
import { apiPaths } from '@shared/api-paths';
import { useShellSession } from '../shell/useShellSession';

interface Props {
  service: string;
  creatorId: string;
  name: string;
}

export default function UnlinkButton({ service, creatorId, name }: Props) {
  const session = useShellSession();
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  const [error, setError] = useState<string | null>(null);
  if (session?.role !== 'administrator') return null;

  async function unlink() {
    if (!globalThis.confirm(`Remove ${name} from its linked accounts?`)) return;
    setState('busy');
    setError(null);
    try {
      await api.v1.delete(apiPaths.creatorLinks(service, creatorId));
      setState('done');
    } catch (failure) {
      setState('idle');
      setError(describeError(failure));
    }
  }

  return (
    <div className="unlink">
      {state === 'done' ? (
        <p role="status">Removed from its linked accounts. The page shows it after the next refresh of the archive.</p>
      ) : (
        <button type="button" className="button" disabled={state === 'busy'} onClick={unlink}>
          {state === 'busy' ? 'Removing...' : 'Remove from linked accounts'}
        </button>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
