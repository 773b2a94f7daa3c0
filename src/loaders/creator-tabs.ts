/**
 * Loaders of the creator tabs that are not posts: announcements, fancards, linked accounts and DMs.
 * Each resolves the creator the same way as the posts tab (public_id redirects, discord to its server).
 */
import type { SiteDeps } from './deps.ts';
import { linkedCreators } from '@api/data/creators.ts';
import { listAnnouncements } from '@api/data/announcements.ts';
import { listFancards } from '@api/data/fancards.ts';
import { countCreatorDms, listCreatorDms } from '@api/data/dms.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { paginate } from '@shared/pagination.ts';
import { hasTab } from '@shared/paysites/index.ts';
import { creatorTabUrl } from '@shared/urls.ts';
import { pastTheEnd, resolveCreator } from './archive.ts';
import { badRequest, notFound, ok, readOffset } from './outcome.ts';

type Params = { service?: string; id?: string };

export async function loadAnnouncements(deps: SiteDeps, params: Params) {
  const resolved = await resolveCreator(deps, params.service, params.id, '/announcements');
  if (resolved.kind !== 'ok') return resolved;
  const { creator, service } = resolved.data;
  if (!hasTab('announcements', service)) return notFound;
  return ok({ creator, service, announcements: await listAnnouncements(deps.db, service, creator.id) });
}

export async function loadFancards(deps: SiteDeps, params: Params) {
  if (params.service && params.service !== 'fanbox' && params.id) return badRequest('Service must be "fanbox".');
  const resolved = await resolveCreator(deps, params.service, params.id, '/fancards');
  if (resolved.kind !== 'ok') return resolved;
  const { creator, service } = resolved.data;
  return ok({ creator, service, fancards: await listFancards(deps.db, service, creator.id) });
}

export async function loadLinks(deps: SiteDeps, params: Params) {
  const resolved = await resolveCreator(deps, params.service, params.id, '/links');
  if (resolved.kind !== 'ok') return resolved;
  const { creator, service } = resolved.data;
  return ok({ creator, service, links: await linkedCreators(deps.db, service, creator.id) });
}

export async function loadCreatorDms(deps: SiteDeps, params: Params, search: URLSearchParams) {
  const offset = readOffset(search.get('o'));
  if ('error' in offset) return badRequest(offset.error);
  const resolved = await resolveCreator(deps, params.service, params.id, '/dms');
  if (resolved.kind !== 'ok') return resolved;
  const { creator, service } = resolved.data;
  const db = deps.db;
  const count = await countCreatorDms(db, service, creator.id);
  if (pastTheEnd(offset.offset, count)) return notFound;
  return ok({
    creator,
    service,
    dms: await listCreatorDms(db, service, creator.id, offset.offset, PAGE_SIZE),
    pagination: paginate(count, offset.offset),
    baseUrl: creatorTabUrl(service, creator.id, 'dms'),
  });
}
