/**
 * The importer form (docs/product.md#importer-page): Paysite select, the service's inputs, checkboxes
 * sent as '1'/'0', 'Submit Key'. The inputs and rules come from the paysite descriptors (shared/paysites);
 * the same rules as the server (shared/importer.ts) run before sending, so a bad key shows
 * 'Error: {message}' at once; on success the browser opens the import's status page.
 */
import { useEffect, useId, useState } from 'react';
import ApiForm from '../forms/ApiForm.tsx';
import { useHydrated } from '../shell/useHydrated.ts';
import { api, describeError } from '@site/client/api-client.ts';
import { apiPaths } from '@shared/api-paths.ts';
import { IMPORTER_SERVICES, importSubmissionError, importerService } from '@shared/importer.ts';
import type { Paysite } from '@shared/paysites/index.ts';
import { importStatusUrl } from '@shared/urls.ts';

interface Props {
  signedIn: boolean;
}

const CHECKBOXES = ['auto_import', 'save_session_key', 'save_dms'] as const;

export default function ImporterForm({ signedIn }: Props) {
  const id = useId();
  const [service, setService] = useState<Paysite>(IMPORTER_SERVICES[0].service);
  const [userAgent, setUserAgent] = useState('');
  useEffect(() => setUserAgent(navigator.userAgent), []);
  // A choice made before hydration could be lost, leaving the first paysite's inputs under another
  // name: the select waits for the island, as the submit button does.
  const hydrated = useHydrated();
  const current = importerService(service);

  async function submit(data: FormData): Promise<readonly string[] | undefined> {
    const body: Record<string, string> = { service };
    for (const field of current.fields) body[field.name] = String(data.get(field.name) ?? '');
    for (const name of CHECKBOXES) body[name] = data.get(name) ? '1' : '0';
    const invalid = importSubmissionError(body);
    if (invalid) return [`Error: ${invalid}`];
    try {
      const answer = await api.v1.post<{ import_id: string }>(apiPaths.importerSubmit(), body);
      window.location.assign(importStatusUrl(answer.import_id));
    } catch (error) {
      return [`Error: ${describeError(error)}`];
    }
  }

  return (
    <ApiForm onSubmit={submit} submitLabel="Submit Key" className="importer-form" aria-label="Import">
      <label htmlFor={`${id}-service`}>Paysite</label>
      <select
        id={`${id}-service`}
        name="service"
        value={service}
        disabled={!hydrated}
        onChange={(e) => setService(e.currentTarget.value as Paysite)}
      >
        {IMPORTER_SERVICES.map((s) => (
          <option key={s.service} value={s.service}>
            {s.label}
          </option>
        ))}
      </select>
      {current.fields.map((field, index) => (
        <div className="importer-field" key={`${service}-${field.name}`}>
          <label htmlFor={`${id}-${field.name}`}>{index === 0 ? <a href="/importer/tutorial">{field.label}</a> : field.label}</label>
          <input
            id={`${id}-${field.name}`}
            name={field.name}
            type="text"
            required
            maxLength={field.maxLength}
            autoComplete="off"
            spellCheck={false}
            defaultValue={field.name === 'user_agent' ? userAgent : undefined}
            key={field.name === 'user_agent' ? userAgent : field.name}
            aria-describedby={field.hint ? `${id}-${field.name}-hint` : undefined}
          />
          {field.hint && (
            <small className="muted" id={`${id}-${field.name}-hint`}>
              {field.hint}
            </small>
          )}
        </div>
      ))}
      <fieldset className="importer-options">
        <legend>Options</legend>
        <label>
          <input type="checkbox" name="auto_import" value="1" /> Allow auto-import (keeps your key, encrypted, for a daily import)
        </label>
        <label>
          <input type="checkbox" name="save_session_key" value="1" /> Save session key for debugging
        </label>
        {current.dms && (
          <label>
            <input type="checkbox" name="save_dms" value="1" disabled={!signedIn} /> Include DMs
            {!signedIn && <small className="muted"> (log in to import DMs)</small>}
          </label>
        )}
      </fieldset>
    </ApiForm>
  );
}
