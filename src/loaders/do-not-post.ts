/**
 * The administrators' do-not-post page (docs/product.md#takedowns-on-the-site): the entries, newest
 * first, 50 a page by `o`, each with the URL it removed and the name of the administrator who added it.
 * Rendered on demand, administrators only (the same rule as the API). Server side only.
 */
import type { SiteDeps } from './deps.ts';
import { countDoNotPost, listDoNotPost, type DoNotPostEntry } from '@api/data/do-not-post.ts';
import { getAccount } from '@api/data/accounts.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { paginate } from '@shared/pagination.ts';
import { creatorPageUrl, postUrl } from '@shared/urls.ts';
import { requireAccess } from './account.ts';
import { pastTheEnd } from './archive.ts';
import { badRequest, notFound, ok, readOffset } from './outcome.ts';

export interface DoNotPostRow extends DoNotPostEntry {
  /** The page it removed (it answers 410 while the entry stands). */
  url: string;
  /** The administrator's name; null when the account is gone. */
  addedByName: string | null;
}

export async function loadDoNotPost(deps: SiteDeps, request: Request, search: URLSearchParams) {
  const access = await requireAccess(deps, request, 'administrator');
  if (access.kind !== 'ok') return access;
  const offset = readOffset(search.get('o'));
  if ('error' in offset) return badRequest(offset.error);
  const db = deps.db;
  const total = await countDoNotPost(db);
  if (pastTheEnd(offset.offset, total)) return notFound;
  const names = new Map<number, string | null>();
  const nameOf = async (id: number | null) => {
    if (id === null) return null;
    if (!names.has(id)) names.set(id, (await getAccount(db, id))?.username ?? null);
    return names.get(id) ?? null;
  };
  const entries: DoNotPostRow[] = [];
  for (const entry of await listDoNotPost(db, { offset: offset.offset, limit: PAGE_SIZE }))
    entries.push({
      ...entry,
      url:
        entry.post_id === null ? creatorPageUrl(entry.service, entry.creator_id) : postUrl(entry.service, entry.creator_id, entry.post_id),
      addedByName: await nameOf(entry.added_by),
    });
  return ok({ entries, pagination: paginate(total, offset.offset) });
}
