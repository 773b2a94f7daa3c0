import { describe, expect, it } from 'vitest';
import { canonicalPageKey, GLOBAL_LISTING_STORED_PAGES, pageKey } from '@api/pages/keys.ts';

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
