import { describe, expect, it } from 'vitest';
import { cardThumbnailPath, cardTitle, postCardData } from '@shared/post-card.ts';

describe('post card rules', () => {
  it('cuts titles over 50 characters and adds an ellipsis', () => {
    const long = 'x'.repeat(51);
    expect(cardTitle(long, '')).toBe(`${'x'.repeat(50)}…`);
    expect(cardTitle('x'.repeat(50), '')).toBe('x'.repeat(50));
    expect(cardTitle('猫'.repeat(60), '')).toBe(`${'猫'.repeat(50)}…`);
  });

  it('falls back to the content for DM or empty titles', () => {
    expect(cardTitle('DM', 'hello there')).toBe('hello there');
    expect(cardTitle('  ', 'c'.repeat(70))).toBe(`${'c'.repeat(50)}…`);
  });

  it('takes the thumbnail from an image file, or from an attachment on some paysites', () => {
    const image = { path: '/ab/cd/x.JPG' };
    expect(cardThumbnailPath({ service: 'patreon', file: image })).toBe('/ab/cd/x.JPG');
    expect(cardThumbnailPath({ service: 'patreon', file: { path: '/ab/cd/x.zip' }, attachments: [{ path: '/a.png' }] })).toBeUndefined();
    expect(cardThumbnailPath({ service: 'gumroad', file: {}, attachments: [{ path: '/a.zip' }, { path: '/b.webp' }] })).toBe('/b.webp');
  });

  it('keeps only what a card shows of a post, tags included (hiding reads them)', () => {
    const post = {
      id: '1',
      user: '2',
      service: 'patreon',
      title: 'T',
      substring: 'S',
      published: null,
      content: '<p>long</p>',
      tags: ['a'],
      file: { name: 'a.png', path: '/ab/cd/a.png' },
      attachments: [{ name: 'b.zip', path: '/ab/cd/b.zip' }],
    };
    expect(postCardData(post)).toEqual({
      id: '1',
      user: '2',
      service: 'patreon',
      title: 'T',
      substring: 'S',
      published: null,
      file: { path: '/ab/cd/a.png' },
      attachments: [{ path: '/ab/cd/b.zip' }],
      tags: ['a'],
    });
    expect(postCardData({ ...post, file: {}, attachments: undefined })).toMatchObject({ file: {}, attachments: [] });
    expect(postCardData({ ...post, tags: [] })).not.toHaveProperty('tags');
  });
});
