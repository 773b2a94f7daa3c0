/**
 * The registration form: username, password and its confirmation; the guest's favourites cookie goes
 * along as favorites_json and is cleared once the account holds them. Registration signs the new
 * account in, then opens the account page.
 */
import { useId } from 'react';
import ApiForm from '../forms/ApiForm.tsx';
import { api } from '@site/client/api-client.ts';
import { apiPaths } from '@shared/api-paths.ts';
import { GUEST_FAVORITES_COOKIE } from '@shared/constants.ts';
import { guestFavoritesFromCookies } from '@site/client/guest-favorites.ts';
import { ACCOUNT_PAGES } from '@shared/urls.ts';
import { enterAccount, type AccountAnswer } from './account-answer.ts';

export default function RegisterForm() {
  const id = useId();
  async function submit(data: FormData) {
    const favorites = guestFavoritesFromCookies(globalThis.document?.cookie ?? '');
    const account = await api.v1.post<AccountAnswer>(apiPaths.register(), {
      username: String(data.get('username') ?? ''),
      password: String(data.get('password') ?? ''),
      confirm_password: String(data.get('confirm_password') ?? ''),
      favorites_json: JSON.stringify(favorites),
    });
    // biome-ignore lint/suspicious/noDocumentCookie: one expiring write; the Cookie Store API is not in every browser the site supports
    if (favorites.length) document.cookie = `${GUEST_FAVORITES_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
    await enterAccount(account, ACCOUNT_PAGES.overview);
  }
  return (
    <ApiForm onSubmit={submit} submitLabel="Register" className="auth-form" aria-label="Register">
      <label htmlFor={`${id}-username`}>Username</label>
      <input id={`${id}-username`} name="username" type="text" autoComplete="username" autoCapitalize="none" />
      <label htmlFor={`${id}-password`}>Password</label>
      <input id={`${id}-password`} name="password" type="password" autoComplete="new-password" />
      <label htmlFor={`${id}-confirm`}>Confirm password</label>
      <input id={`${id}-confirm`} name="confirm_password" type="password" autoComplete="new-password" />
      <p className="auth-form__alt">
        Already registered? <a href={ACCOUNT_PAGES.login}>Login</a>
      </p>
    </ApiForm>
  );
}
