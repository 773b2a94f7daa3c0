/**
 * The stored-keys list with its Revoke checkboxes: 'Revoke selected keys' posts the checked ids and
 * drops the revoked rows. The rule (at least one selected) is the server's, checked here first so an
 * empty selection costs no request.
 */
import { useState } from 'react';
import { api } from '@site/client/api-client';
import { apiPaths } from '@shared/api-paths.ts';
import { formatDateTime } from '@shared/format';
import { importStatusUrl } from '@shared/urls';
import { firstIssueMessage } from '@shared/validation/rules';
import { keysRevokeSchema } from '@shared/validation/keys';
import ApiForm from '../forms/ApiForm';
import { countLabel } from '@shared/format.ts';

export interface KeyRow {
  id: number;
  service: string;
  dead: boolean;
  added: string;
  import_ids: string[];
}

export default function KeysForm({ keys: initial }: { keys: KeyRow[] }) {
  const [keys, setKeys] = useState(initial);
  const [done, setDone] = useState<string | null>(null);

  async function submit(data: FormData, form: HTMLFormElement) {
    setDone(null);
    const parsed = keysRevokeSchema.safeParse({ revoke: data.getAll('revoke').map(String) });
    if (!parsed.success) return [firstIssueMessage(parsed.error)];
    await api.v1.post(apiPaths.accountKeys(), { revoke: parsed.data.revoke });
    const revoked = new Set(parsed.data.revoke);
    setKeys((current) => current.filter((key) => !revoked.has(key.id)));
    form.reset();
    setDone(`Revoked ${countLabel(revoked.size, 'key')}.`);
  }

  if (keys.length === 0) {
    return (
      <>
        {done && (
          <p className="keys-form__done" role="status">
            {done}
          </p>
        )}
        <p className="empty-state">You have no stored keys.</p>
      </>
    );
  }

  return (
    <ApiForm onSubmit={submit} submitLabel="Revoke selected keys" className="keys-form" id="keys-form" aria-label="Stored keys">
      <ul className="key-list">
        {keys.map((key) => (
          <li className="key-item" key={key.id} data-key-id={key.id}>
            <label className="key-item__revoke">
              <input
                type="checkbox"
                name="revoke"
                value={key.id}
                aria-label={`Revoke the ${key.service} key added ${formatDateTime(key.added)}`}
              />{' '}
              Revoke
            </label>
            <dl className="key-item__facts">
              <dt>Service</dt>
              <dd>{key.service}</dd>
              <dt>Status</dt>
              <dd className={key.dead ? 'key-item__dead' : 'key-item__alive'}>{key.dead ? 'Dead' : 'Alive'}</dd>
              <dt>Added</dt>
              <dd>
                <time dateTime={key.added}>{formatDateTime(key.added)}</time>
              </dd>
              <dt>Imports</dt>
              <dd>
                {key.import_ids.length === 0 ? (
                  'None'
                ) : (
                  <ul className="key-item__imports">
                    {key.import_ids.map((id) => (
                      <li key={id}>
                        <a href={importStatusUrl(id)}>{id}</a>
                      </li>
                    ))}
                  </ul>
                )}
              </dd>
            </dl>
          </li>
        ))}
      </ul>
      {done && (
        <p className="keys-form__done" role="status">
          {done}
        </p>
      )}
    </ApiForm>
  );
}
