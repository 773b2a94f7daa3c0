/**
 * The change-password form (the messages of docs/product.md#change-password-rules come from the server's
 * validators). On success every other session of the account has ended; this browser got a fresh one.
 */
import { useId, useState } from 'react';
import ApiForm from '../forms/ApiForm.tsx';
import { api } from '@site/client/api-client.ts';
import { apiPaths } from '@shared/api-paths.ts';

export default function ChangePasswordForm() {
  const id = useId();
  const [done, setDone] = useState(false);
  async function submit(data: FormData, form: HTMLFormElement) {
    setDone(false);
    await api.v1.post(apiPaths.changePassword(), {
      'current-password': String(data.get('current-password') ?? ''),
      'new-password': String(data.get('new-password') ?? ''),
      'new-password-confirmation': String(data.get('new-password-confirmation') ?? ''),
    });
    form.reset();
    setDone(true);
  }
  return (
    <>
      <ApiForm onSubmit={submit} submitLabel="Change password" className="auth-form" aria-label="Change password">
        <label htmlFor={`${id}-current`}>Current password</label>
        <input id={`${id}-current`} name="current-password" type="password" autoComplete="current-password" />
        <label htmlFor={`${id}-new`}>New password</label>
        <input id={`${id}-new`} name="new-password" type="password" autoComplete="new-password" />
        <label htmlFor={`${id}-confirm`}>Confirm new password</label>
        <input id={`${id}-confirm`} name="new-password-confirmation" type="password" autoComplete="new-password" />
      </ApiForm>
      {done && (
        <p className="success" role="status">
          Password changed. Other devices have been signed out.
        </p>
      )}
    </>
  );
}
