/**
 * For administrators on a creator's Linked Accounts tab: takes the creator out of its linked group.
 * The page is stored (the same for everyone), so the button shows only once the island knows the
 * visitor's role; the server checks the role again (DELETE .../links is administrator-only).
 */
import { api } from '@site/client/api-client';
import { apiPaths } from '@shared/api-paths';
import { useShellSession } from '../shell/useShellSession';
import { useConfirmedCall } from './useConfirmedCall';

interface Props {
  service: string;
  creatorId: string;
  name: string;
}

export default function UnlinkButton({ service, creatorId, name }: Props) {
  const session = useShellSession();
  const {
    state,
    error,
    run: unlink,
  } = useConfirmedCall(() => api.v1.delete(apiPaths.creatorLinks(service, creatorId)), `Remove ${name} from its linked accounts?`);
  if (session?.role !== 'administrator') return null;

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
