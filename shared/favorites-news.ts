/**
 * "New from your favourites" (docs/product.md#new-from-your-favourites): the page's and the personal
 * feed's paths, the sidebar count's cap and label, and the default "since" of a first visit. Browser-safe.
 */

/** The page of posts added to the archive from the account's favourite creators. */
export const FAVORITES_NEWS_PATH = '/account/favorites/new';

/** The sidebar count stops counting here and shows "99+". */
export const NEWS_COUNT_CAP = 99;

/** An account that never opened the page sees (and counts) the posts of the last week. */
export const NEWS_FIRST_VISIT_DAYS = 7;

export const NEWS_FEED_FORMATS = ['rss', 'atom'] as const;
export type NewsFeedFormat = (typeof NEWS_FEED_FORMATS)[number];

/**
 * The personal feed's URL: the token is the only key (feed readers have no session). It goes in the
 * query, which request logs leave out.
 */
export function favoritesFeedPath(token: string, format: NewsFeedFormat): string {
  return `/feeds/favorites.${format}?token=${encodeURIComponent(token)}`;
}

/** The page for posts since a date or stored timestamp, at an offset. */
export function favoritesNewsUrl(since?: string, offset = 0): string {
  const search = new URLSearchParams();
  if (since) search.set('since', since);
  if (offset > 0) search.set('o', String(offset));
  const query = search.toString();
  return query ? `${FAVORITES_NEWS_PATH}?${query}` : FAVORITES_NEWS_PATH;
}

/** The sidebar's text for a count: nothing for 0, "99+" at the cap. */
export function newsCountLabel(count: number, capped: boolean): string {
  if (count <= 0) return '';
  return capped ? `${NEWS_COUNT_CAP}+` : String(count);
}

/** The accessible name of the sidebar count. */
export function newsCountDescription(count: number, capped: boolean): string {
  const amount = capped ? `More than ${NEWS_COUNT_CAP}` : String(count);
  return `${amount} new ${count === 1 && !capped ? 'post' : 'posts'} from your favorites`;
}
