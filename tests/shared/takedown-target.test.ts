import { describe, expect, it } from 'vitest';
import { readTakedownTarget, targetFromUrl } from '@shared/takedown-target.ts';

describe('targetFromUrl', () => {
  it('reads a creator from its page or any of its tabs, on any host or as a path', () => {
    const creator = { service: 'patreon', creatorId: '123', postId: null };
    expect(targetFromUrl('https://archive.example/patreon/user/123')).toEqual(creator);
    expect(targetFromUrl('/patreon/user/123/announcements?o=50')).toEqual(creator);
    expect(targetFromUrl('  /patreon/user/123/  ')).toEqual(creator);
  });

  it('reads a post from its page or a revision page, decoding the ids', () => {
    expect(targetFromUrl('/fanbox/user/a%20b/post/456/revision/2')).toEqual({ service: 'fanbox', creatorId: 'a b', postId: '456' });
  });

  it('reads a discord server as its creator', () => {
    expect(targetFromUrl('/discord/server/987/654')).toEqual({ service: 'discord', creatorId: '987', postId: null });
  });

  it('refuses what names no creator', () => {
    for (const text of ['', '/posts', '/patreon/post/456', '/nosuch/user/1', '/patreon/user/1/post/', '/patreon/user/%E0%A4%A']) {
      expect(targetFromUrl(text), text).toBeNull();
    }
  });
});

describe('readTakedownTarget', () => {
  it('prefers the URL and explains a bad one', () => {
    expect(readTakedownTarget({ url: '/patreon/user/1', service: 'fanbox', creatorId: '2' })).toEqual({
      service: 'patreon',
      creatorId: '1',
      postId: null,
    });
    expect(readTakedownTarget({ url: 'https://example.com/' })).toEqual({
      error: 'That URL is not a creator or post page of the archive.',
    });
  });

  it('takes service, creator id and an optional post id', () => {
    expect(readTakedownTarget({ url: '', service: 'patreon', creatorId: ' 1 ', postId: '' })).toEqual({
      service: 'patreon',
      creatorId: '1',
      postId: null,
    });
    expect(readTakedownTarget({ service: 'patreon', creatorId: '1', postId: '9' })).toEqual({
      service: 'patreon',
      creatorId: '1',
      postId: '9',
    });
    expect(readTakedownTarget({ service: '', creatorId: '1' })).toEqual({ error: 'Please choose a service.' });
    expect(readTakedownTarget({ service: 'patreon', creatorId: ' ' })).toEqual({ error: 'Please give the creator ID or a URL.' });
  });
});
