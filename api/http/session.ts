/**
 * Who is asking, and whether an unsafe request may be trusted.
 *
 * Sessions: the `session` cookie holds a random token; the server keeps only its sha256 (the sessions
 * table), so a leaked database cannot be replayed as cookies.
 *
 * CSRF: a browser request that carries the session cookie and an unsafe method must come from a page of
 * this site. Browsers say where a request comes from in Sec-Fetch-Site, or else in Origin (every
 * modern browser sends it on POST/PUT/PATCH/DELETE), or else Referer. A request with none of them is
 * not from a browser page (curl, a downloader) and cannot be forged by another site, so it passes.
 */
import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { getSessionAccount } from '../data/sessions.ts';
import type { Account, Role } from '../data/accounts.ts';
import type { Store } from '../data/store.ts';
import { readCookie } from '@shared/cookies.ts';
import { parseUrl } from '@shared/parse.ts';

export const SESSION_COOKIE = 'session';

/** Who may call a route. Each level includes the ones after it: administrators may do what moderators may. */
export type Access = 'public' | 'account' | 'moderator' | 'administrator';

const RANK: Record<Role, number> = { consumer: 1, moderator: 2, administrator: 3 };
const REQUIRED_RANK: Record<Access, number> = { public: 0, account: 1, moderator: 2, administrator: 3 };

export function hashSessionToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export function newSessionToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** The signed-in account of a request's session cookie, or null (no cookie, unknown or expired session). */
export async function sessionAccount(db: Store, headers: IncomingHttpHeaders): Promise<Account | null> {
  const token = readCookie(headers.cookie, SESSION_COOKIE);
  if (!token || token.length > 200) return null;
  return (await getSessionAccount(db, hashSessionToken(token))) ?? null;
}

export function hasSessionCookie(headers: IncomingHttpHeaders): boolean {
  return readCookie(headers.cookie, SESSION_COOKIE) !== undefined;
}

/** The route-guard messages (docs/product.md#route-guards): for a guest, and for an account without the role. */
export const MUST_REGISTER = 'You must be registered to access this page.';
export function accessDeniedMessage(access: Access): string {
  return access === 'administrator'
    ? 'Account is not administrator.'
    : access === 'moderator'
      ? 'Account is not moderator.'
      : MUST_REGISTER;
}

export function allows(access: Access, account: Account | null): boolean {
  if (access === 'public') return true;
  return account !== null && RANK[account.role] >= REQUIRED_RANK[access];
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function hostOf(url: string): string | undefined {
  return parseUrl(url)?.host;
}

/**
 * Whether an unsafe request from a cookie session came from this site. Origin and Referer are compared
 * by host with the Host header the request was sent to (behind a TLS proxy the scheme seen here differs).
 */
export function passesCsrfCheck(method: string, headers: IncomingHttpHeaders): boolean {
  if (SAFE_METHODS.has(method.toUpperCase()) || !hasSessionCookie(headers)) return true;
  return cameFromThisSite(headers);
}

export const CSRF_MESSAGE = 'This request did not come from this site (CSRF check failed).';

/**
 * Whether a request came from this site's pages, or from no page at all (no Sec-Fetch-Site, Origin or
 * Referer). Login and registration ask it even without a session cookie: another site must not sign a
 * visitor into an account of its choosing.
 */
export function cameFromThisSite(headers: IncomingHttpHeaders): boolean {
  const fetchSite = headers['sec-fetch-site'];
  if (typeof fetchSite === 'string') return fetchSite === 'same-origin' || fetchSite === 'none';
  const host = headers.host;
  const origin = headers.origin;
  if (typeof origin === 'string') return host !== undefined && hostOf(origin) === host;
  const referer = headers.referer;
  if (typeof referer === 'string') return host !== undefined && hostOf(referer) === host;
  return true;
}
