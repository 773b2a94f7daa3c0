import { describe, expect, it } from 'vitest';
import { canonicalPageKey, GLOBAL_LISTING_STORED_PAGES, pageKey } from '@api/pages/keys.ts';
import {
  PAGE_ROUTES,
  communityUrl,
  creatorTabUrl,
  creatorUrl,
  discordServerUrl,
  popularUrl,
  postUrl,
  revisionUrl,
  shareUrl,
} from '@shared/urls.ts';

describe('canonicalPageKey', () => {
  it('keys creator listings by path and offset, dropping o=0 and trailing slashes', () => {
    expect(canonicalPageKey('/fanbox/user/123', '')).toBe('/fanbox/user/123');
    expect(canonicalPageKey('/fanbox/user/123/', '?o=0')).toBe('/fanbox/user/123');
    expect(canonicalPageKey('/fanbox/user/123', '?o=100')).toBe('/fanbox/user/123?o=100');
  });

  it('keys post pages and tag pages', () => {
    expect(canonicalPageKey('/patreon/user/9/post/77', '')).toBe('/patreon/user/9/post/77');
    expect(canonicalPageKey('/patreon/user/9/tags', '')).toBe('/patreon/user/9/tags');
    expect(canonicalPageKey('/posts/tags', '')).toBe('/posts/tags');
  });

  it('keys the creator tabs, paging only the DMs and uploads', () => {
    for (const tab of ['announcements', 'fancards', 'links']) {
      expect(canonicalPageKey(`/fanbox/user/9/${tab}`, '')).toBe(`/fanbox/user/9/${tab}`);
      expect(canonicalPageKey(`/fanbox/user/9/${tab}`, '?o=50')).toBeUndefined();
    }
    expect(canonicalPageKey('/fanbox/user/9/dms', '?o=50')).toBe('/fanbox/user/9/dms?o=50');
    expect(canonicalPageKey('/fanbox/user/9/shares', '?o=50')).toBe('/fanbox/user/9/shares?o=50');
    expect(canonicalPageKey('/fanbox/user/9/random-tab', '')).toBeUndefined();
  });

  it('never stores searches, bad offsets, unknown paysites or unknown paths', () => {
    expect(canonicalPageKey('/fanbox/user/123', '?q=cat')).toBeUndefined();
    expect(canonicalPageKey('/fanbox/user/123', '?tag=a&o=50')).toBeUndefined();
    expect(canonicalPageKey('/fanbox/user/123', '?o=75')).toBeUndefined();
    expect(canonicalPageKey('/fanbox/user/123', '?o=-50')).toBeUndefined();
    expect(canonicalPageKey('/myspace/user/123', '')).toBeUndefined();
    expect(canonicalPageKey('/account', '')).toBeUndefined();
    expect(canonicalPageKey('/patreon/user/9/post/77', '?o=50')).toBeUndefined();
  });

  it('keeps only the first pages of global listings', () => {
    const deepest = (GLOBAL_LISTING_STORED_PAGES - 1) * 50;
    expect(canonicalPageKey('/posts', `?o=${deepest}`)).toBe(`/posts?o=${deepest}`);
    expect(canonicalPageKey('/posts', `?o=${deepest + 50}`)).toBeUndefined();
  });

  it('normalises encoding so one page has one key', () => {
    expect(canonicalPageKey('/fanbox/user/a%20b', '')).toBe('/fanbox/user/a%20b');
    expect(canonicalPageKey('/fanbox/user/%E7%8C%AB', '')).toBe(pageKey('/fanbox/user/%E7%8C%AB'));
    expect(canonicalPageKey('/fanbox/user/%E0%A4%A', '')).toBeUndefined();
  });
});

describe('stored pages and the URL builders', () => {
  it('keys every stored page the builders make as itself', () => {
    const stored = [
      PAGE_ROUTES.recentPosts.url(),
      PAGE_ROUTES.updatedCreators.url(),
      PAGE_ROUTES.artists.url(),
      PAGE_ROUTES.allDms.url(),
      PAGE_ROUTES.allTags.url(),
      PAGE_ROUTES.shares.url(),
      popularUrl('recent'),
      popularUrl('month'),
      creatorUrl('fanbox', 'a b'),
      ...['tags', 'announcements', 'fancards', 'links', 'dms', 'shares'].map((tab) => creatorTabUrl('fanbox', '猫', tab)),
      postUrl('patreon', '9', 'p/1'),
      revisionUrl('patreon', '9', '77', 12),
      shareUrl(12),
      discordServerUrl('1', '2'),
      communityUrl('9'),
      communityUrl('9', 'c1'),
    ];
    for (const url of stored) {
      const [path, query = ''] = url.split('?');
      expect(canonicalPageKey(path, query), url).toBe(pageKey(url));
    }
  });

  it('stores no page the builders make for a visitor, a search or a message permalink', () => {
    for (const url of [
      discordServerUrl('1'),
      discordServerUrl('1', '2', '3'),
      popularUrl('day', '2024-01-01'),
      creatorTabUrl('fanbox', '9', 'x'),
    ]) {
      const [path, query = ''] = url.split('?');
      expect(canonicalPageKey(path, query), url).toBeUndefined();
    }
  });
});
