/** The artists list (/artists): the query validated by the shared rules, the page from shared/artists.ts. */
import type { SiteDeps } from './deps.ts';
import { listAllCreators, type CreatorListItem } from '@api/data/creators.ts';
import { lastChangeId } from '@api/data/changes.ts';
import type { Store } from '@api/data/store.ts';
import { artistsPage, artistsUrl, sortArtists, type ArtistsQuery } from '@shared/artists.ts';
import { paginate } from '@shared/pagination.ts';
import { artistsQuerySchema } from '@shared/validation/listings.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { pastTheEnd } from './archive.ts';
import { badRequest, notFound, ok } from './outcome.ts';

/** Favourite counts change without a change-log row (as in the creators.txt cache of the API). */
const LIST_MAX_AGE_MS = 10 * 60 * 1000;

interface ListCache {
  changeId: number;
  at: number;
  creators: CreatorListItem[];
  /** Sorted copies by "sort_by order": a rebuild renders 20 pages of one order from one sort. */
  sorted: Map<string, CreatorListItem[]>;
}

const caches = new WeakMap<Store, ListCache>();

async function creatorList(db: Store): Promise<ListCache> {
  const changeId = await lastChangeId(db);
  const hit = caches.get(db);
  if (hit && hit.changeId === changeId && Date.now() - hit.at < LIST_MAX_AGE_MS) return hit;
  const fresh = { changeId, at: Date.now(), creators: await listAllCreators(db), sorted: new Map() };
  caches.set(db, fresh);
  return fresh;
}

function sortedList(cache: ListCache, query: ArtistsQuery): CreatorListItem[] {
  const key = `${query.sort_by} ${query.order}`;
  let sorted = cache.sorted.get(key);
  if (!sorted) {
    sorted = sortArtists(cache.creators, query.sort_by, query.order);
    cache.sorted.set(key, sorted);
  }
  return sorted;
}

/** Every parameter as its list of values: the shared rules take the first of a repeated one. */
export function paramsObject(search: URLSearchParams): Record<string, string[]> {
  return Object.fromEntries([...new Set(search.keys())].map((name) => [name, search.getAll(name)]));
}

export async function loadArtists(deps: SiteDeps, search: URLSearchParams) {
  const parsed = artistsQuerySchema.safeParse(paramsObject(search));
  if (!parsed.success) return badRequest(firstIssueMessage(parsed.error));
  const query: ArtistsQuery = parsed.data;
  const cache = await creatorList(deps.db);
  const { creators, total } = artistsPage(sortedList(cache, query), query, true);
  if (pastTheEnd(query.o, total)) return notFound;
  return ok({ query, creators, pagination: paginate(total, query.o), baseUrl: artistsUrl({ ...query, o: 0 }) });
}
