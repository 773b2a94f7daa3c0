/**
 * Archive pages: the URLs whose HTML is the same for every visitor and is kept in the page store.
 * Each has a canonical key: its path plus the query parameters that select a page of the listing (o).
 * Searches (q, tag and any other parameter) are rendered on demand and never stored.
 */
import { PAGE_SIZE } from '@shared/constants.ts';
import { isPaysite, paysite as paysiteOf } from '@shared/paysites/index.ts';
import type { PathTemplate, TemplateParams } from '@shared/path-template.ts';
import { PAGE_ROUTES, feedFormatOf, type FeedFormat } from '@shared/urls.ts';
import { POPULAR_PERIODS } from '@shared/validation/popular.ts';
import { chatOffset } from '@shared/validation/chat.ts';
import { offset as offsetRule } from '@shared/validation/params.ts';
import { decodeComponent } from '@shared/parse.ts';

/** Global listings shift on every import; only their first pages are kept (deeper ones render on demand). */
export const GLOBAL_LISTING_STORED_PAGES = 20;

export interface ArchiveRoute {
  name: string;
  match(segments: string[]): boolean;
  paged: boolean;
  /** The rule `o` must follow to be stored: the listings' multiple of 50 unless said otherwise. */
  offsetRule?: typeof offsetRule;
  /** Deepest offset kept in the store; undefined keeps every page. */
  maxStoredOffset?: number;
  /**
   * Other query parameters that select a stored listing, in key order: each maps a value to its
   * canonical form ('' drops a default value), or undefined when that value is not stored.
   */
  selectors?: Array<[name: string, canonical: (value: string) => string | undefined]>;
  /** A feed (RSS or Atom, by its last segment) rather than an HTML page: stored and served with its own type. */
  feed?: boolean;
}

type Rule = (value: string) => boolean;

interface StoredPage<T extends string> extends Omit<ArchiveRoute, 'name' | 'match' | 'paged'> {
  paged?: boolean;
  /** What the template's parameters must be for the page to be stored (a paysite, a tab, a row id). */
  where?: Partial<Record<TemplateParams<T>[number], Rule>>;
}

/** A stored page: a URL shape of shared/urls.ts, the rules its parameters follow, and how it is paged. */
function archiveRoute<T extends string>(name: string, page: PathTemplate<T>, options: StoredPage<T> = {}): ArchiveRoute {
  const { where = {}, paged = false, ...rest } = options;
  const rules = Object.entries(where) as Array<[TemplateParams<T>[number], Rule]>;
  return {
    name,
    paged,
    ...rest,
    match: (segments) => {
      const params = page.match(segments);
      return params !== undefined && rules.every(([param, rule]) => rule(params[param]));
    },
  };
}

function is(expected: string): Rule {
  return (value) => value === expected;
}
/** Revision and share ids are numbers; anything else is a 404 that must not be stored. */
const isRowId: Rule = (value) => /^[1-9]\d{0,14}$/.test(value);
const paysite = { service: isPaysite };
const creatorTab = (tab: string) => ({ service: isPaysite, tab: is(tab) });

/** A feed's file name: feed.rss or feed.atom. */
const feedFile: Rule = (value) => feedFormatOf(value) !== undefined;
/** The popular listings' period: 'recent' is the default (no parameter); an unknown period is not stored. */
const popularPeriod: [string, (value: string) => string | undefined] = [
  'period',
  (value) => (value === 'recent' ? '' : (POPULAR_PERIODS as readonly string[]).includes(value) ? value : undefined),
];

const globalListing = { paged: true, maxStoredOffset: (GLOBAL_LISTING_STORED_PAGES - 1) * PAGE_SIZE };

export const ARCHIVE_ROUTES: ArchiveRoute[] = [
  archiveRoute('recent-posts', PAGE_ROUTES.recentPosts, globalListing),
  archiveRoute('updated-creators', PAGE_ROUTES.updatedCreators, globalListing),
  // The artists list without a query (Popularity, newest favourites first); any q/service/sort renders on demand.
  archiveRoute('artists', PAGE_ROUTES.artists, globalListing),
  archiveRoute('all-dms', PAGE_ROUTES.allDms, globalListing),
  // The latest popular posts of each period (no date); dated pages, browsed with previous/next, render on demand.
  archiveRoute('popular', PAGE_ROUTES.popular, {
    ...globalListing,
    selectors: [popularPeriod],
  }),
  archiveRoute('all-tags', PAGE_ROUTES.allTags),
  archiveRoute('creator-posts', PAGE_ROUTES.creator, { paged: true, where: paysite }),
  archiveRoute('creator-tags', PAGE_ROUTES.creatorTab, { where: creatorTab('tags') }),
  archiveRoute('creator-announcements', PAGE_ROUTES.creatorTab, { where: creatorTab('announcements') }),
  archiveRoute('creator-fancards', PAGE_ROUTES.creatorTab, { where: creatorTab('fancards') }),
  archiveRoute('creator-links', PAGE_ROUTES.creatorTab, { where: creatorTab('links') }),
  archiveRoute('creator-dms', PAGE_ROUTES.creatorTab, { paged: true, where: creatorTab('dms') }),
  archiveRoute('post', PAGE_ROUTES.post, { where: paysite }),
  archiveRoute('post-revision', PAGE_ROUTES.revision, { where: { service: isPaysite, revision: isRowId } }),
  // Shares ('Filehaus'): the global list shifts on every upload like the other global listings.
  archiveRoute('shares', PAGE_ROUTES.shares, globalListing),
  archiveRoute('share', PAGE_ROUTES.share, { where: { id: isRowId } }),
  archiveRoute('creator-shares', PAGE_ROUTES.creatorTab, { paged: true, where: creatorTab('shares') }),
  // Chat pages step by 150. A message permalink (/discord/server/{s}/{c}/{m}) renders on demand: it is
  // its channel's page with one message marked, and storing one copy per message would multiply the store.
  archiveRoute('discord-channel', PAGE_ROUTES.discordChannel, { paged: true, offsetRule: chatOffset }),
  archiveRoute('community-channels', PAGE_ROUTES.creatorTab, { where: { service: is('patreon'), tab: is('community') } }),
  archiveRoute('community-channel', PAGE_ROUTES.communityChannel, { paged: true, offsetRule: chatOffset }),
  // Feeds (docs/product.md#feeds): the first items of the listings above, as RSS and Atom.
  archiveRoute('recent-posts-feed', PAGE_ROUTES.recentPostsFeed, { feed: true, where: { feed: feedFile } }),
  archiveRoute('popular-feed', PAGE_ROUTES.popularFeed, { feed: true, where: { feed: feedFile }, selectors: [popularPeriod] }),
  archiveRoute('tag-feed', PAGE_ROUTES.tagFeed, { feed: true, where: { feed: feedFile } }),
  archiveRoute('creator-feed', PAGE_ROUTES.creatorFeed, { feed: true, where: { service: isPaysite, feed: feedFile } }),
  // Only paysites whose importer brings DMs have a DMs feed.
  archiveRoute('creator-dms-feed', PAGE_ROUTES.creatorDmsFeed, {
    feed: true,
    where: { service: (value) => isPaysite(value) && paysiteOf(value).dms, feed: feedFile },
  }),
];

