/**
 * The moderators' review of creator link requests: from, to, reason (or 'not provided'), requester name
 * and role, Approve and Reject. After an action the list reloads from the API (docs/product.md#link-requests).
 */
import { useState } from 'react';
import { api, describeError } from '@site/client/api-client';
import { apiPaths } from '@shared/api-paths';
import { paysiteLabel } from '@shared/paysites/index.ts';
import { creatorPageUrl } from '@shared/urls';
import { useHydrated } from '../shell/useHydrated';

interface LinkCreator {
  service: string;
  id: string;
  name: string;
}

export interface PendingLinkRequest {
  id: number;
  from_creator: LinkCreator;
  to_creator: LinkCreator;
  reason: string | null;
  requester: { username: string | null; role: string | null };
}

function Profile({ creator }: { creator: LinkCreator }) {
  return (
    <a href={creatorPageUrl(creator.service, creator.id)}>
      {creator.name} <span className="link-request__service">({paysiteLabel(creator.service)})</span>
    </a>
  );
}

export default function LinkRequestList({ initial }: { initial: PendingLinkRequest[] }) {
  const [requests, setRequests] = useState(initial);
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The buttons do nothing until the island has hydrated (when the browser is idle): disabled till then.
  const hydrated = useHydrated();

  async function review(id: number, action: 'approve' | 'reject') {
    setBusy(id);
    setError(null);
    try {
      await api.v1.post((action === 'approve' ? apiPaths.approveLinkRequest : apiPaths.rejectLinkRequest)(id));
    } catch (failure) {
      setError(describeError(failure));
    }
    try {
      setRequests(await api.v1.get<PendingLinkRequest[]>(apiPaths.linkRequests(), { cache: false }));
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {requests.length === 0 ? (
        <p className="empty">No pending requests. Yay!</p>
      ) : (
        <ul className="link-requests">
          {requests.map((request) => (
            <li key={request.id} className="link-request" aria-label={`Link request ${request.id}`}>
              <dl>
                <dt>From</dt>
                <dd>
                  <Profile creator={request.from_creator} />
                </dd>
                <dt>To</dt>
                <dd>
                  <Profile creator={request.to_creator} />
                </dd>
                <dt>Reason</dt>
                <dd>{request.reason || 'not provided'}</dd>
                <dt>Requested by</dt>
                <dd>
                  {request.requester.username ?? 'deleted account'}
                  {request.requester.role && <span className="link-request__role"> ({request.requester.role})</span>}
                </dd>
              </dl>
              <div className="button-row">
                <button type="button" className="button" disabled={busy !== null || !hydrated} onClick={() => review(request.id, 'reject')}>
                  Reject
                </button>
                <button
                  type="button"
                  className="button button--primary"
                  disabled={busy !== null || !hydrated}
                  onClick={() => review(request.id, 'approve')}
                >
                  Approve
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
