/**
 * The artists list's search form and results (docs/product.md#artists-list).
 *
 * Server-rendered, the form is a plain GET form and `children` are the server's results for `initial`,
 * so the page works without JavaScript. Once hydrated, the island takes over: it loads creators.txt
 * once (on the first focus of the form or the first change), then filters, sorts and pages in the
 * browser with shared/artists.ts (the server's rules) and writes each listing to the URL and history,
 * so a reload or a shared link shows the same listing. Typing applies DEBOUNCE_ARTISTS_MS after the
 * last keystroke; the service and sort dropdowns apply at once; the order button flips and applies.
 *
 * Both submit buttons are named `order`: the Search button (first, so Enter picks it) sends the current
 * order, the toggle the other one. That is the toggle without JavaScript, and the island reads the
 * same value from the submitter.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { api, ApiError, describeError } from '@site/client/api-client.ts';
import { apiPaths } from '@shared/api-paths.ts';
import { rememberInHistory } from '@site/client/history-state.ts';
import {
  ARTIST_SORT_OPTIONS,
  ORDER_LABELS,
  artistsPage,
  artistsUrl,
  sameArtistsQuery,
  type ArtistItem,
  type ArtistsQuery,
} from '@shared/artists.ts';
import { DEBOUNCE_ARTISTS_MS } from '@shared/constants.ts';
import { paginate } from '@shared/pagination.ts';
import { isPaysite } from '@shared/paysites/index.ts';
import type { ArtistSortField, SortOrder } from '@shared/validation/listings.ts';
import ErrorDetails from '../shell/ErrorDetails.tsx';
import CreatorCardView from './CreatorCardView.tsx';
import PaginatorView from './PaginatorView.tsx';
import PaysiteOptions from '../forms/PaysiteOptions.tsx';

interface Props {
  initial: ArtistsQuery;
  iconsPath: string;
  /** The server's results for `initial`, shown until the visitor asks for another listing. */
  children?: ReactNode;
}

type Loaded = { creators: ArtistItem[] } | { error: unknown } | undefined;

const flip = (order: SortOrder): SortOrder => (order === 'asc' ? 'desc' : 'asc');

function Results({
  creators,
  query,
  iconsPath,
  onNavigate,
}: {
  creators: ArtistItem[];
  query: ArtistsQuery;
  iconsPath: string;
  onNavigate: (offset: number) => void;
}) {
  const page = useMemo(() => artistsPage(creators, query), [creators, query]);
  const pagination = paginate(page.total, query.o);
  const baseUrl = artistsUrl({ ...query, o: 0 });
  return (
    <>
      <PaginatorView pagination={pagination} baseUrl={baseUrl} onNavigate={onNavigate} />
      {page.creators.length > 0 ? (
        <div className="card-list">
          {page.creators.map((creator) => (
            <CreatorCardView key={`${creator.service}/${creator.id}`} creator={creator} iconsPath={iconsPath} />
          ))}
        </div>
      ) : (
        <p className="empty">No creators found for your query.</p>
      )}
      <PaginatorView pagination={pagination} baseUrl={baseUrl} onNavigate={onNavigate} position="bottom" />
    </>
  );
}

function LoadFailure({ error }: { error: unknown }) {
  const apiError = error instanceof ApiError ? error : undefined;
  return (
    <>
      <p className="error" role="alert">
        Failed to load artists. {apiError?.statusText || describeError(error)}
      </p>
      <ErrorDetails error={{ status: apiError?.status, method: apiError?.method, url: apiError?.url, message: describeError(error) }} />
    </>
  );
}

