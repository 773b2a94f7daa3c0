/**
 * Archive pages: the URLs whose HTML is the same for every visitor and is kept in the page store.
 * Each has a canonical key: its path plus the query parameters that select a page of the listing (o).
 * Searches (q, tag and any other parameter) are rendered on demand and never stored.
 */
import { PAGE_SIZE } from '../../src/lib/constants.ts';
import { isPaysite } from '../../src/lib/paysites.ts';
import { offset as offsetRule } from '../../src/lib/validators.ts';

/** Global listings shift on every import; only their first pages are kept (deeper ones render on demand). */
export const GLOBAL_LISTING_STORED_PAGES = 20;

export interface ArchiveRoute {
  name: string;
  match(segments: string[]): boolean;
  paged: boolean;
  /** Deepest offset kept in the store; undefined keeps every page. */
  maxStoredOffset?: number;
}

const globalDepth = (GLOBAL_LISTING_STORED_PAGES - 1) * PAGE_SIZE;

/** /{service}/user/{id}/{tab} */
function creatorTab(segments: string[], tab: string): boolean {
  return segments.length === 4 && isPaysite(segments[0]) && segments[1] === 'user' && segments[3] === tab;
}

export const ARCHIVE_ROUTES: ArchiveRoute[] = [
  { name: 'recent-posts', paged: true, maxStoredOffset: globalDepth, match: (s) => s.length === 1 && s[0] === 'posts' },
  { name: 'updated-creators', paged: true, maxStoredOffset: globalDepth, match: (s) => s.length === 2 && s[0] === 'artists' && s[1] === 'updated' },
  { name: 'all-dms', paged: true, maxStoredOffset: globalDepth, match: (s) => s.length === 1 && s[0] === 'dms' },
  { name: 'all-tags', paged: false, match: (s) => s.length === 2 && s[0] === 'posts' && s[1] === 'tags' },
  { name: 'creator-posts', paged: true, match: (s) => s.length === 3 && isPaysite(s[0]) && s[1] === 'user' },
  { name: 'creator-tags', paged: false, match: (s) => creatorTab(s, 'tags') },
  { name: 'creator-announcements', paged: false, match: (s) => creatorTab(s, 'announcements') },
  { name: 'creator-fancards', paged: false, match: (s) => creatorTab(s, 'fancards') },
  { name: 'creator-links', paged: false, match: (s) => creatorTab(s, 'links') },
  { name: 'creator-dms', paged: true, match: (s) => creatorTab(s, 'dms') },
  { name: 'post', paged: false, match: (s) => s.length === 5 && isPaysite(s[0]) && s[1] === 'user' && s[3] === 'post' },
  // Shares ('Filehaus'): the global list shifts on every upload like the other global listings.
  { name: 'shares', paged: true, maxStoredOffset: globalDepth, match: (s) => s.length === 1 && s[0] === 'shares' },
  { name: 'share', paged: false, match: (s) => s.length === 2 && s[0] === 'share' && /^[1-9]\d{0,14}$/.test(s[1]) },
  { name: 'creator-shares', paged: true, match: (s) => creatorTab(s, 'shares') },
];

function segmentsOf(pathname: string): string[] | undefined {
  try {
    return pathname.split('/').filter(Boolean).map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

/** Builds the key of a path and offset (the one way keys are written). */
export function pageKey(pathname: string, offset = 0): string {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return offset > 0 ? `${clean}?o=${offset}` : clean;
}

/** The canonical page-store key of a request URL, or undefined when the URL is not a stored page. */
export function canonicalPageKey(pathname: string, search: string): string | undefined {
  const segments = segmentsOf(pathname);
  if (!segments) return undefined;
  const route = ARCHIVE_ROUTES.find((candidate) => candidate.match(segments));
  if (!route) return undefined;
  const params = new URLSearchParams(search);
  let offset = 0;
  for (const [name, value] of params) {
    if (name !== 'o' || !route.paged) return undefined;
    const parsed = offsetRule.safeParse(value);
    if (!parsed.success) return undefined;
    offset = parsed.data;
  }
  if (route.maxStoredOffset !== undefined && offset > route.maxStoredOffset) return undefined;
  return pageKey('/' + segments.map(encodeURIComponent).join('/'), offset);
}
