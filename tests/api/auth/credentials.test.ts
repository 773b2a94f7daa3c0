/**
 * Registration, login and password change without HTTP: the messages and statuses the account routes
 * answer, the guest favourites kept at registration, and the old password refused after a change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, changePassword, registerAccount, verifyLogin } from '@api/auth/credentials.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { listFavoriteCreators } from '@api/data/favorites.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
beforeAll(async () => {
  t = tempDb();
  await upsertCreator(t.db, { service: 'patreon', id: '1', name: 'One' });
});
afterAll(() => t.cleanup());

describe('credentials', () => {
  it('registers once per name, keeping the known guest favourites', async () => {
    const favorites = [
      { service: 'patreon', id: '1' },
      { service: 'patreon', id: 'unknown' },
    ];
    const created = await registerAccount(t.db, '192.0.2.10', { username: 'carol', password: 'password-one', favorites_json: favorites });
    expect(created).toMatchObject({ username: 'carol', role: 'consumer' });
    expect((await listFavoriteCreators(t.db, created.id)).map((creator) => creator.id)).toEqual(['1']);
    await expect(
      registerAccount(t.db, '192.0.2.10', { username: 'carol', password: 'password-two', favorites_json: [] }),
    ).rejects.toMatchObject({ status: 409, message: ACCOUNT_MESSAGES.taken });
  });

  it('signs in with the password, and after a change only with the new one', async () => {
    const { id } = await verifyLogin(t.db, '192.0.2.11', { username: 'carol', password: 'password-one' });
    await expect(verifyLogin(t.db, '192.0.2.11', { username: 'nobody', password: 'password-one' })).rejects.toMatchObject({
      status: 401,
      message: ACCOUNT_MESSAGES.badCredentials,
    });
    await expect(changePassword(t.db, '192.0.2.11', id, 'wrong-password', 'password-new')).rejects.toMatchObject({
      status: 400,
      message: ACCOUNT_MESSAGES.wrongCurrentPassword,
    });
    await changePassword(t.db, '192.0.2.11', id, 'password-one', 'password-new');
    await expect(verifyLogin(t.db, '192.0.2.12', { username: 'carol', password: 'password-one' })).rejects.toMatchObject({ status: 401 });
    expect((await verifyLogin(t.db, '192.0.2.12', { username: 'carol', password: 'password-new' })).id).toBe(id);
  });
});
