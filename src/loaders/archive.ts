/**
 * Loaders of the archive pages: each takes the route's parameters and returns what the page renders,
 * or a redirect / not-found / bad-request outcome. Server side only.
 */
import type { SiteDeps } from './deps.ts';
import { type Creator, getCreatorByPublicId, getCreatorUnlessListed, listCreatorsUpdated, countCreators } from '@api/data/creators.ts';
import { countCreatorPosts, countPosts, listCreatorPosts, listRecentPosts } from '@api/data/posts.ts';
import { listAllTags, listCreatorTags } from '@api/data/tags.ts';
import { searchPosts } from '@api/data/post-search.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { postsSearchQuery } from '@shared/validation/listings.ts';
import { isPaysite, type Paysite } from '@shared/paysites/index.ts';
import { paginate } from '@shared/pagination.ts';
import { creatorUrl, discordServerUrl } from '@shared/urls.ts';
import { GLOBAL_LISTING_STORED_PAGES } from '@api/pages/keys.ts';
import { pageOfPosts, readCursor, type PostsPage } from './paging.ts';
import { badRequest, gone, notFound, ok, readOffset, redirect, type PageOutcome } from './outcome.ts';
import { GONE_MESSAGES } from '@shared/error-page.ts';

/** The creator of a creator-page URL, a redirect from its public id, 410 for a removed one, or the guard messages. */
export async function resolveCreator(
  deps: SiteDeps,
  service: string | undefined,
  id: string | undefined,
  subpath = '',
): Promise<PageOutcome<{ creator: Creator; service: Paysite }>> {
  if (!service) return badRequest('Service name is required.');
  if (!id) return badRequest('Artist ID is required.');
  if (!isPaysite(service)) return notFound;
  const db = deps.db;
  const { listed, creator } = await getCreatorUnlessListed(db, service, id);
  // Removed at its owner's request: 410 on every page of it while the entry stands, even if the row came back.
  if (listed) return gone(GONE_MESSAGES.creator);
  if (creator) return ok({ creator, service });
  const byPublicId = await getCreatorByPublicId(db, service, id);
  if (byPublicId && byPublicId.id !== id) return redirect(creatorUrl(service, byPublicId.id) + subpath);
  return notFound;
}

interface SearchFilter {
  q: string;
  tags: string[];
}

/** `q` (at least 2 characters) and repeated `tag` parameters, validated by the shared rules. */
function readSearch(search: URLSearchParams): SearchFilter | { error: string } {
  const parsed = postsSearchQuery.safeParse(search.get('q') ?? undefined);
  if (!parsed.success) return { error: firstIssueMessage(parsed.error) };
  return {
    q: parsed.data ?? '',
    tags: search
      .getAll('tag')
      .map((tag) => tag.trim())
      .filter(Boolean),
  };
}

/**
 * The count a search's paginator shows. Search counts stop at SEARCH_COUNT_LIMIT; past it, a full
 * page promises one more page, so a visitor can always go on while results last.
 */
function searchTotal(found: { count: number; capped: boolean }, page: PostsPage, offset: number): number {
  if (!found.capped) return found.count;
  const more = page.next ? PAGE_SIZE : 0;
  return Math.max(found.count, offset + page.posts.length + more);
}

/** A listing URL that keeps the search, for the paginator's links. */
function searchUrl(base: string, filter: SearchFilter): string {
  const params = new URLSearchParams();
  if (filter.q) params.set('q', filter.q);
  for (const tag of filter.tags) params.append('tag', tag);
  return `${base}?${params}`;
}

/** Listing pages past the last one do not exist (the API answers [] there; a page answers 404). */
export function pastTheEnd(offset: number, total: number): boolean {
  return offset > 0 && offset >= total;
}

