/**
 * A guest's favourites, kept on the device (docs/product.md#guest-favourites): localStorage
 * (STORAGE_KEYS.deviceFavs) holds the full list of creators and posts with what the favourites pages
 * show and sort by and when each was added; the favourites cookie (GUEST_FAVORITES_COOKIE) mirrors the
 * creators as service:id pairs, newest first, as many as fit in DEVICE_COOKIE_MAX_BYTES. Registration
 * sends the whole list, then clears both. Browser-safe; storage and cookie are injectable for tests.
 */
import { GUEST_FAVORITES_COOKIE, STORAGE_KEYS, THUMB_COOKIE_DAYS } from '@shared/constants.ts';
import type { FavoriteCreatorItem, FavoritePostItem } from '@shared/favorites-sort.ts';
import type { PostCardData } from '@shared/shapes/posts.ts';
import { creatorRefKey, postRefKey } from '@shared/favorites-transfer.ts';
import { parseJsonText } from '@shared/parse.ts';
import { nowIso } from '@shared/format.ts';
import { unlessStorageRefuses } from './storage-errors.ts';
import type { StorageLike } from './stores/session.ts';

/** The cookie's encoded value stays under this (browsers drop cookies past about 4 KB). */
export const DEVICE_COOKIE_MAX_BYTES = 3800;

export interface DeviceCreator extends FavoriteCreatorItem {
  /** When it was favourited on this device (ISO 8601 without zone). */
  faved_at: string;
}

export interface DevicePost extends FavoritePostItem, PostCardData {
  faved_at: string;
}

export interface DeviceFavorites {
  creators: DeviceCreator[];
  posts: DevicePost[];
}

/** Where the list and the cookie live (the browser's by default). */
export interface DeviceBackend {
  storage(): StorageLike | null;
  setCookie(cookie: string): void;
}

const browserBackend: DeviceBackend = {
  storage: () => unlessStorageRefuses(() => (globalThis as { localStorage?: StorageLike }).localStorage ?? null, null),
  setCookie: (cookie) => {
    // biome-ignore lint/suspicious/noDocumentCookie: one write of a plain cookie; the Cookie Store API is not in every browser the site supports
    if (globalThis.document) document.cookie = cookie;
  },
};
let backend = browserBackend;

/** Plugs in another storage and cookie jar (tests); undefined: back to the browser's. */
export function setDeviceBackend(next: DeviceBackend | undefined): void {
  backend = next ?? browserBackend;
}

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/** The device list; anything unreadable counts as empty. */
export function readDeviceFavorites(): DeviceFavorites {
  const text = unlessStorageRefuses(() => backend.storage()?.getItem(STORAGE_KEYS.deviceFavs), null);
  const value = text ? parseJsonText(text)?.value : undefined;
  if (!isObject(value)) return { creators: [], posts: [] };
  const creators = Array.isArray(value.creators) ? value.creators.filter(isObject) : [];
  const posts = Array.isArray(value.posts) ? value.posts.filter(isObject) : [];
  return {
    creators: creators.filter((c) => typeof c.service === 'string' && typeof c.id === 'string') as unknown as DeviceCreator[],
    posts: posts.filter(
      (p) => typeof p.service === 'string' && typeof p.user === 'string' && typeof p.id === 'string',
    ) as unknown as DevicePost[],
  };
}

const newestFirst = <T extends { faved_seq: number }>(items: readonly T[]) => [...items].sort((a, b) => b.faved_seq - a.faved_seq);

/** The cookie's value: the newest creators' service:id pairs that fit, URL-encoded. */
export function deviceCookieValue(creators: readonly DeviceCreator[]): string {
  let value = '';
  for (const creator of newestFirst(creators)) {
    const next = encodeURIComponent(value ? `,${creatorRefKey(creator)}` : creatorRefKey(creator));
    if (value.length + next.length > DEVICE_COOKIE_MAX_BYTES) break;
    value += next;
  }
  return value;
}

