/**
 * The sidebar's Account section (Sidebar.astro renders the guest items, Register and Login, and the
 * signed-in ones, Account, Keys, Favorites, Review DMs and Logout). For a signed-in visitor this asks
 * GET /api/v1/has_pending_dms once per page and puts a red dot on Review DMs while DMs wait for
 * review. A 401 there means the server session is gone: the login state is cleared, as every API call
 * does, and the shell turns back to the guest links. Any other failure only means no dot.
 * It also asks GET /api/v1/account/favorites/new/count once per page and, when posts of the favourite
 * creators were added since the last visit of /account/favorites/new, puts their count ("99+" at the
 * cap) beside Favorites as a link to that page. The stored HTML never holds it.
 */
import { $session, clearLoginState } from '@site/client/stores/session';
import { FAVORITES_NEWS_PATH, newsCountDescription, newsCountLabel } from '@shared/favorites-news';
import { followLoginState } from './login-state';

/**
 * `apiUrl(apiPaths.hasPendingDms())`, written out: the shell runs on every page and stays small without
 * shared/api-paths.ts (tests/shared/api-paths.test.ts checks that the two agree).
 */
export const PENDING_DMS_PATH = '/api/v1/has_pending_dms';
export const PENDING_DOT_LABEL = 'DMs waiting for review';

/** Whether DMs wait for review; a 401 clears the login state (and answers false). */
export async function fetchPendingDms(signal?: AbortSignal): Promise<boolean> {
  // A plain fetch rather than the API client: one GET without retries or cache needs none of it, and
  // the shell stays a few hundred bytes on pages that have no island.
  const response = await fetch(PENDING_DMS_PATH, { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal });
  if (response.status === 401) {
    clearLoginState();
    return false;
  }
  return response.ok && (await response.json()) === true;
}

/** `apiUrl(apiPaths.favoritesNewCount())`, written out for the same reason. */
export const NEWS_COUNT_PATH = '/api/v1/account/favorites/new/count';

export interface NewsCount {
  count: number;
  capped: boolean;
}

/** The count of new posts from the favourites; none on any failure (a 401 also clears the login state). */
export async function fetchNewsCount(signal?: AbortSignal): Promise<NewsCount> {
  const response = await fetch(NEWS_COUNT_PATH, { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal });
  if (response.status === 401) {
    clearLoginState();
    return { count: 0, capped: false };
  }
  if (!response.ok) return { count: 0, capped: false };
  const body = (await response.json()) as Partial<NewsCount>;
  return { count: typeof body.count === 'number' ? body.count : 0, capped: body.capped === true };
}

/** Puts the count beside the Favorites link (or removes it for none). */
export function showNewsCount(favorites: Element | null, news: NewsCount): void {
  const item = favorites?.parentElement;
  if (!item) return;
  item.querySelector('.news-count')?.remove();
  const label = newsCountLabel(news.count, news.capped);
  if (!label) return;
  const count = document.createElement('a');
  count.className = 'news-count';
  count.href = FAVORITES_NEWS_PATH;
  count.textContent = label;
  count.setAttribute('aria-label', newsCountDescription(news.count, news.capped));
  count.title = newsCountDescription(news.count, news.capped);
  item.append(count);
}

function showDot(link: Element | null, pending: boolean): void {
  const dot = link?.querySelector('.pending-dot');
  if (!link || pending === !!dot) return;
  if (!pending) {
    dot!.remove();
    return;
  }
  const added = document.createElement('span');
  added.className = 'pending-dot';
  added.setAttribute('role', 'img');
  added.setAttribute('aria-label', PENDING_DOT_LABEL);
  added.title = 'DMs are waiting for your review';
  link.append(added);
}

/** Browser only: wires the Account section inside `sidebar` to $session. */
export function startSidebarAccount(sidebar: ParentNode): void {
  followLoginState();
  const review = sidebar.querySelector('.auth-user a[href="/account/review_dms"]');
  const favorites = sidebar.querySelector('.auth-user a[href="/account/favorites"]');
  let asked: AbortController | undefined;
  let wasLoggedIn: boolean | undefined;
  $session.subscribe(({ loggedIn }) => {
    if (loggedIn === wasLoggedIn) return; // a role change alone asks nothing again
    wasLoggedIn = loggedIn;
    asked?.abort();
    showDot(review, false);
    showNewsCount(favorites, { count: 0, capped: false });
    if (!loggedIn) return;
    const current = (asked = new AbortController());
    // The page itself records the visit as it renders, so there the count is already gone.
    fetchNewsCount(current.signal).then(
      (news) => {
        if (!current.signal.aborted) showNewsCount(favorites, news);
      },
      () => {
        // Offline, aborted or not JSON: no count.
      },
    );
    fetchPendingDms(current.signal).then(
      (pending) => {
        if (!current.signal.aborted) showDot(review, pending);
      },
      () => {
        // Offline, aborted or not JSON: no dot.
      },
    );
  });
}
