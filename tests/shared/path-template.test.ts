import { describe, expect, it } from 'vitest';
import { pathTemplate } from '@shared/path-template.ts';

describe('pathTemplate', () => {
  const post = pathTemplate('/{service}/user/{id}/post/{post}');

  it('fills the parameters in order, each percent-encoded', () => {
    expect(post.url('patreon', '9', '77')).toBe('/patreon/user/9/post/77');
    expect(post.url('fanbox', 'a b/c', '猫?')).toBe('/fanbox/user/a%20b%2Fc/post/%E7%8C%AB%3F');
    expect(pathTemplate('/share/{id}').url(12)).toBe('/share/12');
    expect(pathTemplate('/posts').url()).toBe('/posts');
  });

  it('reads decoded segments back as named parameters, literals matching exactly', () => {
    expect(post.match(['patreon', 'user', '9', 'post', '77'])).toEqual({ service: 'patreon', id: '9', post: '77' });
    expect(post.match(['patreon', 'user', '9', 'post'])).toBeUndefined();
    expect(post.match(['patreon', 'user', '9', 'post', '77', 'x'])).toBeUndefined();
    expect(post.match(['patreon', 'server', '9', 'post', '77'])).toBeUndefined();
    expect(pathTemplate('/posts').match(['posts'])).toEqual({});
    expect(pathTemplate('/posts').match(['Posts'])).toBeUndefined();
  });

  it('matches what it builds', () => {
    const url = post.url('fanbox', 'a b', '猫');
    const segments = url.split('/').slice(1).map(decodeURIComponent);
    expect(post.match(segments)).toEqual({ service: 'fanbox', id: 'a b', post: '猫' });
  });

  it('refuses templates it cannot read and builders given the wrong number of parameters', () => {
    expect(() => pathTemplate('posts')).toThrow();
    expect(() => pathTemplate('/file-{hash}')).toThrow();
    expect(() => (post.url as (...args: string[]) => string)('patreon', '9')).toThrow('takes 3 parameters, got 2');
  });
});
