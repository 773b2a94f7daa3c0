/**
 * The link request form (docs/product.md#link-request-form): a service filter and a name filter over
 * creators.txt (filtered here, at most LINK_CANDIDATES_MAX shown, each with Select), an optional reason
 * of at most LINK_REASON_MAX characters, and 'Request link', disabled until a creator is chosen.
 */
import { useEffect, useMemo, useState } from 'react';
import { api } from '@site/client/api-client';
import { apiPaths } from '@shared/api-paths';
import { LINK_CANDIDATES_MAX, LINK_REASON_MAX } from '@shared/constants';
import { paysiteLabel } from '@shared/paysites/index.ts';
import ApiForm from '../forms/ApiForm';
import PaysiteOptions from '../forms/PaysiteOptions.tsx';

interface Props {
  service: string;
  creatorId: string;
  creatorName: string;
}

interface Candidate {
  id: string;
  name: string;
  service: string;
}

const keyOf = (c: Candidate) => `${c.service}/${c.id}`;

export default function LinkRequestForm({ service, creatorId, creatorName }: Props) {
  const [creators, setCreators] = useState<Candidate[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [serviceFilter, setServiceFilter] = useState('');
  const [nameFilter, setNameFilter] = useState('');
  const [selected, setSelected] = useState<Candidate | null>(null);
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    api.v1.get<unknown>(apiPaths.creatorsTxt()).then(
      (answer) => setCreators(Array.isArray(answer) ? (answer as Candidate[]) : []),
      () => setLoadError('Failed to load creators.'),
    );
  }, []);

  const candidates = useMemo(() => {
    if (!creators) return [];
    const needle = nameFilter.trim().toLowerCase();
    const found: Candidate[] = [];
    for (const c of creators) {
      if (c.service === service && c.id === creatorId) continue;
      if (serviceFilter && c.service !== serviceFilter) continue;
      if (needle && !c.name.toLowerCase().includes(needle)) continue;
      found.push(c);
      if (found.length === LINK_CANDIDATES_MAX) break;
    }
    return found;
  }, [creators, serviceFilter, nameFilter, service, creatorId]);

  async function submit(): Promise<readonly string[] | undefined> {
    if (!selected) return ['Please select a creator.'];
    const answer = await api.v1.post<{ message: string }>(apiPaths.newCreatorLink(service, creatorId), {
      service: selected.service,
      artist_id: selected.id,
      reason: reason.trim() || undefined,
    });
    setDone(answer.message);
  }

  if (done) {
    return (
      <p className="link-form__done" role="status">
        {done}
      </p>
    );
  }

  const reasonLength = [...reason].length;
  return (
    <ApiForm
      onSubmit={submit}
      loading={creators === null && loadError === null}
      errors={loadError ? [loadError] : []}
      submitLabel="Request link"
      submitDisabled={!selected}
      className="link-form"
      id="link-form"
      aria-label={`Link another account to ${creatorName}`}
    >
      <div className="link-form__filters">
        <label>
          Service
          <select value={serviceFilter} onChange={(e) => setServiceFilter(e.currentTarget.value)} name="service-filter">
            <option value="">All services</option>
            <PaysiteOptions />
          </select>
        </label>
        <label>
          Profile name
          <input
            type="search"
            value={nameFilter}
            onChange={(e) => setNameFilter(e.currentTarget.value)}
            name="name-filter"
            placeholder="Name"
          />
        </label>
      </div>
      {creators !== null && candidates.length === 0 && <p className="empty">No creators found for your query.</p>}
      <ul className="link-form__candidates" aria-label="Candidates">
        {candidates.map((c) => {
          const chosen = selected !== null && keyOf(selected) === keyOf(c);
          return (
            <li key={keyOf(c)} className={chosen ? 'link-candidate link-candidate--selected' : 'link-candidate'}>
              <span className="link-candidate__name">{c.name}</span>
              <span className="link-candidate__service">{paysiteLabel(c.service)}</span>
              <button type="button" className="button" aria-pressed={chosen} onClick={() => setSelected(chosen ? null : c)}>
                {chosen ? 'Selected' : 'Select'}
              </button>
            </li>
          );
        })}
      </ul>
      <p className="link-form__choice" aria-live="polite">
        {selected ? `Selected: ${selected.name} (${paysiteLabel(selected.service)})` : 'Please select a creator.'}
      </p>
      <label className="link-form__reason">
        Reason (optional)
        <textarea name="reason" value={reason} maxLength={LINK_REASON_MAX} rows={3} onChange={(e) => setReason(e.currentTarget.value)} />
        <span className="link-form__counter">
          {reasonLength}/{LINK_REASON_MAX}
        </span>
      </label>
    </ApiForm>
  );
}
