/**
 * The favourites pages' sort form and list (docs/product.md#favourites-pages). The server renders this
 * island with the first page it sorted (`items`, `total`), so the page works without JavaScript: the
 * form is a plain GET form and the paginator's links are real URLs. Once hydrated, the first change
 * loads the whole list (GET /v1/account/favorites) and every later sort or page is done here with
 * shared/favorites-sort.ts, the server's own rules; each applied listing goes into the URL and history.
 * For a guest the server sends no items: the island shows the device list (docs/product.md#guest-favourites)
 * at once. Both reload the list when it changes on the page (an import).
 */
import { rememberInHistory } from '@site/client/history-state.ts';
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { api, describeError } from '@site/client/api-client.ts';
import { apiPaths } from '@shared/api-paths.ts';
import {
  FAVORITE_CREATOR_SORT_OPTIONS,
  FAVORITE_ORDER_OPTIONS,
  FAVORITE_POST_SORT_OPTIONS,
  FAVORITES_PATHS,
  creatorCard,
  favoritesPage,
  favoritesUrl,
  type FavoriteCreatorItem,
  type FavoritePostItem,
  type FavoritesKind,
  type FavoritesQuery,
} from '@shared/favorites-sort.ts';
import { paginate } from '@shared/pagination.ts';
import type { SortOrder } from '@shared/validation/listings.ts';
import CreatorCardView from '../artists/CreatorCardView.tsx';
import PaginatorView from '../artists/PaginatorView.tsx';
import { PostCardGrid } from '@site/components/archive/PostCard.tsx';
import type { PostCardData } from '@shared/shapes/posts.ts';
import { readDeviceFavorites } from '@site/client/device-favorites.ts';
import { $favoritesRevision } from '@site/client/stores/favorites.ts';

type Item = FavoriteCreatorItem | (FavoritePostItem & PostCardData);

interface Props {
  kind: FavoritesKind;
  initial: FavoritesQuery<string>;
  /** The server's page for `initial`, and the number of favourites in all. */
  items: Item[];
  total: number;
  iconsPath: string;
  imageHost: string;
  /** A guest: the list is the device's. */
  guest?: boolean;
}

/** The whole list: the device's for a guest, else the account's from the API. */
function fetchAll(kind: FavoritesKind, guest: boolean): Promise<Item[]> {
  if (guest) {
    const device = readDeviceFavorites();
    return Promise.resolve(kind === 'artists' ? device.creators : device.posts);
  }
  return api.v1.get<Item[]>(apiPaths.accountFavorites(), { query: { type: kind === 'artists' ? 'artist' : 'post' }, cache: false });
}

type Loaded = { all: Item[] } | { error: unknown } | undefined;

const EMPTY: Record<FavoritesKind, string> = { artists: 'There are no profiles.', posts: 'There are no more posts.' };

function List({ kind, items, iconsPath, imageHost }: Pick<Props, 'kind' | 'items' | 'iconsPath' | 'imageHost'>) {
  if (items.length === 0) {
    return (
      <div className="empty-state">
        <strong>Nobody here but us chickens!</strong>
        <p>{EMPTY[kind]}</p>
      </div>
    );
  }
  if (kind === 'artists') {
    return (
      <div className="card-list">
        {(items as FavoriteCreatorItem[]).map((item) => (
          <CreatorCardView key={`${item.service}/${item.id}`} creator={creatorCard(item)} iconsPath={iconsPath} />
        ))}
      </div>
    );
  }
  return <PostCardGrid posts={items as PostCardData[]} imageHost={imageHost} />;
}

export default function FavoritesBrowser({ kind, initial, items, total, iconsPath, imageHost, guest = false }: Props) {
  const [query, setQuery] = useState(initial);
  const [loaded, setLoaded] = useState<Loaded>(undefined);
  const loading = useRef<Promise<unknown>>(undefined);
  const queryRef = useRef(query);
  const options = kind === 'artists' ? FAVORITE_CREATOR_SORT_OPTIONS : FAVORITE_POST_SORT_OPTIONS;

  const load = useCallback(() => {
    loading.current ??= fetchAll(kind, guest).then(
      (all) => setLoaded({ all }),
      (error: unknown) => {
        loading.current = undefined; // the next change tries again
        setLoaded({ error });
      },
    );
  }, [kind, guest]);

  const revision = useStore($favoritesRevision);
  const seenRevision = useRef(revision);
  useEffect(() => {
    // A guest's list is on the device: show it at once. Later changes (an import) load the list again.
    if (revision === seenRevision.current && !guest) return;
    seenRevision.current = revision;
    loading.current = undefined;
    load();
  }, [revision, guest, load]);

  const show = useCallback(
    (next: FavoritesQuery<string>, push: boolean) => {
      const leaving = queryRef.current;
      queryRef.current = next;
      setQuery(next);
      const url = favoritesUrl(kind, next);
      if (push && url !== window.location.pathname + window.location.search) {
        rememberInHistory('favorites', leaving);
        window.history.pushState({ ...window.history.state, favorites: next }, '', url);
      }
      load();
    },
    [kind, load],
  );

  useEffect(() => {
    // The entry the visitor arrived on gets its query too, unless a change came first and gave it one.
    rememberInHistory('favorites', initial);
    const onPopState = (event: PopStateEvent) => {
      const state = (event.state as { favorites?: FavoritesQuery<string> } | null)?.favorites;
      if (state) show(state, false);
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [initial, show]);

  const all = loaded && 'all' in loaded ? loaded.all : undefined;
  const page = useMemo(() => (all ? favoritesPage(kind, all, query) : { items, total }), [all, kind, query, items, total]);
  const failure = loaded && 'error' in loaded ? loaded : undefined;
  // Until the whole list is here, the server's page stands for the initial query only.
  const stale = !all && favoritesUrl(kind, query) !== favoritesUrl(kind, initial);
  const waiting = stale && failure === undefined;
  const pagination = paginate(page.total, query.o);
  const baseUrl = favoritesUrl(kind, { ...query, o: 0 });
  const change = (patch: Partial<FavoritesQuery<string>>) => show({ ...queryRef.current, o: 0, ...patch }, true);
  const onNavigate = (offset: number) => show({ ...queryRef.current, o: offset }, true);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    change({ sort_by: String(form.get('sort_by')), order: String(form.get('order')) as SortOrder });
  };

  return (
    <>
      <form className="favorites-sort" action={FAVORITES_PATHS[kind]} method="get" onSubmit={onSubmit}>
        <label>
          Sort by{' '}
          <select name="sort_by" value={query.sort_by} onChange={(event) => change({ sort_by: event.currentTarget.value })}>
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Order{' '}
          <select name="order" value={query.order} onChange={(event) => change({ order: event.currentTarget.value as SortOrder })}>
            {FAVORITE_ORDER_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button">
          Sort
        </button>
      </form>
      {failure && (
        <p className="error" role="alert">
          Failed to load favorites. {describeError(failure.error)}
        </p>
      )}
      <div className="favorites-results" aria-busy={waiting}>
        {stale ? (
          waiting && <p className="favorites-results__loading">Loading...</p>
        ) : (
          <>
            <PaginatorView pagination={pagination} baseUrl={baseUrl} onNavigate={onNavigate} />
            <List kind={kind} items={page.items} iconsPath={iconsPath} imageHost={imageHost} />
            <PaginatorView pagination={pagination} baseUrl={baseUrl} onNavigate={onNavigate} position="bottom" />
          </>
        )}
      </div>
    </>
  );
}
