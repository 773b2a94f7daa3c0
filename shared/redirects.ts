/**
 * Where the login page may send the visitor afterwards (`location`,
 * docs/product.md#login-and-registration-pages; same-origin paths only,
 * docs/decisions.md#accounts-and-sessions). Browser-safe; used by the login page (server) and its island.
 */
import { parseUrl } from './parse.ts';

export const DEFAULT_AFTER_LOGIN = '/account';
export const DEFAULT_AFTER_LOGOUT = '/';

const BASE = 'http://trove.invalid';

/**
 * The normalised form of `location` when it is a path of this site. A path starts with exactly one
 * '/' followed by neither '/' nor '\' (browsers read '//host' and '/\host' as another host), has no
 * control characters or backslashes (browsers drop tabs and newlines and some turn '\' into '/'), and,
 * resolved against a dummy origin, stays on it. Encoded slashes or backslashes in the path
 * ('/%2F%2Fevil.com') are refused too: harmless here, but a proxy or a later redirect that decodes them
 * once would see '//evil.com'.
 */
function sitePath(location: string): string | undefined {
  if (location.length === 0 || location.length > 2048) return undefined;
  if (!location.startsWith('/') || location.startsWith('//')) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(location)) return undefined;
  if (/%(2f|5c)/i.test(location.split(/[?#]/)[0])) return undefined;
  const resolved = parseUrl(location, BASE);
  return resolved?.origin === BASE ? resolved.pathname + resolved.search + resolved.hash : undefined;
}

/**
 * `location` when it is a path of this site, else `fallback`. What is returned passes the same rules
 * again unchanged: normalising dot segments can itself make a '//host' ('/.//evil.com',
 * '/%2e%2e//evil.com' and '/x/..//evil.com' all resolve to the path '//evil.com', which a browser
 * reads as another host), so a location is only kept when its normalised form is a fixed point.
 */
export function safeLocation(location: string | null | undefined, fallback: string = DEFAULT_AFTER_LOGIN): string {
  if (typeof location !== 'string') return fallback;
  const normalised = sitePath(location);
  return normalised !== undefined && sitePath(normalised) === normalised ? normalised : fallback;
}
