/** Which feed URLs are stored pages, under which key, and what file and type the store gives them. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalPageKey, storedFeedFormat } from '@api/pages/keys.ts';
import { PageStore } from '@api/server/page-store.ts';
import { FEED_CONTENT_TYPES } from '@api/feeds/render.ts';

describe('feed keys', () => {
  it('stores the five feeds in both formats, with the canonical period', () => {
    expect(canonicalPageKey('/patreon/user/1/feed.rss', '')).toBe('/patreon/user/1/feed.rss');
    expect(canonicalPageKey('/patreon/user/1/feed.atom', '')).toBe('/patreon/user/1/feed.atom');
    expect(canonicalPageKey('/fansly/user/1/dms/feed.rss', '')).toBe('/fansly/user/1/dms/feed.rss');
    expect(canonicalPageKey('/posts/tags/big%20cats/feed.atom', '')).toBe('/posts/tags/big%20cats/feed.atom');
    expect(canonicalPageKey('/posts/feed.rss', '')).toBe('/posts/feed.rss');
    expect(canonicalPageKey('/posts/popular/feed.rss', '?period=recent')).toBe('/posts/popular/feed.rss');
    expect(canonicalPageKey('/posts/popular/feed.atom', '?period=week')).toBe('/posts/popular/feed.atom?period=week');
  });

  it('renders anything else on demand: other names, offsets, unknown periods, paysites without DMs', () => {
    expect(canonicalPageKey('/posts/feed.json', '')).toBeUndefined();
    expect(canonicalPageKey('/posts/feed.rss', '?o=50')).toBeUndefined();
    expect(canonicalPageKey('/posts/popular/feed.rss', '?period=year')).toBeUndefined();
    expect(canonicalPageKey('/fanbox/user/1/dms/feed.rss', '')).toBeUndefined();
    expect(canonicalPageKey('/nosuchsite/user/1/feed.rss', '')).toBeUndefined();
  });

  it('gives a feed key its own file and type, and every HTML key the file it had', () => {
    const store = new PageStore('/store');
    expect(storedFeedFormat('/posts/feed.rss')).toBe('rss');
    expect(storedFeedFormat('/posts/popular/feed.atom?period=day')).toBe('atom');
    expect(storedFeedFormat('/patreon/user/feed.rss')).toBeUndefined();
    expect(store.fileFor('/posts/feed.rss')).toBe(path.join('/store', 'posts', 'feed.rss'));
    expect(store.fileFor('/posts/popular/feed.atom?period=day')).toBe(path.join('/store', 'posts', 'popular', 'feed.periodday.atom'));
    expect(store.fileFor('/posts/tags/a.b/feed.rss')).toBe(path.join('/store', 'posts', 'tags', 'a%2Eb', 'feed.rss'));
    expect(store.fileFor('/posts')).toBe(path.join('/store', 'posts', 'index.html'));
    expect(store.fileFor('/posts/popular?period=day&o=50')).toBe(path.join('/store', 'posts', 'popular', 'index.periodday.o50.html'));
    // A creator whose id is a feed's file name is an HTML page like any other.
    expect(store.fileFor('/patreon/user/feed.rss')).toBe(path.join('/store', 'patreon', 'user', 'feed%2Erss', 'index.html'));
    expect(PageStore.contentTypeOf('/posts/feed.rss')).toBe(FEED_CONTENT_TYPES.rss);
    expect(PageStore.contentTypeOf('/patreon/user/1/feed.atom')).toBe(FEED_CONTENT_TYPES.atom);
    expect(PageStore.contentTypeOf('/patreon/user/1')).toBe('text/html; charset=utf-8');
  });
});
