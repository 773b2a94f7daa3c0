/**
 * Loaders of the link request form, the moderators' reviews (link requests, flagged posts) and the
 * administrators' account pages.
 * All are rendered on demand (they depend on the signed-in account) with the API's rules and messages.
 * Server side only.
 */
import type { SiteDeps } from './deps.ts';
import { countAccounts, getAccount, listAccounts } from '@api/data/accounts.ts';
import { listPendingLinkRequests } from '@api/data/links.ts';
import { countFlaggedPosts, listFlaggedPosts } from '@api/data/flags.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { paginate } from '@shared/pagination.ts';
import { accountId, accountsFilterSchema } from '@shared/validation/administration.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { offset, pageNumber } from '@shared/validation/params.ts';
import { resolveCreator } from './archive.ts';
import { requireAccess } from './account.ts';
import { badRequest, notFound, ok } from './outcome.ts';

type Params = { service?: string; id?: string };

/** The link form of a creator; `prefix` is '/account' when reached through that path. */
export async function loadLinkForm(deps: SiteDeps, request: Request, params: Params, prefix: '' | '/account') {
  const access = await requireAccess(deps, request, 'account');
  if (access.kind !== 'ok') return access;
  const resolved = await resolveCreator(deps, params.service, params.id, '/links/new');
  if (resolved.kind === 'redirect') return { ...resolved, location: prefix + resolved.location };
  return resolved;
}

export async function loadLinkRequests(deps: SiteDeps, request: Request) {
  const access = await requireAccess(deps, request, 'moderator');
  if (access.kind !== 'ok') return access;
  return ok({ requests: await listPendingLinkRequests(deps.db) });
}

/** The flagged posts, page `o` (an offset, as the API takes it). */
export async function loadFlaggedPosts(deps: SiteDeps, request: Request, search: URLSearchParams) {
  const access = await requireAccess(deps, request, 'moderator');
  if (access.kind !== 'ok') return access;
  const parsed = offset.safeParse(search.get('o') ?? undefined);
  if (!parsed.success) return badRequest(firstIssueMessage(parsed.error));
  const total = await countFlaggedPosts(deps.db);
  if (parsed.data > 0 && parsed.data >= total) return notFound;
  return ok({
    posts: await listFlaggedPosts(deps.db, { offset: parsed.data, limit: PAGE_SIZE }),
    pagination: paginate(total, parsed.data),
  });
}

export async function loadAccounts(deps: SiteDeps, request: Request, params: { page?: string }, search: URLSearchParams) {
  const access = await requireAccess(deps, request, 'administrator');
  if (access.kind !== 'ok') return access;
  const page = pageNumber.safeParse(params.page);
  if (!page.success) return badRequest(firstIssueMessage(page.error));
  const filter = accountsFilterSchema.safeParse({ name: search.get('name') ?? undefined, role: search.get('role') ?? undefined });
  if (!filter.success) return badRequest(firstIssueMessage(filter.error));
  const db = deps.db;
  const count = await countAccounts(db, filter.data);
  const offset = (page.data - 1) * PAGE_SIZE;
  // Past the last page is a 404, like the archive listings; page 1 of nothing shows 'No accounts found.'
  if (page.data > 1 && offset >= count) return notFound;
  return ok({
    me: access.data.account,
    filter: filter.data,
    accounts: await listAccounts(db, { ...filter.data, offset, limit: PAGE_SIZE }),
    pagination: paginate(count, offset),
  });
}

export async function loadAccount(deps: SiteDeps, request: Request, params: { id?: string }) {
  const access = await requireAccess(deps, request, 'administrator');
  if (access.kind !== 'ok') return access;
  const id = accountId.safeParse(params.id);
  if (!id.success) return badRequest(firstIssueMessage(id.error));
  const account = await getAccount(deps.db, id.data);
  return account ? ok({ me: access.data.account, account }) : notFound;
}
