/** The guest favourites cookie (service:id pairs) and the notification texts. */
import { describe, expect, it } from 'vitest';
import { guestFavoritesFromCookies, parseGuestFavorites } from '@site/client/guest-favorites.ts';
import { notificationMessage } from '@shared/notifications.ts';

describe('guest favourites cookie', () => {
  it('reads service:id pairs, dropping malformed pairs, unknown paysites and duplicates', () => {
    expect(parseGuestFavorites('patreon:100, fanbox:200,bad,nowhere:1,:5,patreon:,patreon:100')).toEqual([
      { service: 'patreon', id: '100' },
      { service: 'fanbox', id: '200' },
    ]);
    expect(parseGuestFavorites('')).toEqual([]);
  });

  it('finds the cookie among others, URL-encoded or not', () => {
    expect(guestFavoritesFromCookies('thumbSize=180; favorites=patreon%3A100%2Cfanbox%3A200; x=1')).toEqual([
      { service: 'patreon', id: '100' },
      { service: 'fanbox', id: '200' },
    ]);
    expect(guestFavoritesFromCookies('favorites=discord:42')).toEqual([{ service: 'discord', id: '42' }]);
    expect(guestFavoritesFromCookies('thumbSize=180')).toEqual([]);
  });
});

describe('notificationMessage', () => {
  it('describes a role change and stays generic for other types', () => {
    expect(notificationMessage(1, { old_role: 'consumer', new_role: 'moderator' })).toBe(
      'Your role was changed from consumer to moderator.',
    );
    expect(notificationMessage(9, null)).toBe('You have a new notification (type 9).');
  });
});