function writeCookie(creators: readonly DeviceCreator[]): void {
  const value = deviceCookieValue(creators);
  const age = value ? THUMB_COOKIE_DAYS * 24 * 3600 : 0;
  backend.setCookie(`${GUEST_FAVORITES_COOKIE}=${value}; Path=/; Max-Age=${age}; SameSite=Lax`);
}

/** Saves the list and mirrors its creators into the cookie. @returns false when storage refused it */
export function writeDeviceFavorites(list: DeviceFavorites): boolean {
  const saved = unlessStorageRefuses(() => {
    const store = backend.storage();
    if (!store) return false;
    if (list.creators.length || list.posts.length) store.setItem(STORAGE_KEYS.deviceFavs, JSON.stringify(list));
    else store.removeItem(STORAGE_KEYS.deviceFavs);
    return true;
  }, false);
  writeCookie(list.creators);
  return saved;
}

/** Removes the device list and the cookie (after registration moved them into the account). */
export function clearDeviceFavorites(): void {
  writeDeviceFavorites({ creators: [], posts: [] });
}

function nextSeq(list: DeviceFavorites): number {
  return Math.max(0, ...list.creators.map((c) => c.faved_seq), ...list.posts.map((p) => p.faved_seq)) + 1;
}

export type NewDeviceCreator = Omit<DeviceCreator, 'faved_seq' | 'faved_at'> & { faved_at?: string };
export type NewDevicePost = Omit<DevicePost, 'faved_seq' | 'faved_at'> & { faved_at?: string };

/**
 * Adds creators and posts the list lacks (in the order given, each newer than the last), keeping those
 * already there. @returns how many of each were new
 */
export function addDeviceFavorites(
  creators: readonly NewDeviceCreator[],
  posts: readonly NewDevicePost[],
): { creators: number; posts: number } {
  const list = readDeviceFavorites();
  const haveCreators = new Set(list.creators.map(creatorRefKey));
  const havePosts = new Set(list.posts.map(postRefKey));
  let seq = nextSeq(list);
  const added = { creators: 0, posts: 0 };
  for (const creator of creators) {
    if (haveCreators.has(creatorRefKey(creator))) continue;
    haveCreators.add(creatorRefKey(creator));
    list.creators.push({ ...creator, faved_seq: seq++, faved_at: creator.faved_at ?? nowIso() });
    added.creators++;
  }
  for (const post of posts) {
    if (havePosts.has(postRefKey(post))) continue;
    havePosts.add(postRefKey(post));
    list.posts.push({ ...post, faved_seq: seq++, faved_at: post.faved_at ?? nowIso() });
    added.posts++;
  }
  if (added.creators || added.posts) writeDeviceFavorites(list);
  return added;
}

/** Removes one creator ('service:id') or post ('service:user:id') from the list. */
export function removeDeviceFavorite(kind: 'creator' | 'post', key: string): void {
  const list = readDeviceFavorites();
  if (kind === 'creator') list.creators = list.creators.filter((c) => creatorRefKey(c) !== key);
  else list.posts = list.posts.filter((p) => postRefKey(p) !== key);
  writeDeviceFavorites(list);
}

/**
 * What registration sends as favorites_json: every device favourite, oldest first (so the account's
 * faved order matches), creators as {service, id}, posts as {service, user, id}, each with faved_at.
 */
export function registrationFavorites(): { service: string; id: string; user?: string; faved_at?: string }[] {
  const list = readDeviceFavorites();
  const all = [
    ...list.creators.map((c) => ({ seq: c.faved_seq, ref: { service: c.service, id: c.id, faved_at: c.faved_at } })),
    ...list.posts.map((p) => ({ seq: p.faved_seq, ref: { service: p.service, user: p.user, id: p.id, faved_at: p.faved_at } })),
  ];
  return all.sort((a, b) => a.seq - b.seq).map((entry) => entry.ref);
}
