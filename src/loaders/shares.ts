/**
 * Loaders of the share pages ('Filehaus'): the global list, one share, a creator's Uploads tab, and
 * the upload page's creator. Server side only.
 */
import type { SiteDeps } from './deps.ts';
import { countCreatorShares, countShares, getShare, listCreatorShares, listShares, type Share } from '@api/data/shares.ts';
import { findCreator } from '@api/data/creators.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { paginate } from '@shared/pagination.ts';
import { isPaysite } from '@shared/paysites/index.ts';
import { creatorTabUrl, fileUrl } from '@shared/urls.ts';
import { badRequest, notFound, ok, readOffset } from './outcome.ts';
import { pastTheEnd, resolveCreator } from './archive.ts';

/** How much of a description a list shows. */
export const SHARE_EXCERPT_CHARS = 200;

export interface ShareListItem extends Share {
  excerpt: string;
}

function excerpt(text: string): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length <= SHARE_EXCERPT_CHARS ? chars.join('') : `${chars.slice(0, SHARE_EXCERPT_CHARS).join('')}…`;
}

const withExcerpts = (shares: Share[]): ShareListItem[] => shares.map((share) => ({ ...share, excerpt: excerpt(share.description) }));

export async function loadShares(deps: SiteDeps, search: URLSearchParams) {
  const offset = readOffset(search.get('o'));
  if ('error' in offset) return badRequest(offset.error);
  const db = deps.db;
  const total = await countShares(db);
  if (pastTheEnd(offset.offset, total)) return notFound;
  return ok({
    shares: withExcerpts(await listShares(db, offset.offset, PAGE_SIZE)),
    pagination: paginate(total, offset.offset),
    baseUrl: '/shares',
  });
}

export async function loadShare(deps: SiteDeps, params: { id?: string }) {
  const raw = params.id?.trim();
  if (!raw) return badRequest('Share ID is required.');
  if (!/^[1-9]\d{0,14}$/.test(raw)) return notFound;
  const found = await getShare(deps.db, Number(raw));
  if (!found) return notFound;
  const { imageHost } = deps.config;
  const files = found.share_files.map((file) => ({
    filename: file.filename,
    // A file known only by its original address (no stored copy) links there.
    href: file.path ? fileUrl(imageHost, file.path, file.filename) : file.upload_url,
  }));
  return ok({ share: found.share, files });
}

export async function loadCreatorShares(deps: SiteDeps, params: { service?: string; id?: string }, search: URLSearchParams) {
  const resolved = await resolveCreator(deps, params.service, params.id, '/shares');
  if (resolved.kind !== 'ok') return resolved;
  const { creator, service } = resolved.data;
  const offset = readOffset(search.get('o'));
  if ('error' in offset) return badRequest(offset.error);
  const db = deps.db;
  const total = await countCreatorShares(db, service, creator.id);
  if (pastTheEnd(offset.offset, total)) return notFound;
  return ok({
    creator,
    service,
    shares: withExcerpts(await listCreatorShares(db, service, creator.id, offset.offset, PAGE_SIZE)),
    pagination: paginate(total, offset.offset),
    baseUrl: creatorTabUrl(service, creator.id, 'shares'),
  });
}

/** The upload page's query (service, user): the creator to prefill, when it names one that exists. */
export async function loadUploadTarget(deps: SiteDeps, search: URLSearchParams) {
  const service = search.get('service')?.trim() ?? '';
  const user = search.get('user')?.trim() ?? '';
  const creator = isPaysite(service) && user ? await findCreator(deps.db, service, user) : undefined;
  return {
    service: isPaysite(service) ? service : '',
    user: creator?.id ?? user,
    creatorName: creator?.name ?? null,
  };
}
