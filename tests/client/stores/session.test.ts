import { cleanStores } from 'nanostores';
import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@shared/constants.ts';
import { $session, clearLoginState, memoryStorage, readSession, setLoggedIn, setSessionStorage } from '@site/client/stores/session.ts';

afterEach(() => setSessionStorage(undefined));

describe('session store', () => {
  it('is logged out without storage (SSR, node)', () => {
    setSessionStorage(null);
    expect($session.get()).toEqual({ loggedIn: false, role: null });
    setLoggedIn('consumer'); // no storage: the state lasts for this page only
    expect($session.get()).toEqual({ loggedIn: true, role: 'consumer' });
    clearLoginState();
    expect($session.get()).toEqual({ loggedIn: false, role: null });
  });

  it('reads and writes the localStorage keys', () => {
    const storage = memoryStorage({ [STORAGE_KEYS.loggedIn]: 'yes', [STORAGE_KEYS.role]: 'moderator' });
    setSessionStorage(storage);
    expect($session.get()).toEqual({ loggedIn: true, role: 'moderator' });
    setLoggedIn('administrator');
    expect(storage.dump()).toEqual({ logged_in: 'yes', role: 'administrator' });
    storage.setItem('favs', '[]');
    storage.setItem('post_favs', '[]');
    clearLoginState();
    expect(storage.dump()).toEqual({});
    expect($session.get()).toEqual({ loggedIn: false, role: null });
  });

  it("only 'yes' counts as logged in", () => {
    setSessionStorage(memoryStorage({ logged_in: 'true', role: 'consumer' }));
    expect(readSession()).toEqual({ loggedIn: false, role: null });
  });

  it('follows other tabs through the storage event', () => {
    const target = new EventTarget();
    const g = globalThis as Record<string, unknown>;
    g.addEventListener = target.addEventListener.bind(target);
    g.removeEventListener = target.removeEventListener.bind(target);
    const storage = memoryStorage();
    setSessionStorage(storage);
    cleanStores($session); // earlier get() calls left it mounted (without a window to listen to)
    const seen: boolean[] = [];
    const unsubscribe = $session.listen((value) => seen.push(value.loggedIn));
    try {
      storage.setItem('logged_in', 'yes');
      storage.setItem('role', 'consumer');
      target.dispatchEvent(Object.assign(new Event('storage'), { key: 'logged_in' }));
      expect($session.get()).toEqual({ loggedIn: true, role: 'consumer' });
      storage.removeItem('logged_in');
      target.dispatchEvent(Object.assign(new Event('storage'), { key: null }));
      expect($session.get()).toEqual({ loggedIn: false, role: null });
      // Unrelated keys do not touch the store.
      target.dispatchEvent(Object.assign(new Event('storage'), { key: 'sidebar_state' }));
      expect(seen).toEqual([true, false]);
    } finally {
      unsubscribe();
      delete g.addEventListener;
      delete g.removeEventListener;
    }
  });
});