export async function loadCreatorPosts(deps: SiteDeps, params: { service?: string; id?: string }, search: URLSearchParams) {
  const resolved = await resolveCreator(deps, params.service, params.id);
  if (resolved.kind !== 'ok') return resolved;
  const { creator, service } = resolved.data;
  if (service === 'discord') return redirect(discordServerUrl(creator.id));
  const offset = readOffset(search.get('o'));
  if ('error' in offset) return badRequest(offset.error);
  const cursor = readCursor('creator', search.get('after'));
  if ('error' in cursor) return badRequest(cursor.error);
  const db = deps.db;
  const baseUrl = creatorUrl(service, creator.id);
  const filter = readSearch(search);
  if ('error' in filter) return badRequest(filter.error);
  if (filter.q || filter.tags.length > 0) {
    const url = searchUrl(baseUrl, filter);
    let found = { count: 0, capped: false };
    const page = await pageOfPosts(db, 'creator', url, offset.offset, cursor.after, async (o, limit, after) => {
      const result = await searchPosts(db, {
        q: filter.q,
        tag: filter.tags,
        service,
        user: creator.id,
        offset: o,
        limit,
        creatorAfter: after,
      });
      found = result;
      return result.posts;
    });
    return ok({
      creator,
      service,
      ...page,
      pagination: paginate(searchTotal(found, page, offset.offset), offset.offset),
      baseUrl: url,
      filter,
    });
  }
  const total = await countCreatorPosts(db, service, creator.id);
  if (!cursor.after && pastTheEnd(offset.offset, total)) return notFound;
  const page = await pageOfPosts(db, 'creator', baseUrl, offset.offset, cursor.after, (o, limit, after) =>
    listCreatorPosts(db, service, creator.id, o, limit, after),
  );
  return ok({ creator, service, ...page, pagination: paginate(total, offset.offset), baseUrl, filter });
}

export async function loadCreatorTags(deps: SiteDeps, params: { service?: string; id?: string }) {
  const resolved = await resolveCreator(deps, params.service, params.id, '/tags');
  if (resolved.kind !== 'ok') return resolved;
  const { creator, service } = resolved.data;
  return ok({ creator, service, tags: await listCreatorTags(deps.db, service, creator.id), baseUrl: creatorUrl(service, creator.id) });
}

export async function loadRecentPosts(deps: SiteDeps, search: URLSearchParams) {
  const offset = readOffset(search.get('o'));
  if ('error' in offset) return badRequest(offset.error);
  const cursor = readCursor('archive', search.get('after'));
  if ('error' in cursor) return badRequest(cursor.error);
  const db = deps.db;
  const filter = readSearch(search);
  if ('error' in filter) return badRequest(filter.error);
  if (filter.q || filter.tags.length > 0) {
    const url = searchUrl('/posts', filter);
    let found = { count: 0, capped: false };
    const page = await pageOfPosts(db, 'archive', url, offset.offset, cursor.after, async (o, limit, after) => {
      const result = await searchPosts(db, { q: filter.q, tag: filter.tags, offset: o, limit, archiveAfter: after });
      found = result;
      return result.posts;
    });
    return ok({ ...page, pagination: paginate(searchTotal(found, page, offset.offset), offset.offset), baseUrl: url, filter });
  }
  const total = await countPosts(db);
  if (!cursor.after && pastTheEnd(offset.offset, total)) return notFound;
  const page = await pageOfPosts(db, 'archive', '/posts', offset.offset, cursor.after, (o, limit, after) =>
    listRecentPosts(db, o, limit, after),
  );
  return ok({ ...page, pagination: paginate(total, offset.offset), baseUrl: '/posts', filter });
}

export async function loadUpdatedCreators(deps: SiteDeps, search: URLSearchParams) {
  const offset = readOffset(search.get('o'));
  if ('error' in offset) return badRequest(offset.error);
  const db = deps.db;
  // "Latest cached updated creators": the list is bounded like the other global listings.
  const total = Math.min(await countCreators(db), GLOBAL_LISTING_STORED_PAGES * PAGE_SIZE);
  if (pastTheEnd(offset.offset, total)) return notFound;
  const creators = await listCreatorsUpdated(db, offset.offset, PAGE_SIZE);
  return ok({ creators, pagination: paginate(total, offset.offset) });
}

export async function loadAllTags(deps: SiteDeps) {
  return ok({ tags: await listAllTags(deps.db) });
}
