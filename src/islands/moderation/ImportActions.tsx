/**
 * One import's state and its administrator actions on the imports dashboard
 * (docs/product.md#imports-dashboard): Retry (a failed import whose session key is still kept) and
 * Cancel (queued, waiting or running; asks first). The state shown follows the server's answer. The
 * server checks every rule again and answers 409 with the reason.
 */
import { useState } from 'react';
import { ApiError, api, describeError } from '@site/client/api-client';
import { apiPaths } from '@shared/api-paths';
import { IMPORT_STATE_LABELS, type ImportState } from '@shared/import-state';

interface Props {
  importId: string;
  state: ImportState;
  canRetry: boolean;
  canCancel: boolean;
}

interface Answer {
  state: ImportState;
  can_retry: boolean;
  can_cancel: boolean;
}

export const KEY_GONE_NOTE = 'Its session key is gone: the submitter must import again.';

export default function ImportActions({ importId, state: initialState, canRetry, canCancel }: Props) {
  const [row, setRow] = useState<Answer>({ state: initialState, can_retry: canRetry, can_cancel: canCancel });
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function act(action: 'retry' | 'cancel') {
    if (action === 'cancel' && !globalThis.confirm(`Cancel import ${importId}? It stops at once and its session key is wiped.`)) return;
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const path = action === 'retry' ? apiPaths.adminImportRetry(importId) : apiPaths.adminImportCancel(importId);
      const answer = await api.v1.post<Answer>(path, {});
      setRow({ state: answer.state, can_retry: answer.can_retry, can_cancel: answer.can_cancel });
      setDone(action === 'retry' ? 'Back in the queue.' : 'Cancelled.');
    } catch (failure) {
      setError(describeError(failure));
      // 409: the import changed since the page was rendered; the action no longer applies.
      if (failure instanceof ApiError && failure.status === 409) setRow((r) => ({ ...r, [`can_${action}`]: false }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="import-actions">
      <span className="import-actions__state" data-state={row.state}>
        {IMPORT_STATE_LABELS[row.state]}
      </span>
      {row.state === 'failed' && !row.can_retry && <p className="import-actions__note">{KEY_GONE_NOTE}</p>}
      {(row.can_retry || row.can_cancel) && (
        <div className="import-actions__buttons">
          {row.can_retry && (
            <button type="button" className="button" disabled={busy} aria-label={`Retry import ${importId}`} onClick={() => act('retry')}>
              Retry
            </button>
          )}
          {row.can_cancel && (
            <button type="button" className="button" disabled={busy} aria-label={`Cancel import ${importId}`} onClick={() => act('cancel')}>
              Cancel
            </button>
          )}
        </div>
      )}
      {done && (
        <p className="import-actions__done" role="status">
          {done}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
