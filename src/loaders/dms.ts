/** The global DMs page (/dms): approved DMs of every creator, newest first, searchable (q of 3+). */
import type { SiteDeps } from './deps.ts';
import { countDms, listDms } from '@api/data/dms.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { paginate } from '@shared/pagination.ts';
import { dmsSearchQuery } from '@shared/validation/dms.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { pastTheEnd } from './archive.ts';
import { badRequest, notFound, ok, readOffset } from './outcome.ts';

export async function loadDms(deps: SiteDeps, search: URLSearchParams) {
  const offset = readOffset(search.get('o'));
  if ('error' in offset) return badRequest(offset.error);
  const parsed = dmsSearchQuery.safeParse(search.get('q') ?? undefined);
  if (!parsed.success) return badRequest(firstIssueMessage(parsed.error));
  const q = parsed.data ?? '';
  const db = deps.db;
  const count = await countDms(db, { q });
  if (pastTheEnd(offset.offset, count)) return notFound;
  return ok({
    q,
    dms: await listDms(db, { q, offset: offset.offset, limit: PAGE_SIZE }),
    pagination: paginate(count, offset.offset),
    baseUrl: q ? `/dms?${new URLSearchParams({ q })}` : '/dms',
  });
}
