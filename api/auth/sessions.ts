/**
 * Starting and ending sessions for the login, registration, logout and password-change routes. A
 * session is always a fresh random token made here: a token the client brings is never adopted
 * (no fixation), and the one it brought is deleted server-side when a new one is issued.
 */
import type { Request, Response } from 'express';
import { createSession, deleteSession, purgeExpiredSessions } from '../data/sessions.ts';
import { purgeExpiredRateLimits } from '../data/rate-limits.ts';
import type { Store } from '../data/store.ts';
import { SESSION_DAYS } from '@shared/constants.ts';
import { hashSessionToken, newSessionToken, SESSION_COOKIE } from '../http/session.ts';
import { readCookie } from '@shared/cookies.ts';

const SESSION_SECONDS = SESSION_DAYS * 24 * 3600;

/** https as the browser sees it: a TLS socket, or a proxy saying so in X-Forwarded-Proto. */
export function isHttps(req: Request): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const proto = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}

function cookie(req: Request, value: string, maxAge: number): string {
  const parts = [`${SESSION_COOKIE}=${value}`, 'Path=/', `Max-Age=${maxAge}`, 'HttpOnly', 'SameSite=Lax'];
  if (isHttps(req)) parts.push('Secure');
  return parts.join('; ');
}

/** Deletes the session of the request's cookie, if there is one. */
export async function endRequestSession(db: Store, req: Request): Promise<void> {
  const token = readCookie(req.headers.cookie, SESSION_COOKIE);
  if (token && token.length <= 200) await deleteSession(db, hashSessionToken(token));
}

/** Issues a new session for `accountId` (after deleting the request's old one) and sets its cookie. */
export async function startSession(db: Store, req: Request, res: Response, accountId: number): Promise<void> {
  await endRequestSession(db, req);
  await purgeExpiredSessions(db);
  await purgeExpiredRateLimits(db);
  const token = newSessionToken();
  const expires = new Date(Date.now() + SESSION_SECONDS * 1000).toISOString().slice(0, 19);
  await createSession(db, { token_hash: hashSessionToken(token), account_id: accountId, expires_at: expires });
  res.append('Set-Cookie', cookie(req, token, SESSION_SECONDS));
}

/** Tells the browser to forget the session cookie. */
export function clearSessionCookie(req: Request, res: Response): void {
  res.append('Set-Cookie', cookie(req, '', 0));
}
