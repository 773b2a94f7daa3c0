/**
 * The registration form: username, password and its confirmation; the guest's favourites go along as
 * favorites_json (the device list's creators and posts, then any creator of the favourites cookie the
 * list lacks) and the device list and cookie are cleared once the account holds them
 * (docs/product.md#guest-favourites). Registration signs the new account in, then opens the account page.
 */
import { useId } from 'react';
import ApiForm from '../forms/ApiForm.tsx';
import { api } from '@site/client/api-client.ts';
import { apiPaths } from '@shared/api-paths.ts';
import { guestFavoritesFromCookies } from '@site/client/guest-favorites.ts';
import { clearDeviceFavorites, registrationFavorites } from '@site/client/device-favorites.ts';
import { creatorRefKey } from '@shared/favorites-transfer.ts';
import { ACCOUNT_PAGES } from '@shared/urls.ts';
import { enterAccount, type AccountAnswer } from './account-answer.ts';

export default function RegisterForm() {
  const id = useId();
  async function submit(data: FormData) {
    const device = registrationFavorites();
    const onDevice = new Set(device.filter((ref) => ref.user === undefined).map(creatorRefKey));
    const cookieOnly = guestFavoritesFromCookies(globalThis.document?.cookie ?? '').filter((ref) => !onDevice.has(creatorRefKey(ref)));
    // The cookie lists the newest first; the account adds oldest first.
    const favorites = [...cookieOnly.reverse(), ...device];
    const account = await api.v1.post<AccountAnswer>(apiPaths.register(), {
      username: String(data.get('username') ?? ''),
      password: String(data.get('password') ?? ''),
      confirm_password: String(data.get('confirm_password') ?? ''),
      favorites_json: JSON.stringify(favorites),
    });
    if (favorites.length) clearDeviceFavorites();
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
