/**
 * The guest's favourites cookie (GUEST_FAVORITES_COOKIE: comma-separated service:id pairs,
 * docs/product.md#registration-rules), read by the registration form and sent as favorites_json. Browser-safe.
 */
import { GUEST_FAVORITES_COOKIE } from '@shared/constants.ts';
import { readCookie } from '@shared/cookies.ts';
import { isPaysite } from '@shared/paysites/index.ts';

export interface GuestFavorite {
  service: string;
  id: string;
}

/** The pairs of a cookie value; malformed pairs and unknown paysites are dropped, duplicates kept once. */
export function parseGuestFavorites(value: string | undefined | null): GuestFavorite[] {
  if (!value) return [];
  const seen = new Set<string>();
  const out: GuestFavorite[] = [];
  for (const pair of value.split(',')) {
    const colon = pair.indexOf(':');
    if (colon <= 0) continue;
    const service = pair.slice(0, colon).trim();
    const id = pair.slice(colon + 1).trim();
    if (!id || !isPaysite(service) || seen.has(`${service}:${id}`)) continue;
    seen.add(`${service}:${id}`);
    out.push({ service, id });
  }
  return out;
}

/** The favourites in a Cookie header (document.cookie has the same form). */
export function guestFavoritesFromCookies(cookieHeader: string): GuestFavorite[] {
  return parseGuestFavorites(readCookie(cookieHeader, GUEST_FAVORITES_COOKIE));
}
