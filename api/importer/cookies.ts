/**
 * The cookies of one import's conversation with a paysite: sites that keep their session in cookies
 * rotate them (Laravel re-encrypts its session on every answer, Rails hands out a CSRF-bound session,
 * DLsite sets its Play cookie through a chain of redirects), so the client keeps what the credential
 * hosts set and sends it back to them. Kept in memory for the import only; never logged or stored.
 */
import { CookieJar } from 'tough-cookie';

export { CookieJar };

/** A jar holding the session key as the cookie `name` of the paysite's base URL (host-only, path /). */
export function jarWithSessionCookie(baseUrl: string, name: string, value: string): CookieJar {
  const jar = new CookieJar(undefined, { rejectPublicSuffixes: false, allowSpecialUseDomain: true, looseMode: true });
  jar.setCookieSync(`${name}=${value}; Path=/`, baseUrl, { ignoreError: true });
  return jar;
}

/** The Cookie header the jar holds for a URL, or undefined. */
export function cookieHeaderFor(jar: CookieJar, url: URL): string | undefined {
  const header = jar.getCookieStringSync(url.toString());
  return header || undefined;
}

/** Keeps the cookies an answer sets (malformed ones are dropped, as a browser drops them). */
export function keepSetCookies(jar: CookieJar, url: URL, setCookie: string[] | undefined): void {
  for (const line of setCookie ?? []) jar.setCookieSync(line, url.toString(), { ignoreError: true });
}

/** A cookie's current value, e.g. an XSRF token the site wants echoed in a header. */
export function cookieValue(jar: CookieJar, url: string, name: string): string | undefined {
  return jar.getCookiesSync(url).find((cookie) => cookie.key === name)?.value;
}
