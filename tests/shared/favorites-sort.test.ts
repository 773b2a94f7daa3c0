import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FAVORITES_QUERY,
  FAVORITE_CREATOR_SORT_OPTIONS,
  FAVORITE_POST_SORT_OPTIONS,
  creatorCard,
  favoritesPage,
  favoritesUrl,
  sortFavorites,
  type FavoriteCreatorItem,
  type FavoritePostItem,
} from '@shared/favorites-sort.ts';
import {
  FAVORITE_CREATOR_SORT_FIELDS,
  FAVORITE_POST_SORT_FIELDS,
  favoriteCreatorsQuerySchema,
  favoritePostsQuerySchema,
} from '@shared/validation/favorites.ts';

const creator = (id: string, updated: string, faved_seq: number, last_imported: string | null): FavoriteCreatorItem => ({
  id,
  name: `Creator ${id}`,
  service: 'patreon',
  updated,
  faved_seq,
  last_imported,
});
const CREATORS = [
  creator('a', '2024-03-01T00:00:00', 3, '2024-05-01T00:00:00'),
  creator('b', '2024-01-01T00:00:00', 7, null),
  creator('c', '2024-06-01T00:00:00', 1, '2024-02-01T00:00:00'),
  creator('d', '2024-03-01T00:00:00', 5, '2024-04-01T00:00:00'),
];
const post = (id: string, published: string | null, faved_seq: number): FavoritePostItem => ({
  id,
  user: '1',
  service: 'fanbox',
  published,
  faved_seq,
});
const POSTS = [post('p1', '2023-01-01T00:00:00', 4), post('p2', null, 9), post('p3', '2024-01-01T00:00:00', 2)];
const ids = (list: { id: string }[]) => list.map((item) => item.id);

describe('sort options', () => {
  it('carry the spec labels and match the validators', () => {
    expect(FAVORITE_CREATOR_SORT_OPTIONS.map((o) => o.value)).toEqual([...FAVORITE_CREATOR_SORT_FIELDS]);
    expect(FAVORITE_CREATOR_SORT_OPTIONS.map((o) => o.label)).toEqual(['New post date', 'Faved date', 'Reimported date']);
    expect(FAVORITE_POST_SORT_OPTIONS.map((o) => o.value)).toEqual([...FAVORITE_POST_SORT_FIELDS]);
    expect(favoriteCreatorsQuerySchema.parse({})).toEqual(DEFAULT_FAVORITES_QUERY.artists);
    expect(favoritePostsQuerySchema.parse({})).toEqual(DEFAULT_FAVORITES_QUERY.posts);
  });
});

describe('sortFavorites', () => {
  it('sorts creators by each key, ties by faved_seq, order reversing everything', () => {
    expect(ids(sortFavorites('artists', CREATORS, 'updated', 'desc'))).toEqual(['c', 'd', 'a', 'b']);
    expect(ids(sortFavorites('artists', CREATORS, 'updated', 'asc'))).toEqual(['b', 'a', 'd', 'c']);
    expect(ids(sortFavorites('artists', CREATORS, 'faved_seq', 'desc'))).toEqual(['b', 'd', 'a', 'c']);
    expect(ids(sortFavorites('artists', CREATORS, 'faved_seq', 'asc'))).toEqual(['c', 'a', 'd', 'b']);
  });

  it('puts a missing date with the oldest', () => {
    expect(ids(sortFavorites('artists', CREATORS, 'last_imported', 'desc'))).toEqual(['a', 'd', 'c', 'b']);
    expect(ids(sortFavorites('artists', CREATORS, 'last_imported', 'asc'))).toEqual(['b', 'c', 'd', 'a']);
    expect(ids(sortFavorites('posts', POSTS, 'published', 'desc'))).toEqual(['p3', 'p1', 'p2']);
    expect(ids(sortFavorites('posts', POSTS, 'faved_seq', 'desc'))).toEqual(['p2', 'p1', 'p3']);
  });

  it('leaves its input alone and refuses unknown keys and orders', () => {
    const copy = [...CREATORS];
    sortFavorites('artists', CREATORS, 'updated', 'asc');
    expect(CREATORS).toEqual(copy);
    expect(() => sortFavorites('posts', POSTS, 'updated', 'desc')).toThrow('Invalid sort by value');
    expect(() => sortFavorites('artists', CREATORS, 'published', 'desc')).toThrow('Invalid sort by value');
    expect(() => sortFavorites('artists', CREATORS, 'updated', 'up' as 'asc')).toThrow('Invalid order value');
  });
});

describe('favoritesPage and favoritesUrl', () => {
  it('pages by 50 after sorting', () => {
    const many = Array.from({ length: 120 }, (_, i) => post(`p${i}`, null, i));
    const second = favoritesPage('posts', many, { o: 50, sort_by: 'faved_seq', order: 'asc' });
    expect(second.total).toBe(120);
    expect(ids(second.items)).toEqual(Array.from({ length: 50 }, (_, i) => `p${50 + i}`));
    expect(favoritesPage('posts', many, { o: 100, sort_by: 'faved_seq', order: 'desc' }).items).toHaveLength(20);
  });

  it('leaves defaults out of the URL', () => {
    expect(favoritesUrl('artists', DEFAULT_FAVORITES_QUERY.artists)).toBe('/account/favorites/artists');
    expect(favoritesUrl('artists', { o: 50, sort_by: 'faved_seq', order: 'asc' })).toBe(
      '/account/favorites/artists?sort_by=faved_seq&order=asc&o=50',
    );
    expect(favoritesUrl('posts', { o: 0, sort_by: 'published', order: 'desc' })).toBe('/account/favorites/posts?sort_by=published');
  });
});

describe('creatorCard', () => {
  it('turns the zone-less ISO date into epoch seconds (UTC)', () => {
    expect(creatorCard(creator('x', '2023-11-14T22:13:20', 1, null))).toEqual({
      id: 'x',
      name: 'Creator x',
      service: 'patreon',
      updated: 1_700_000_000,
    });
  });
});