function segmentsOf(pathname: string): string[] | undefined {
  const segments = pathname
    .split('/')
    .filter(Boolean)
    .map((segment) => decodeComponent(segment));
  return segments.every((segment) => segment !== undefined) ? (segments as string[]) : undefined;
}

/** Builds the key of a path and offset (the one way keys are written). */
export function pageKey(pathname: string, offset = 0): string {
  const [path, query] = pathname.split('?');
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const params = new URLSearchParams(query);
  if (offset > 0) params.set('o', String(offset));
  const search = params.toString();
  return search ? `${clean}?${search}` : clean;
}

/** The canonical page-store key of a request URL, or undefined when the URL is not a stored page. */
export function canonicalPageKey(pathname: string, search: string): string | undefined {
  const segments = segmentsOf(pathname);
  if (!segments) return undefined;
  const route = ARCHIVE_ROUTES.find((candidate) => candidate.match(segments));
  if (!route) return undefined;
  const params = new URLSearchParams(search);
  const selected = new URLSearchParams();
  let offset = 0;
  for (const [name, value] of params) {
    if (params.getAll(name).length > 1) return undefined;
    const selector = route.selectors?.find(([selectorName]) => selectorName === name);
    if (selector) {
      const canonical = selector[1](value);
      if (canonical === undefined) return undefined;
      if (canonical) selected.set(name, canonical);
      continue;
    }
    if (name !== 'o' || !route.paged) return undefined;
    const parsed = (route.offsetRule ?? offsetRule).safeParse(value);
    if (!parsed.success) return undefined;
    offset = parsed.data;
  }
  if (route.maxStoredOffset !== undefined && offset > route.maxStoredOffset) return undefined;
  // Selectors in the route's order, so one page has one key however its URL lists them.
  const ordered = (route.selectors ?? []).filter(([name]) => selected.has(name)).map(([name]) => [name, selected.get(name)!]);
  const listing = `/${segments.map(encodeURIComponent).join('/')}${ordered.length > 0 ? `?${new URLSearchParams(ordered)}` : ''}`;
  return pageKey(listing, offset);
}

/**
 * The format of a stored key that is a feed ('/posts/feed.rss' → 'rss'), or undefined for an HTML page.
 * Only keys ending in a feed file name are matched against the routes, so HTML keys cost one string test.
 */
export function storedFeedFormat(key: string): FeedFormat | undefined {
  const [pathname] = key.split('?');
  const format = feedFormatOf(pathname.slice(pathname.lastIndexOf('/') + 1));
  if (!format) return undefined;
  const segments = segmentsOf(pathname);
  const route = segments && ARCHIVE_ROUTES.find((candidate) => candidate.match(segments));
  return route?.feed ? format : undefined;
}

/** The listings whose stored `o` pages may answer a request with a cursor (src/loaders/paging.ts). */
const CURSOR_PAGED = new Set(['recent-posts', 'creator-posts']);

/**
 * A request for a post listing with a cursor (`after`) besides `o`: the key of the stored `o` page and
 * the cursor. The front server serves that stored page when it continues from the same cursor
 * (PageStore.continuesFrom), so Next links keep hitting the store; otherwise the page renders on demand.
 */
export function cursorPageKey(pathname: string, search: string): { key: string; after: string } | undefined {
  const params = new URLSearchParams(search);
  const after = params.getAll('after');
  if (after.length !== 1 || !params.has('o')) return undefined;
  const segments = segmentsOf(pathname);
  const route = segments && ARCHIVE_ROUTES.find((candidate) => candidate.match(segments));
  if (!route || !CURSOR_PAGED.has(route.name)) return undefined;
  params.delete('after');
  const key = canonicalPageKey(pathname, `?${params}`);
  return key ? { key, after: after[0] } : undefined;
}