export default function ArtistsBrowser({ initial, iconsPath, children }: Props) {
  const [query, setQuery] = useState(initial);
  const [text, setText] = useState(initial.q ?? '');
  const [loaded, setLoaded] = useState<Loaded>(undefined);
  const queryRef = useRef(query);
  const loading = useRef<Promise<unknown>>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const results = useRef<HTMLDivElement>(null);

  const load = useCallback(() => {
    loading.current ??= api.v1.get<unknown>(apiPaths.creatorsTxt()).then(
      (answer) => {
        if (!Array.isArray(answer)) throw new Error('The creators list is not a list.');
        setLoaded({ creators: answer as ArtistItem[] });
      },
      (error: unknown) => {
        // The next change of the form tries again.
        loading.current = undefined;
        setLoaded({ error });
      },
    );
  }, []);

  const show = useCallback(
    (next: ArtistsQuery, push: boolean) => {
      clearTimeout(timer.current);
      const leaving = queryRef.current;
      queryRef.current = next;
      setQuery(next);
      if (push && artistsUrl(next) !== window.location.pathname + window.location.search) {
        rememberInHistory('artists', leaving);
        window.history.pushState({ ...window.history.state, artists: next }, '', artistsUrl(next));
      }
      load();
    },
    [load],
  );
  const change = (patch: Partial<ArtistsQuery>) => show({ ...queryRef.current, o: 0, ...patch }, true);

  useEffect(() => {
    // The entry the visitor arrived on gets its query too, so going back to it restores it (unless a
    // change came first and has already given it one).
    rememberInHistory('artists', initial);
    const onPopState = (event: PopStateEvent) => {
      const state = (event.state as { artists?: ArtistsQuery } | null)?.artists;
      if (!state) return;
      setText(state.q ?? '');
      show(state, false);
    };
    window.addEventListener('popstate', onPopState);
    return () => {
      window.removeEventListener('popstate', onPopState);
      clearTimeout(timer.current);
    };
  }, [initial, show]);

  const onType = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    const q = value.trim() || undefined;
    if (q === queryRef.current.q) return;
    timer.current = setTimeout(() => change({ q }), DEBOUNCE_ARTISTS_MS);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const sent = submitter?.name === 'order' ? submitter.value : undefined;
    const order: SortOrder = sent === 'asc' || sent === 'desc' ? sent : queryRef.current.order;
    change({ q: text.trim() || undefined, order });
  };

  const onNavigate = (offset: number) => {
    show({ ...queryRef.current, o: offset }, true);
    results.current?.scrollIntoView({ block: 'start' });
  };

  let shown: ReactNode = children;
  const custom = !sameArtistsQuery(query, initial);
  if (custom && loaded && 'creators' in loaded) {
    shown = <Results creators={loaded.creators} query={query} iconsPath={iconsPath} onNavigate={onNavigate} />;
  } else if (custom && loaded && 'error' in loaded) {
    shown = <LoadFailure error={loaded.error} />;
  }

  return (
    <>
      {/* biome-ignore lint/a11y/useSemanticElements: a form with role=search is the landmark every browser and reader knows; <search> is newer */}
      <form className="artists-search" action="/artists" method="get" role="search" onSubmit={onSubmit} onFocus={load}>
        <div className="artists-search__row">
          <label className="artists-search__query">
            <span className="visually-hidden">Search artists</span>
            <input
              type="search"
              name="q"
              value={text}
              placeholder="Search artists"
              autoComplete="off"
              onChange={(event) => onType(event.target.value)}
            />
          </label>
          <button className="button" type="submit" name="order" value={query.order}>
            Search
          </button>
        </div>
        <div className="artists-search__row">
          <div className="artists-search__field">
            <label htmlFor="artists-service">Service</label>
            <select
              id="artists-service"
              name="service"
              value={query.service ?? ''}
              onChange={(event) => change({ service: isPaysite(event.target.value) ? event.target.value : undefined })}
            >
              <option value="">All</option>
              <PaysiteOptions />
            </select>
          </div>
          <div className="artists-search__field">
            <label htmlFor="artists-sort">Sort by</label>
            <select
              id="artists-sort"
              name="sort_by"
              value={query.sort_by}
              onChange={(event) => change({ sort_by: event.target.value as ArtistSortField })}
            >
              {ARTIST_SORT_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
          <button
            className="button artists-search__order"
            type="submit"
            name="order"
            value={flip(query.order)}
            title={`Switch to ${ORDER_LABELS[flip(query.order)].toLowerCase()} order`}
          >
            <span className="visually-hidden">Order: </span>
            {ORDER_LABELS[query.order]}
            <span aria-hidden="true">{query.order === 'asc' ? ' ↑' : ' ↓'}</span>
          </button>
        </div>
      </form>
      <div className="artists-results" ref={results} aria-busy={custom && !loaded}>
        {shown}
      </div>
    </>
  );
}
