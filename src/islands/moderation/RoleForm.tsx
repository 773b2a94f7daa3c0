/**
 * An account's role form on the administrators' pages: only consumer and moderator are offered
 * (docs/product.md#account-list); the server refuses anything else, administrators' accounts and one's own.
 */
import { useState } from 'react';
import { api } from '@site/client/api-client';
import { apiPaths } from '@shared/api-paths';
import { ASSIGNABLE_ROLES } from '@shared/validation/administration';
import ApiForm from '../forms/ApiForm';

interface Props {
  accountId: number;
  username: string;
  role: string;
}

export default function RoleForm({ accountId, username, role }: Props) {
  const [current, setCurrent] = useState(role);
  const [done, setDone] = useState<string | null>(null);

  async function submit(data: FormData) {
    const answer = await api.v1.patch<{ role: string }>(apiPaths.accountRole(accountId), { role: data.get('role') });
    setCurrent(answer.role);
    setDone(`Role of ${username} is now ${answer.role}.`);
  }

  return (
    <ApiForm
      onSubmit={submit}
      submitLabel="Change role"
      className="role-form"
      id={`role-form-${accountId}`}
      aria-label={`Role of ${username}`}
    >
      <label>
        Role
        <select name="role" defaultValue={(ASSIGNABLE_ROLES as readonly string[]).includes(current) ? current : 'consumer'}>
          {ASSIGNABLE_ROLES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </label>
      {done && (
        <p className="role-form__done" role="status">
          {done}
        </p>
      )}
    </ApiForm>
  );
}
