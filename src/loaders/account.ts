/**
 * Pages for signed-in accounts (rendered on demand, never stored): the account of the request's session
 * cookie, checked with the same rules as the API (api/http/session.ts), so a page and its API agree.
 * Server side only.
 */
import type { SiteDeps } from './deps.ts';
import type { IncomingHttpHeaders } from 'node:http';
import { accessDeniedMessage, allows, sessionAccount, type Access } from '@api/http/session.ts';
import type { Account } from '@api/data/accounts.ts';
import { denied, ok, type PageOutcome } from './outcome.ts';

function nodeHeaders(request: Request): IncomingHttpHeaders {
  return { cookie: request.headers.get('cookie') ?? undefined };
}

/** The signed-in account, or null. */
export async function pageAccount(deps: SiteDeps, request: Request): Promise<Account | null> {
  return await sessionAccount(deps.db, nodeHeaders(request));
}

/** The account when it may see a page of `access`; else 401 (guest) or 403 with the spec's message. */
export async function requireAccess(
  deps: SiteDeps,
  request: Request,
  access: Exclude<Access, 'public'>,
): Promise<PageOutcome<{ account: Account }>> {
  const account = await pageAccount(deps, request);
  if (!account) return denied(401, accessDeniedMessage('account'));
  if (!allows(access, account)) return denied(403, accessDeniedMessage(access));
  return ok({ account });
}
