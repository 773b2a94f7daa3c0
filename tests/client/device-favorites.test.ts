/**
 * A guest's device favourites: the list in storage, the favourites cookie that mirrors its creators
 * (newest first, within the size limit, read back by the registration form's parser), what registration
 * sends, and the file rules shared with the API (JSON shapes and CSV through the browser CSV build).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/browser/esm/sync';
import {
  DEVICE_COOKIE_MAX_BYTES,
  addDeviceFavorites,
  clearDeviceFavorites,
  deviceCookieValue,
  readDeviceFavorites,
  registrationFavorites,
  removeDeviceFavorite,
  setDeviceBackend,
  type DeviceCreator,
} from '@site/client/device-favorites.ts';
import { guestFavoritesFromCookies } from '@site/client/guest-favorites.ts';
import { memoryStorage } from '@site/client/stores/session.ts';
import { STORAGE_KEYS } from '@shared/constants.ts';
import { FAVORITES_TRANSFER_MESSAGES, favoritesCsvRecords, parseFavoritesText } from '@shared/favorites-transfer.ts';

let storage: ReturnType<typeof memoryStorage>;
let cookies: string[];
const lastCookie = () => cookies[cookies.length - 1] ?? '';
const cookieHeader = () => lastCookie().split(';')[0];

const creator = (service: string, id: string, name = `Creator ${id}`) => ({
  service,
  id,
  name,
  updated: '2024-01-01T00:00:00',
  last_imported: null,
});
const post = (service: string, user: string, id: string) => ({ service, user, id, title: `Post ${id}`, published: '2024-02-01T00:00:00' });

beforeEach(() => {
  storage = memoryStorage();
  cookies = [];
  setDeviceBackend({ storage: () => storage, setCookie: (cookie) => cookies.push(cookie) });
});
afterEach(() => setDeviceBackend(undefined));

describe('device favourites', () => {
  it('keeps creators and posts with their card data, dated and in order, and adds each once', () => {
    expect(addDeviceFavorites([creator('patreon', '100'), creator('fanbox', '200')], [post('patreon', '100', '1')])).toEqual({
      creators: 2,
      posts: 1,
    });
    expect(addDeviceFavorites([creator('patreon', '100')], [post('patreon', '100', '1')])).toEqual({ creators: 0, posts: 0 });
    const list = readDeviceFavorites();
    expect(list.creators.map((c) => [c.id, c.name, c.faved_seq])).toEqual([
      ['100', 'Creator 100', 1],
      ['200', 'Creator 200', 2],
    ]);
    expect(list.posts[0]).toMatchObject({ service: 'patreon', user: '100', id: '1', title: 'Post 1', faved_seq: 3 });
    expect(list.posts[0].faved_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(JSON.parse(storage.getItem(STORAGE_KEYS.deviceFavs) ?? '')).toEqual(list);
  });

  it('mirrors the creators into the favourites cookie, newest first, in the format the registration form reads', () => {
    addDeviceFavorites([creator('patreon', '100'), creator('fanbox', '200')], [post('patreon', '100', '1')]);
    expect(lastCookie()).toMatch(/^favorites=fanbox%3A200%2Cpatreon%3A100; Path=\/; Max-Age=\d+; SameSite=Lax$/);
    expect(guestFavoritesFromCookies(cookieHeader())).toEqual([
      { service: 'fanbox', id: '200' },
      { service: 'patreon', id: '100' },
    ]);
    removeDeviceFavorite('creator', 'fanbox:200');
    expect(guestFavoritesFromCookies(cookieHeader())).toEqual([{ service: 'patreon', id: '100' }]);
    removeDeviceFavorite('post', 'patreon:100:1');
    expect(readDeviceFavorites().posts).toEqual([]);
  });

  it('keeps the cookie under the size limit with the newest creators, while storage keeps them all', () => {
    const many: DeviceCreator[] = Array.from({ length: 400 }, (_, i) => ({
      ...creator('patreon', `creator-${i}`),
      faved_seq: i,
      faved_at: '',
    }));
    const value = deviceCookieValue(many);
    expect(value.length).toBeLessThanOrEqual(DEVICE_COOKIE_MAX_BYTES);
    const kept = guestFavoritesFromCookies(`favorites=${value}`);
    expect(kept.length).toBeGreaterThan(50);
    expect(kept.length).toBeLessThan(400);
    expect(kept[0]).toEqual({ service: 'patreon', id: 'creator-399' });
    expect(kept.at(-1)).toEqual({ service: 'patreon', id: `creator-${400 - kept.length}` });
  });

  it('sends every favourite oldest first at registration, posts with user, and clears list and cookie after', () => {
    addDeviceFavorites([creator('patreon', '100')], []);
    addDeviceFavorites([], [post('patreon', '100', '1')]);
    addDeviceFavorites([creator('fanbox', '200')], []);
    expect(registrationFavorites().map(({ faved_at: _at, ...ref }) => ref)).toEqual([
      { service: 'patreon', id: '100' },
      { service: 'patreon', user: '100', id: '1' },
      { service: 'fanbox', id: '200' },
    ]);
    clearDeviceFavorites();
    expect(storage.getItem(STORAGE_KEYS.deviceFavs)).toBeNull();
    expect(lastCookie()).toMatch(/^favorites=; Path=\/; Max-Age=0;/);
    expect(readDeviceFavorites()).toEqual({ creators: [], posts: [] });
  });

  it('reads a damaged list as empty', () => {
    storage.setItem(STORAGE_KEYS.deviceFavs, '{not json');
    expect(readDeviceFavorites()).toEqual({ creators: [], posts: [] });
    storage.setItem(STORAGE_KEYS.deviceFavs, JSON.stringify({ creators: [{ service: 'patreon' }, 5], posts: 'x' }));
    expect(readDeviceFavorites()).toEqual({ creators: [], posts: [] });
  });
});

describe('favourites files in the browser', () => {
  const csv = (text: string) => parse(text, { skip_empty_lines: true, bom: true }) as string[][];

  it('reads the CSV the export writes, with the browser CSV parser', async () => {
    const { stringify } = await import('csv-stringify/browser/esm/sync');
    const text = stringify(
      favoritesCsvRecords(
        [{ service: 'patreon', id: '100', name: 'A, "quoted" name', faved_at: '2024-01-01T00:00:00' }],
        [{ service: 'fanbox', user: '200', id: '7', title: 'T' }],
      ),
    );
    expect(parseFavoritesText(text, csv)).toEqual({
      ok: true,
      refs: {
        artists: [{ service: 'patreon', id: '100', faved_at: '2024-01-01T00:00:00' }],
        posts: [{ service: 'fanbox', user: '200', id: '7' }],
        skipped: 0,
      },
    });
  });

  it('tells kemono creator and post lists apart and refuses broken files', () => {
    const both = parseFavoritesText('[{"service":"patreon","id":"1"},{"service":"patreon","user":"1","id":"9"}]', csv);
    expect(both.ok && [both.refs.artists.length, both.refs.posts.length]).toEqual([1, 1]);
    expect(parseFavoritesText('type,service,creator_id\n"post,x', csv)).toEqual({
      ok: false,
      message: expect.stringContaining(FAVORITES_TRANSFER_MESSAGES.badCsv),
    });
    expect(parseFavoritesText('{"artists": [', csv)).toEqual({ ok: false, message: FAVORITES_TRANSFER_MESSAGES.badJson });
  });
});
