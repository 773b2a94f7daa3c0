/**
 * The client's login state (docs/product.md#login-state): localStorage keeps logged_in ('yes') and
 * role, plus the cached favourites (favs, post_favs) that logout or any 401 clears.
 *
 * The role here is for display only; the server enforces roles.
 *
 * SSR-safe: nothing touches window or localStorage at import time. The store reads storage when it
 * gets its first listener (or on get()), and follows other tabs through the `storage` event.
 * Tests (node has no localStorage) plug a storage in with setSessionStorage().
 */
import { atom, onMount } from 'nanostores';
import { HIDING_STORAGE_KEYS, STORAGE_KEYS } from '@shared/constants.ts';
import { unlessStorageRefuses } from '../storage-errors.ts';

export interface Session {
  loggedIn: boolean;
  role: string | null;
}

/** The part of the Web Storage API the store uses. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const LOGGED_OUT: Session = Object.freeze({ loggedIn: false, role: null }) as Session;
const SESSION_KEYS: readonly string[] = [STORAGE_KEYS.loggedIn, STORAGE_KEYS.role];
// The account's copy of its hidden list goes too: the next visitor of this browser gets the guest list.
const CLEARED_KEYS = [
  STORAGE_KEYS.loggedIn,
  STORAGE_KEYS.role,
  STORAGE_KEYS.favs,
  STORAGE_KEYS.postFavs,
  HIDING_STORAGE_KEYS.account,
] as const;

/** undefined: use the browser's localStorage when there is one. */
let pluggedStorage: StorageLike | null | undefined;

function storage(): StorageLike | null {
  if (pluggedStorage !== undefined) return pluggedStorage;
  return unlessStorageRefuses(() => (globalThis as { localStorage?: StorageLike }).localStorage ?? null, null);
}

/** Reads the login state from storage. */
export function readSession(): Session {
  return unlessStorageRefuses((): Session => {
    const store = storage();
    if (store?.getItem(STORAGE_KEYS.loggedIn) !== 'yes') return LOGGED_OUT;
    return { loggedIn: true, role: store.getItem(STORAGE_KEYS.role) || null };
  }, LOGGED_OUT);
}

export const $session = atom<Session>(LOGGED_OUT);

function refresh(): void {
  const next = readSession();
  const current = $session.get();
  if (current.loggedIn !== next.loggedIn || current.role !== next.role) $session.set(next);
}

onMount($session, () => {
  refresh();
  const target = globalThis as { addEventListener?: Window['addEventListener']; removeEventListener?: Window['removeEventListener'] };
  if (typeof target.addEventListener !== 'function') return;
  const onStorage = (event: StorageEvent) => {
    // key null: another tab called localStorage.clear().
    if (event.key === null || SESSION_KEYS.includes(event.key)) refresh();
  };
  target.addEventListener('storage', onStorage);
  return () => target.removeEventListener?.('storage', onStorage);
});

function write(action: (store: StorageLike) => void): void {
  unlessStorageRefuses(() => {
    const store = storage();
    if (store) action(store);
  }, undefined);
}

/** After login or registration: logged_in = 'yes' and the account's role. */
export function setLoggedIn(role: string | null): void {
  write((store) => {
    store.setItem(STORAGE_KEYS.loggedIn, 'yes');
    if (role) store.setItem(STORAGE_KEYS.role, role);
    else store.removeItem(STORAGE_KEYS.role);
  });
  $session.set({ loggedIn: true, role: role || null });
}

/** Logout or any 401: clears logged_in, role, favs and post_favs. */
export function clearLoginState(): void {
  write((store) => {
    for (const key of CLEARED_KEYS) store.removeItem(key);
  });
  $session.set(LOGGED_OUT);
}

/**
 * Plugs in the storage the store uses (tests; node has no localStorage). null: no storage at all;
 * undefined: back to the browser's localStorage. Re-reads the state.
 */
export function setSessionStorage(store: StorageLike | null | undefined): void {
  pluggedStorage = store;
  refresh();
}

/** A small in-memory StorageLike (tests, or browsers where localStorage throws). */
export function memoryStorage(initial: Record<string, string> = {}): StorageLike & { dump(): Record<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, String(value)),
    removeItem: (key) => void data.delete(key),
    dump: () => Object.fromEntries(data),
  };
}
