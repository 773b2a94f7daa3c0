import { describe, expect, it } from 'vitest';
import {
  ARTIST_SORT_OPTIONS,
  DEFAULT_ARTISTS_QUERY,
  artistComparator,
  artistsPage,
  artistsUrl,
  filterArtists,
  sameArtistsQuery,
  sortArtists,
  type ArtistItem,
  type ArtistsQuery,
} from '@shared/artists.ts';
import { ARTIST_SORT_FIELDS, artistsQuerySchema, type ArtistSortField } from '@shared/validation/listings.ts';

const creator = (service: string, id: string, name: string, favorited: number, indexed: number, updated: number): ArtistItem => ({
  service,
  id,
  name,
  favorited,
  indexed,
  updated,
});

const LIST: ArtistItem[] = [
  creator('patreon', '100', 'Luna Lab', 5, 1000, 9000),
  creator('fanbox', '200', 'aster atelier', 9, 3000, 7000),
  creator('fanbox', '300', 'Comet Garden', 0, 2000, 8000),
  creator('gumroad', 'comet', 'Comet Garden', 0, 4000, 6000),
  creator('discord', '555', 'みかん堂', 2, 5000, 5000),
];

const query = (patch: Partial<ArtistsQuery> = {}): ArtistsQuery => ({ ...DEFAULT_ARTISTS_QUERY, ...patch });
const keys = (list: ArtistItem[]) => list.map((c) => `${c.service}/${c.id}`);

describe('the sort options', () => {
  it('offers the five fields of the validators with the spec labels, in order', () => {
    expect(ARTIST_SORT_OPTIONS.map((option) => option.value)).toEqual([...ARTIST_SORT_FIELDS]);
    expect(ARTIST_SORT_OPTIONS.map((option) => option.label)).toEqual([
      'Popularity',
      'Date Indexed',
      'Date Updated',
      'Alphabetical Order',
      'Service',
    ]);
  });

  it("rejects a sort type outside the list with 'Unknown sorting type'", () => {
    expect(() => artistComparator('age' as ArtistSortField, 'asc')).toThrow('Unknown sorting type');
    expect(() => artistComparator('toString' as ArtistSortField, 'asc')).toThrow('Unknown sorting type');
  });
});

describe('sortArtists', () => {
  it('orders by favourites, most first, ties by name then service then id', () => {
    expect(keys(sortArtists(LIST, 'favorited', 'desc'))).toEqual([
      'fanbox/200',
      'patreon/100',
      'discord/555',
      'gumroad/comet',
      'fanbox/300',
    ]);
  });

  it('reverses the whole order, tie-breaks included, for asc', () => {
    for (const field of ARTIST_SORT_FIELDS) {
      expect(keys(sortArtists(LIST, field, 'asc'))).toEqual(keys(sortArtists(LIST, field, 'desc')).reverse());
    }
  });

  it('orders by the indexed and updated dates', () => {
    expect(keys(sortArtists(LIST, 'indexed', 'asc'))).toEqual(['patreon/100', 'fanbox/300', 'fanbox/200', 'gumroad/comet', 'discord/555']);
    expect(keys(sortArtists(LIST, 'updated', 'desc'))).toEqual(['patreon/100', 'fanbox/300', 'fanbox/200', 'gumroad/comet', 'discord/555']);
  });

  it('orders names case-insensitively, the same name by service', () => {
    expect(sortArtists(LIST, 'name', 'asc').map((c) => c.name)).toEqual([
      'aster atelier',
      'Comet Garden',
      'Comet Garden',
      'Luna Lab',
      'みかん堂',
    ]);
    expect(keys(sortArtists(LIST, 'name', 'asc')).slice(1, 3)).toEqual(['fanbox/300', 'gumroad/comet']);
  });

  it('groups by service key, by name within a service', () => {
    expect(keys(sortArtists(LIST, 'service', 'asc'))).toEqual(['discord/555', 'fanbox/200', 'fanbox/300', 'gumroad/comet', 'patreon/100']);
  });

  it('leaves its input as it was', () => {
    const before = keys(LIST);
    sortArtists(LIST, 'name', 'asc');
    expect(keys(LIST)).toEqual(before);
  });
});

describe('filterArtists', () => {
  it('matches part of the name or of the id, whatever the case', () => {
    expect(keys(filterArtists(LIST, { q: 'COMET' }))).toEqual(['fanbox/300', 'gumroad/comet']);
    expect(keys(filterArtists(LIST, { q: '55' }))).toEqual(['discord/555']);
    expect(keys(filterArtists(LIST, { q: 'みかん' }))).toEqual(['discord/555']);
    expect(filterArtists(LIST, { q: 'nobody' })).toEqual([]);
  });

  it('keeps one service, and combines it with the query', () => {
    expect(keys(filterArtists(LIST, { service: 'fanbox' }))).toEqual(['fanbox/200', 'fanbox/300']);
    expect(keys(filterArtists(LIST, { service: 'fanbox', q: 'comet' }))).toEqual(['fanbox/300']);
  });

  it('treats a blank query as no query', () => {
    expect(filterArtists(LIST, { q: '   ' })).toHaveLength(LIST.length);
  });
});

describe('artistsPage', () => {
  const many = Array.from({ length: 120 }, (_, n) => creator('fanbox', String(n), `Creator ${String(n).padStart(3, '0')}`, n, n, n));

  it('cuts pages of 50 and counts every match', () => {
    const first = artistsPage(many, query());
    expect(first.total).toBe(120);
    expect(first.creators).toHaveLength(50);
    expect(first.creators[0].id).toBe('119');
    const last = artistsPage(many, query({ o: 100 }));
    expect(last.creators.map((c) => c.id)).toEqual(Array.from({ length: 20 }, (_, n) => String(19 - n)));
    expect(artistsPage(many, query({ o: 150 })).creators).toEqual([]);
  });

  it('filters before counting and paging', () => {
    const found = artistsPage(many, query({ q: '11', sort_by: 'name', order: 'asc' }));
    expect(found.total).toBe(11); // ids and names 11 and 110-119
    expect(found.creators.map((c) => c.id)).toEqual(['11', ...Array.from({ length: 10 }, (_, n) => String(110 + n))]);
  });

  it('takes a list already sorted by the query as it is', () => {
    const sorted = sortArtists(many, 'name', 'desc');
    expect(artistsPage(sorted, query({ sort_by: 'name', order: 'desc' }), true)).toEqual(
      artistsPage(many, query({ sort_by: 'name', order: 'desc' })),
    );
  });
});

describe('artistsUrl', () => {
  it('is plain /artists for the default listing', () => {
    expect(artistsUrl(DEFAULT_ARTISTS_QUERY)).toBe('/artists');
    expect(artistsUrl(query({ q: '  ' }))).toBe('/artists');
  });

  it('keeps only what differs from the defaults, and round-trips through the validators', () => {
    const wanted = query({ q: 'luna lab', service: 'patreon', sort_by: 'name', order: 'asc', o: 100 });
    const url = artistsUrl(wanted);
    expect(url).toBe('/artists?q=luna+lab&service=patreon&sort_by=name&order=asc&o=100');
    const params = Object.fromEntries(new URL(url, 'http://x').searchParams);
    expect(artistsQuerySchema.parse(params)).toEqual(wanted);
  });

  it('compares queries by the page they select', () => {
    expect(sameArtistsQuery(query({ q: 'x ' }), query({ q: 'x' }))).toBe(true);
    expect(sameArtistsQuery(query(), query({ order: 'asc' }))).toBe(false);
  });
});
