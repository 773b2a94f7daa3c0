import { describe, expect, it } from 'vitest';
import { readCookie } from '@shared/cookies.ts';
import { guestFavoritesFromCookies } from '@site/client/guest-favorites.ts';

describe('readCookie', () => {
  it('reads one cookie of a Cookie header or of document.cookie, decoded', () => {
    expect(readCookie('thumbSize=200; favorites=patreon%3A1%2Cfanbox%3A2', 'favorites')).toBe('patreon:1,fanbox:2');
    expect(readCookie('a=1;b=2', 'b')).toBe('2');
    expect(readCookie(' b = 2 ', 'b')).toBe('2');
  });

  it('keeps a value that is not valid percent-encoding as sent', () => {
    expect(readCookie('favorites=patreon:1%E0%A4%A', 'favorites')).toBe('patreon:1%E0%A4%A');
  });

  it('answers undefined for a missing cookie, a name that only starts the same, or a pair without =', () => {
    expect(readCookie('', 'a')).toBeUndefined();
    expect(readCookie('ab=1', 'a')).toBeUndefined();
    expect(readCookie('a', 'a')).toBeUndefined();
  });

  it("is what the guest favourites read (the server's session cookie reads the same way)", () => {
    expect(guestFavoritesFromCookies('x=1; favorites=patreon%3A1%2Cfanbox%3A2')).toEqual([
      { service: 'patreon', id: '1' },
      { service: 'fanbox', id: '2' },
    ]);
    expect(guestFavoritesFromCookies('x=1')).toEqual([]);
  });
});
