/**
 * The administrators' imports dashboard (docs/product.md#imports-dashboard): rendered on demand for
 * administrators only, with the API's filters, offsets and messages. Server side only.
 */
import type { SiteDeps } from './deps.ts';
import { countAdminImports, listAdminImports } from '@api/data/imports-admin.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { paginate } from '@shared/pagination.ts';
import { importsFilterSchema } from '@shared/validation/imports-admin.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { requireAccess } from './account.ts';
import { badRequest, notFound, ok } from './outcome.ts';

export async function loadAdminImports(deps: SiteDeps, request: Request, search: URLSearchParams) {
  const access = await requireAccess(deps, request, 'administrator');
  if (access.kind !== 'ok') return access;
  const filter = importsFilterSchema.safeParse({
    o: search.get('o') ?? undefined,
    state: search.get('state') ?? undefined,
    service: search.get('service') ?? undefined,
  });
  if (!filter.success) return badRequest(firstIssueMessage(filter.error));
  const { o, ...rest } = filter.data;
  const total = await countAdminImports(deps.db, rest);
  // Past the last page is a 404, like the other listings; the first page of nothing says so.
  if (o > 0 && o >= total) return notFound;
  return ok({
    filter: rest,
    imports: await listAdminImports(deps.db, rest, { offset: o, limit: PAGE_SIZE }),
    pagination: paginate(total, o),
  });
}
