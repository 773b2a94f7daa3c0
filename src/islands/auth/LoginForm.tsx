/**
 * The login form: posts username and password, records the login locally and opens `next` (already
 * checked as a path of this site by the page). A 409 means a session exists: the account is fetched
 * instead and the login continues with it (docs/product.md#login-state).
 */
import { useId } from 'react';
import ApiForm from '../forms/ApiForm.tsx';
import { ApiError, api } from '@site/client/api-client.ts';
import { apiPaths } from '@shared/api-paths.ts';
import { ACCOUNT_PAGES } from '@shared/urls.ts';
import { currentAccount, enterAccount, type AccountAnswer } from './account-answer.ts';

export default function LoginForm({ next }: { next: string }) {
  const id = useId();
  async function submit(data: FormData) {
    const body = { username: String(data.get('username') ?? ''), password: String(data.get('password') ?? '') };
    let account: AccountAnswer;
    try {
      account = await api.v1.post<AccountAnswer>(apiPaths.login(), body);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error;
      account = await currentAccount();
    }
    await enterAccount(account, next);
  }
  return (
    <ApiForm onSubmit={submit} submitLabel="Login" className="auth-form" aria-label="Login">
      <label htmlFor={`${id}-username`}>Username</label>
      <input id={`${id}-username`} name="username" type="text" autoComplete="username" autoCapitalize="none" />
      <label htmlFor={`${id}-password`}>Password</label>
      <input id={`${id}-password`} name="password" type="password" autoComplete="current-password" />
      <p className="auth-form__alt">
        No account yet? <a href={ACCOUNT_PAGES.register}>Register</a>
      </p>
    </ApiForm>
  );
}
