/**
 * Archive pages: the URLs whose HTML is the same for every visitor and is kept in the page store.
 * Each has a canonical key: its path plus the query parameters that select a page of the listing (o).
 * Searches (q, tag and any other parameter) are rendered on demand and never stored.
 */
import { PAGE_SIZE } from '@shared/constants.ts';
import { isPaysite } from '@shared/paysites/index.ts';
import { POPULAR_PERIODS } from '@shared/validation/popular.ts';
import { chatOffset } from '@shared/validation/chat.ts';
import { offset as offsetRule } from '@shared/validation/params.ts';

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
}

const globalDepth = (GLOBAL_LISTING_STORED_PAGES - 1) * PAGE_SIZE;

/** /{service}/user/{id}/{tab} */
function creatorTab(segments: string[], tab: string): boolean {
  return segments.length === 4 && isPaysite(segments[0]) && segments[1] === 'user' && segments[3] === tab;
}

export const ARCHIVE_ROUTES: ArchiveRoute[] = [
  { name: 'recent-posts', paged: true, maxStoredOffset: globalDepth, match: (s) => s.length === 1 && s[0] === 'posts' },
  {
    name: 'updated-creators',
    paged: true,
    maxStoredOffset: globalDepth,
    match: (s) => s.length === 2 && s[0] === 'artists' && s[1] === 'updated',
  },
  // The artists list without a query (Popularity, newest favourites first); any q/service/sort renders on demand.
  { name: 'artists', paged: true, maxStoredOffset: globalDepth, match: (s) => s.length === 1 && s[0] === 'artists' },
  { name: 'all-dms', paged: true, maxStoredOffset: globalDepth, match: (s) => s.length === 1 && s[0] === 'dms' },
  // The latest popular posts of each period (no date); dated pages, browsed with previous/next, render on demand.
  {
    name: 'popular',
    paged: true,
    maxStoredOffset: globalDepth,
    match: (s) => s.length === 2 && s[0] === 'posts' && s[1] === 'popular',
    selectors: [
      ['period', (value) => (value === 'recent' ? '' : (POPULAR_PERIODS as readonly string[]).includes(value) ? value : undefined)],
    ],
  },
  { name: 'all-tags', paged: false, match: (s) => s.length === 2 && s[0] === 'posts' && s[1] === 'tags' },
  { name: 'creator-posts', paged: true, match: (s) => s.length === 3 && isPaysite(s[0]) && s[1] === 'user' },
  { name: 'creator-tags', paged: false, match: (s) => creatorTab(s, 'tags') },
  { name: 'creator-announcements', paged: false, match: (s) => creatorTab(s, 'announcements') },
  { name: 'creator-fancards', paged: false, match: (s) => creatorTab(s, 'fancards') },
  { name: 'creator-links', paged: false, match: (s) => creatorTab(s, 'links') },
  { name: 'creator-dms', paged: true, match: (s) => creatorTab(s, 'dms') },
  { name: 'post', paged: false, match: (s) => s.length === 5 && isPaysite(s[0]) && s[1] === 'user' && s[3] === 'post' },
  // Revision ids are numbers; anything else is a 404 that must not be stored.
  {
    name: 'post-revision',
    paged: false,
    match: (s) =>
      s.length === 7 && isPaysite(s[0]) && s[1] === 'user' && s[3] === 'post' && s[5] === 'revision' && /^[1-9]\d{0,14}$/.test(s[6]),
  },
  // Shares ('Filehaus'): the global list shifts on every upload like the other global listings.
  { name: 'shares', paged: true, maxStoredOffset: globalDepth, match: (s) => s.length === 1 && s[0] === 'shares' },
  { name: 'share', paged: false, match: (s) => s.length === 2 && s[0] === 'share' && /^[1-9]\d{0,14}$/.test(s[1]) },
  { name: 'creator-shares', paged: true, match: (s) => creatorTab(s, 'shares') },
  // Chat pages step by 150. A message permalink (/discord/server/{s}/{c}/{m}) renders on demand: it is
  // its channel's page with one message marked, and storing one copy per message would multiply the store.
  { name: 'discord-channel', paged: true, offsetRule: chatOffset, match: (s) => s.length === 4 && s[0] === 'discord' && s[1] === 'server' },
  { name: 'community-channels', paged: false, match: (s) => s[0] === 'patreon' && creatorTab(s, 'community') },
  {
    name: 'community-channel',
    paged: true,
    offsetRule: chatOffset,
    match: (s) => s.length === 5 && s[0] === 'patreon' && s[1] === 'user' && s[3] === 'community',
  },
];

function segmentsOf(pathname: string): string[] | undefined {
  try {
    return pathname
      .split('/')
      .filter(Boolean)
      .map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
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
