/**
 * The signed-in account's favourites, cached in localStorage as `favs` (creators: {service, id}) and
 * `post_favs` (posts: {service, user, id}) (docs/product.md#favourites). Favouriting calls the server,
 * then reloads the whole list and rewrites the cache. A guest's favourites are the device list
 * (../device-favorites.ts, docs/product.md#guest-favourites): favouriting looks the creator or post up
 * through the public API and keeps it on the device. Browser-safe; nothing touches storage at import time.
 */
import { atom, onMount } from 'nanostores';
import { api } from '../api-client.ts';
import { apiPaths } from '@shared/api-paths.ts';
import { STORAGE_KEYS } from '@shared/constants.ts';
import { $session } from './session.ts';
import { unlessStorageRefuses } from '../storage-errors.ts';
import { parseJsonText } from '@shared/parse.ts';
import { addDeviceFavorites, readDeviceFavorites, removeDeviceFavorite } from '../device-favorites.ts';
import { lookupCreator, lookupPost } from '../device-favorites-lookup.ts';

export type FavoriteKind = 'creator' | 'post';

export interface FavoriteTarget {
  kind: FavoriteKind;
  service: string;
  /** The creator's id (for a post, its creator). */
  creatorId: string;
  postId?: string;
}

/** Keys 'service:id' (creators) and 'service:user:id' (posts). */
export const $favorites = atom<{ creators: ReadonlySet<string>; posts: ReadonlySet<string> }>({ creators: new Set(), posts: new Set() });

const creatorKey = (service: string, id: string) => `${service}:${id}`;
const postKey = (service: string, user: string, id: string | undefined) => `${service}:${user}:${id}`;

export function favoriteKey(target: FavoriteTarget): string {
  return target.kind === 'creator'
    ? creatorKey(target.service, target.creatorId)
    : postKey(target.service, target.creatorId, target.postId);
}

interface CreatorFav {
  service: string;
  id: string;
}
interface PostFav {
  service: string;
  user: string;
  id: string;
}

function readList<T>(key: string): T[] {
  const text = unlessStorageRefuses(() => globalThis.localStorage?.getItem(key), null) ?? '[]';
  const parsed = parseJsonText(text)?.value;
  return Array.isArray(parsed) ? (parsed as T[]) : [];
}

function publish(creators: CreatorFav[], posts: PostFav[]): void {
  $favorites.set({
    creators: new Set(creators.map((c) => creatorKey(c.service, c.id))),
    posts: new Set(posts.map((p) => postKey(p.service, p.user, p.id))),
  });
}

/** Counts changes of the lists (a favourite, an import, a reload), for views that show whole lists. */
export const $favoritesRevision = atom(0);

/** Publishes the device list (guests). */
export function publishDeviceFavorites(): void {
  const device = readDeviceFavorites();
  publish(device.creators, device.posts);
  $favoritesRevision.set($favoritesRevision.get() + 1);
}

onMount($favorites, () => {
  if ($session.get().loggedIn) publish(readList(STORAGE_KEYS.favs), readList(STORAGE_KEYS.postFavs));
  else publishDeviceFavorites();
});

/** Fetches both lists from the server and rewrites the local cache. */
export async function reloadFavorites(): Promise<void> {
  const [creators, posts] = await Promise.all([
    api.v1.get<CreatorFav[]>(apiPaths.accountFavorites(), { query: { type: 'artist' }, cache: false }),
    api.v1.get<PostFav[]>(apiPaths.accountFavorites(), { query: { type: 'post' }, cache: false }),
  ]);
  const slim = {
    creators: creators.map(({ service, id }) => ({ service, id })),
    posts: posts.map(({ service, user, id }) => ({ service, user, id })),
  };
  unlessStorageRefuses(() => {
    globalThis.localStorage?.setItem(STORAGE_KEYS.favs, JSON.stringify(slim.creators));
    globalThis.localStorage?.setItem(STORAGE_KEYS.postFavs, JSON.stringify(slim.posts));
  }, undefined);
  publish(slim.creators, slim.posts);
  $favoritesRevision.set($favoritesRevision.get() + 1);
}

/** Whether this browser holds the cached lists (written by the last reload). */
export function hasCachedFavorites(): boolean {
  return unlessStorageRefuses(() => {
    const store = globalThis.localStorage;
    return !!store && store.getItem(STORAGE_KEYS.favs) !== null && store.getItem(STORAGE_KEYS.postFavs) !== null;
  }, false);
}

let syncing: Promise<void> | undefined;

/**
 * Loads the lists from the server once when a signed-in browser has no cached copy (the first page
 * after logging in, or storage cleared): every favourite button of the page shares the one request.
 */
export function ensureFavorites(): Promise<void> {
  if (!$session.get().loggedIn || hasCachedFavorites()) return Promise.resolve();
  syncing ??= reloadFavorites().finally(() => {
    syncing = undefined;
  });
  return syncing;
}

export const NOT_IN_ARCHIVE = 'This is not in the archive (any more).';

/** A guest's favourite: looked up (adding) and kept on the device, or removed from it. */
async function setDeviceFavorite(target: FavoriteTarget, favorite: boolean): Promise<void> {
  const key = favoriteKey(target);
  if (!favorite) removeDeviceFavorite(target.kind, key);
  else if (target.kind === 'creator') {
    const creator = await lookupCreator(target.service, target.creatorId);
    if (!creator) throw new Error(NOT_IN_ARCHIVE);
    addDeviceFavorites([creator], []);
  } else {
    const post = await lookupPost(target.service, target.creatorId, target.postId ?? '');
    if (!post) throw new Error(NOT_IN_ARCHIVE);
    addDeviceFavorites([], [post]);
  }
  publishDeviceFavorites();
}

/** Adds or removes a favourite on the server, then reloads the list; a guest's on the device. */
export async function setFavorite(target: FavoriteTarget, favorite: boolean): Promise<void> {
  if (!$session.get().loggedIn) return setDeviceFavorite(target, favorite);
  const path =
    target.kind === 'creator'
      ? apiPaths.favoriteCreator(target.service, target.creatorId)
      : apiPaths.favoritePost(target.service, target.creatorId, target.postId ?? '');
  if (favorite) await api.v1.post(path);
  else await api.v1.delete(path);
  await reloadFavorites();
}
