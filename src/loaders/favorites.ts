/**
 * The favourites pages (/account/favorites/artists and /posts), rendered on demand. A guest gets the
 * page without items (`guest: true`): the island shows the device list (docs/product.md#guest-favourites).
 * The first page is sorted on the server by the same function the island uses (shared/favorites-sort.ts),
 * so the page works without JavaScript and the island re-sorts without a reload. Server side only.
 */
import type { SiteDeps } from './deps.ts';
import { listFavoriteCreators, listFavoritePosts } from '@api/data/favorites.ts';
import { favoritesPage, favoritesUrl, type FavoritesKind, type FavoritesQuery } from '@shared/favorites-sort.ts';
import { paginate } from '@shared/pagination.ts';
import { favoriteCreatorsQuerySchema, favoritePostsQuerySchema } from '@shared/validation/favorites.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { requireAccess } from './account.ts';
import { paramsObject } from './artists.ts';
import { badRequest, ok, redirect } from './outcome.ts';

/** /favorites and /account/favorites open the favourite profiles. */
export const favoritesRedirect = () => redirect('/account/favorites/artists', 302);

function readQuery(kind: FavoritesKind, search: URLSearchParams) {
  const schema = kind === 'artists' ? favoriteCreatorsQuerySchema : favoritePostsQuerySchema;
  return schema.safeParse(paramsObject(search));
}

export type FavoritesPageData = Extract<Awaited<ReturnType<typeof loadFavorites>>, { kind: 'ok' }>['data'];

/**
 * The account's favourites of one kind, one page sorted; for a guest, the query and no items. A bad
 * sort_by or order is the spec's 400.
 */
export async function loadFavorites(deps: SiteDeps, kind: FavoritesKind, request: Request, search: URLSearchParams) {
  const access = await requireAccess(deps, request, 'account');
  if (access.kind === 'denied' && access.status === 403) return access;
  const parsed = readQuery(kind, search);
  if (!parsed.success) return badRequest(firstIssueMessage(parsed.error));
  const query: FavoritesQuery<string> = parsed.data;
  if (access.kind !== 'ok') {
    return ok({
      guest: true,
      query,
      baseUrl: favoritesUrl(kind, { ...query, o: 0 }),
      creators: [],
      posts: [],
      pagination: paginate(0, query.o),
    });
  }
  const db = deps.db;
  const accountId = access.data.account.id;
  const creators = kind === 'artists' ? favoritesPage(kind, await listFavoriteCreators(db, accountId), query) : undefined;
  const posts = kind === 'posts' ? favoritesPage(kind, await listFavoritePosts(db, accountId), query) : undefined;
  return ok({
    guest: false,
    query,
    baseUrl: favoritesUrl(kind, { ...query, o: 0 }),
    creators: creators?.items ?? [],
    posts: posts?.items ?? [],
    pagination: paginate(creators?.total ?? posts?.total ?? 0, query.o),
  });
}
