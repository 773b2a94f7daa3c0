import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { shortWordPostingsKey, shortWordTerm, shortWordText, shortWordTokens } from '@api/data/search-words.ts';
import { searchPosts, splitSearchQuery } from '@api/data/post-search.ts';
import { upsertPost } from '@api/data/posts.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { tempDb, type TempDb } from './helpers.ts';

describe('short-word index text and terms', () => {
  it('spells CJK runs as single characters and neighbouring pairs, leaving other words as they are', () => {
    expect(shortWordText('森の精 sketch', '등대 night').replace(/\s+/g, ' ').trim()).toBe('森 の 精 森の の精 sketch 등 대 등대 night');
  });

  it('looks up CJK grams exactly, other short words as prefixes, and drops lone letters', () => {
    expect(shortWordTerm('猫')).toBe('"猫"');
    expect(shortWordTerm('夜市')).toBe('"夜市"');
    expect(shortWordTerm('ca')).toBe('"ca"*');
    expect(shortWordTerm('#1')).toBeNull();
    expect(shortWordTerm('a')).toBeNull();
    expect(shortWordTerm('"')).toBeNull();
  });

  it("gives PostgreSQL's postings key: = and the folded gram when exact, ^ and two folded characters when a prefix", () => {
    expect(shortWordPostingsKey('猫')).toBe('=猫');
    expect(shortWordPostingsKey('夜市')).toBe('=夜市');
    expect(shortWordPostingsKey('Ré')).toBe('^re');
    expect(shortWordPostingsKey('CA')).toBe('^ca');
    expect(shortWordPostingsKey('#1')).toBeNull();
    expect(shortWordPostingsKey('a')).toBeNull();
  });

  it('splits a query between the trigram index, the short-word index and ignored letters', () => {
    expect(splitSearchQuery('dragon 夜 ca x')).toEqual({ ftsQuery: '"dragon"', wordsQuery: '"夜" "ca"*', ignored: ['x'] });
  });
});

describe('short-word tokens for an engine without FTS5', () => {
  /** What SQLite's own posts_words tokenizer makes of the same text (fts5vocab lists the terms). */
  function sqliteTokens(title: string, text: string): string[] {
    const db = new Database(':memory:');
    try {
      db.exec(`CREATE VIRTUAL TABLE words USING fts5 (text, detail = 'none', tokenize = 'unicode61 remove_diacritics 2');
               CREATE VIRTUAL TABLE vocab USING fts5vocab (words, 'row');`);
      db.prepare('INSERT INTO words (rowid, text) VALUES (1, ?)').run(shortWordText(title, text));
      return (db.prepare('SELECT term FROM vocab').all() as { term: string }[]).map((row) => row.term);
    } finally {
      db.close();
    }
  }

  const samples: [string, string][] = [
    ['Café Crème à la Mode', 'naïve façade, Ærøskøbing & São Paulo; Ünïcödé'],
    ['森の精 sketch', '등대 night ガンダム ヴァイオリン ドット絵 バイノーラル/ダミヘ'],
    ['WIP #12: dragon-keep_v2', 'see https://example.com/a?b=c — e-mail me@example.org, 100% done…'],
    ['ＦＵＬＬ ｗｉｄｔｈ', 'Ωmega ΣΊΣΥΦΟΣ straße İstanbul 中文字幕 한국어 ㄱ 🐉 emoji'],
  ];

  for (const [title, text] of samples) {
    it(`agree with SQLite's unicode61 tokenizer: ${title}`, () => {
      expect([...shortWordTokens(title, text)].sort()).toEqual([...sqliteTokens(title, text)].sort());
    });
  }
});

describe('search through the short-word index', () => {
  let t: TempDb;
  beforeEach(async () => {
    t = tempDb();
    await upsertCreator(t.db, { service: 'patreon', id: '1', name: 'Mixed' });
    const posts: [string, string, string][] = [
      ['1', 'Café sketches', '<p>At the café</p>'],
      ['2', '등대 그림', '<p>바다의 등대</p>'],
      ['3', 'Night market', '<p>夜市の灯り</p>'],
      ['4', 'Cat nap', '<p>a b c</p>'],
    ];
    for (const [n, [id, title, content]] of posts.entries()) {
      await upsertPost(t.db, { service: 'patreon', user: '1', id, title, content, published: `2024-01-0${n + 1}T00:00:00` });
    }
  });
  afterEach(() => t.cleanup());

  const ids = async (q: string) => (await searchPosts(t.db, { q })).posts.map((p) => p.id);

  it('finds two-letter word prefixes, folding case and accents', async () => {
    expect(await ids('ca')).toEqual(['4', '1']);
    expect(await ids('CA')).toEqual(['4', '1']);
    expect(await ids('ni ma')).toEqual(['3']);
  });

  it('finds Korean and Japanese two-character words inside longer runs', async () => {
    expect(await ids('등대')).toEqual(['2']);
    expect(await ids('夜市')).toEqual(['3']);
    expect(await ids('灯')).toEqual(['3']);
  });

  it('combines trigram and short words in one query', async () => {
    expect(await ids('sketches ca')).toEqual(['1']);
    expect(await ids('market 夜')).toEqual(['3']);
    expect(await ids('market ca')).toEqual([]);
  });

  it('still finds lone letters among the newest posts, and caps counts', async () => {
    expect(await ids('b c')).toEqual(['4']);
    expect(await searchPosts(t.db, { q: 'ca', countLimit: 1 })).toMatchObject({ count: 1, capped: true });
  });
});
