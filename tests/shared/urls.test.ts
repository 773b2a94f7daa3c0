import { describe, expect, it } from 'vitest';
import {
  communityUrl,
  creatorPageUrl,
  creatorTabUrl,
  creatorUrl,
  discordServerUrl,
  hasTagFeed,
  popularUrl,
  postUrl,
  revisionUrl,
  shareUrl,
  withOffset,
} from '@shared/urls.ts';

describe('page URL builders', () => {
  it('build the creator, post and revision pages, percent-encoding each part', () => {
    expect(creatorUrl('patreon', '9')).toBe('/patreon/user/9');
    expect(creatorUrl('fanbox', 'a b/c')).toBe('/fanbox/user/a%20b%2Fc');
    expect(postUrl('patreon', '9', '77')).toBe('/patreon/user/9/post/77');
    expect(postUrl('fanbox', '9', '猫')).toBe('/fanbox/user/9/post/%E7%8C%AB');
    expect(revisionUrl('patreon', '9', '77', 3)).toBe('/patreon/user/9/post/77/revision/3');
    expect(creatorTabUrl('fanbox', '9', 'fancards')).toBe('/fanbox/user/9/fancards');
    expect(shareUrl(12)).toBe('/share/12');
  });

  it('build the chat pages', () => {
    expect(discordServerUrl('1')).toBe('/discord/server/1');
    expect(discordServerUrl('1', '2')).toBe('/discord/server/1/2');
    expect(discordServerUrl('1', '2', '3')).toBe('/discord/server/1/2/3');
    expect(discordServerUrl('1', '', '3')).toBe('/discord/server/1');
    expect(creatorPageUrl('discord', '1')).toBe('/discord/server/1');
    expect(creatorPageUrl('patreon', '1')).toBe('/patreon/user/1');
    expect(communityUrl('9')).toBe('/patreon/user/9/community');
    expect(communityUrl('9', 'c 1')).toBe('/patreon/user/9/community/c%201');
  });

  it('build the popular pages and listing offsets', () => {
    expect(popularUrl('recent')).toBe('/posts/popular');
    expect(popularUrl('recent', '2024-01-01')).toBe('/posts/popular');
    expect(popularUrl('week')).toBe('/posts/popular?period=week');
    expect(popularUrl('day', '2024-01-01')).toBe('/posts/popular?date=2024-01-01&period=day');
    expect(withOffset(popularUrl('week'), 50)).toBe('/posts/popular?period=week&o=50');
    expect(withOffset('/posts?o=50', 0)).toBe('/posts');
  });
});

describe('tag feeds', () => {
  // Astro's router refuses a path whose decodeURI still holds an escape when something else was decoded.
  const routerRefuses = (path: string) => {
    const decoded = decodeURI(path);
    return decoded !== path && /%[0-9a-fA-F]{2}/.test(decoded);
  };

  it('exist for the tags whose feed path the page router takes, and only those', () => {
    for (const tag of ['cats', 'character design', 'ASMR', 'バイノーラル', 'a/b', 'Q&A', '100%']) {
      expect(hasTagFeed(tag), tag).toBe(true);
      expect(routerRefuses(`/posts/tags/${encodeURIComponent(tag)}/feed.rss`), tag).toBe(false);
    }
    for (const tag of ['ASMR/バイノーラル', 'Q&A session', 'R-18 / 成人向け', 'cats, dogs']) {
      expect(hasTagFeed(tag), tag).toBe(false);
      expect(routerRefuses(`/posts/tags/${encodeURIComponent(tag)}/feed.rss`), tag).toBe(true);
    }
  });
});
