/**
 * Where the login page may send the visitor afterwards (SPEC.md: login `location`, same-origin paths
 * only). Browser-safe; used by the login page (server) and its island.
 */
export const DEFAULT_AFTER_LOGIN = '/account';
export const DEFAULT_AFTER_LOGOUT = '/';

/**
 * `location` when it is a path of this site, else `fallback`. A path starts with exactly one '/'
 * followed by neither '/' nor '\' (browsers read '//host' and '/\host' as another host), has no
 * control characters or backslashes (some browsers turn '\' into '/'), and, resolved against a dummy
 * origin, stays on it. Encoded slashes or backslashes in the path ('/%2F%2Fevil.com') are refused too:
 * harmless here, but a proxy or a later redirect that decodes them once would see '//evil.com'.
 */
export function safeLocation(location: string | null | undefined, fallback: string = DEFAULT_AFTER_LOGIN): string {
  if (typeof location !== 'string' || location.length === 0 || location.length > 2048) return fallback;
  if (!location.startsWith('/') || location.startsWith('//')) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(location)) return fallback;
  if (/%(2f|5c)/i.test(location.split(/[?#]/)[0])) return fallback;
  try {
    const base = 'http://trove.invalid';
    const resolved = new URL(location, base);
    if (resolved.origin !== base) return fallback;
    return resolved.pathname + resolved.search + resolved.hash;
  } catch {
    return fallback;
  }
}
