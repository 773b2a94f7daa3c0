/**
 * "Lift" on the do-not-post page: after a confirmation naming the entry, deletes it
 * (DELETE /api/v1/admin/do_not_post/{entry}). The removed pages then answer 404 again and the creator
 * or post may be imported again; nothing that was deleted comes back by itself.
 */
import { api } from '@site/client/api-client';
import { apiPaths } from '@shared/api-paths';
import { useHydrated } from '../shell/useHydrated';
import { useConfirmedCall } from './useConfirmedCall';

interface Props {
  entryId: number;
  /** What the entry names, for the confirmation: 'the creator X (patreon 123)'. */
  label: string;
}

export function liftQuestion(label: string): string {
  return `Lift the do-not-post entry of ${label}? Its pages will answer 404 instead of 410, and it may be imported again.`;
}

export default function LiftButton({ entryId, label }: Props) {
  const hydrated = useHydrated();
  const { state, error, run: lift } = useConfirmedCall(() => api.v1.delete(apiPaths.doNotPostEntry(entryId)), liftQuestion(label));

  return (
    <div className="dnp-lift">
      {state === 'done' ? (
        <p className="success" role="status">
          Lifted.
        </p>
      ) : (
        <button type="button" className="button" disabled={!hydrated || state === 'busy'} onClick={lift} aria-label={`Lift ${label}`}>
          {state === 'busy' ? 'Lifting...' : 'Lift'}
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
