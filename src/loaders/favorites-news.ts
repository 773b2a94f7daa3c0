/**
 * "New from your favourites": the page /account/favorites/new (signed-in only, rendered on demand) and
 * the personal feed /feeds/favorites.rss|.atom?token= (no session: the token is the key). Opening the
 * page records the visit; the default "since" is the visit before. Server side only.
 */
import type { IncomingMessage } from 'node:http';
import type { SiteDeps } from './deps.ts';
import { countNewPosts, feedCreatedAt, listNewPosts } from '@api/data/favorites-news.ts';
import { openNews, renderFavoritesFeed } from '@api/feeds/favorites.ts';
import { FEED_CONTENT_TYPES } from '@api/feeds/render.ts';
import { requestOrigin } from '@api/http/file-server.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { favoritesNewsUrl, NEWS_FEED_FORMATS, type NewsFeedFormat } from '@shared/favorites-news.ts';
import { paginate } from '@shared/pagination.ts';
import { favoritesNewsQuerySchema } from '@shared/validation/favorites-news.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { requireAccess } from './account.ts';
import { paramsObject } from './artists.ts';
import { badRequest, ok } from './outcome.ts';

/**
 * The posts added since `since` (or the last visit), one page. Access first (a guest learns nothing
 * about the inputs), then the query's 400, then the visit is recorded: a refused request is no visit.
 */
export async function loadFavoritesNews(deps: SiteDeps, request: Request, search: URLSearchParams, now: Date = new Date()) {
  const access = await requireAccess(deps, request, 'account');
  if (access.kind !== 'ok') return access;
  const parsed = favoritesNewsQuerySchema.safeParse(paramsObject(search));
  if (!parsed.success) return badRequest(firstIssueMessage(parsed.error));
  const accountId = access.data.account.id;
  const lastVisit = await openNews(deps.db, accountId, now);
  const since = parsed.data.since ?? lastVisit;
  const total = await countNewPosts(deps.db, accountId, since);
  return ok({
    since,
    /** Whether `since` is the last visit rather than a date the visitor asked for. */
    sinceLastVisit: parsed.data.since === undefined,
    lastVisit,
    posts: await listNewPosts(deps.db, accountId, since, parsed.data.o, PAGE_SIZE),
    pagination: paginate(total, parsed.data.o),
    // Paging keeps this page's "since": the next page must not move with the visit just recorded.
    baseUrl: favoritesNewsUrl(since),
    feedCreatedAt: await feedCreatedAt(deps.db, accountId),
  });
}

export interface FeedAnswer {
  status: 200 | 404;
  body: string;
  headers: Record<string, string>;
}

/** The request's origin with the API's rule (TRUST_PROXY decides whether forwarded headers count). */
function originOf(request: Request, trustProxy: boolean): string {
  const url = new URL(request.url);
  // Astro hands over the request's own headers; a Request made elsewhere has its host in the URL only.
  const message = {
    headers: { host: url.host, ...Object.fromEntries(request.headers) },
    socket: { encrypted: url.protocol === 'https:' },
  } as unknown as IncomingMessage;
  return requestOrigin(message, trustProxy);
}

/** The feed answer for a format and token: never stored or shared, 404 for anything but a live token. */
export async function loadFavoritesFeed(deps: SiteDeps, request: Request, formatName: string, token: string): Promise<FeedAnswer> {
  const personal = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex', 'Referrer-Policy': 'no-referrer' };
  const format = NEWS_FEED_FORMATS.find((name) => name === formatName) as NewsFeedFormat | undefined;
  const body = format
    ? await renderFavoritesFeed(deps.db, token, format, {
        origin: originOf(request, deps.config.trustProxy),
        imageHost: deps.config.imageHost,
        siteName: deps.config.siteName,
      })
    : undefined;
  if (body === undefined) {
    return { status: 404, body: 'Feed not found.', headers: { ...personal, 'Content-Type': 'text/plain; charset=utf-8' } };
  }
  return { status: 200, body, headers: { ...personal, 'Content-Type': FEED_CONTENT_TYPES[format!] } };
}
