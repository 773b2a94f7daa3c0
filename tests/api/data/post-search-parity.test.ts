/**
 * Post search gives the same answers on both engines: one demo archive (1,500 posts in eight languages,
 * plus a few posts written here for accents, case, punctuation and undated posts), seeded into a real
 * SQLite file and copied into a real throwaway PostgreSQL database; then the same 60 searches through
 * searchPosts on each store (FTS5 on SQLite; on PostgreSQL it hands over to searchPostsPostgres over
 * post_search), compared post for post, in order, with their counts. Every search that should find
 * something finds something on SQLite, so two empty answers cannot pass for parity. Then searches the
 * postings of migration 016 answer, checked both through searchPosts and through the postings alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '@api/config.ts';
import { copyToPostgres } from '@api/data/copy-to-postgres.ts';
import { migrate, openDatabase, type Db } from '@api/data/db.ts';
import { SEARCH_COUNT_LIMIT, searchPosts, searchQueryWords, type SearchOptions } from '@api/data/post-search.ts';
import { newestByPostings } from '@api/data/post-search-postings.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { archiveCursorOf, deletePost, upsertPost } from '@api/data/posts.ts';
import { closeStore, postgresPool, postgresStore, type Store } from '@api/data/store.ts';
import type { PostSummary } from '@shared/shapes/posts.ts';
import { seedDemoArchive } from '../../../scripts/seed/index.ts';
import { startThrowawayCluster, type ThrowawayCluster } from '../../../scripts/lib/postgres-cluster.ts';

interface Context {
  /** The creator with the most tagged posts (the posts below are added to it). */
  creator: { service: string; user: string };
  /** How many of its posts have a published date (they come before the undated ones). */
  dated: number;
}

interface Case {
  name: string;
  options: (context: Context) => SearchOptions | Promise<SearchOptions>;
  /** false: the search must find nothing (on SQLite, and then on PostgreSQL). */
  finds?: false;
  /** false: the postings must leave this search to the trigram path (POSTINGS_CASES only). */
  postings?: false;
}

let db: Db;

/** The last post of SQLite's first page of a search, as the cursor of the search's kind. */
async function afterFirstPage(options: SearchOptions): Promise<SearchOptions> {
  const last = (await searchPosts(db, options)).posts.at(-1);
  if (!last) throw new Error('the first page is empty: no cursor to take');
  if (options.service && options.user) return { ...options, creatorAfter: { published: last.published, id: last.id } };
  const cursor = await archiveCursorOf(db, last);
  if (!cursor) throw new Error('the first page has a post without an archive cursor');
  return { ...options, archiveAfter: cursor };
}

const q =
  (text: string, more: SearchOptions = {}) =>
  (): SearchOptions => ({ q: text, ...more });
const mine =
  (more: SearchOptions) =>
  (context: Context): SearchOptions => ({ ...context.creator, ...more });

const CASES: Case[] = [
  // Single words of three or more characters (trigram text).
  { name: 'one word', options: q('sketch') },
  { name: 'one word, capitalised', options: q('Weekly') },
  { name: 'one word in the content', options: q('support') },
  // Two words: both must match.
  { name: 'two words', options: q('robot cat') },
  { name: 'two words apart', options: q('thank support') },
  { name: 'two words, one absent', options: q('lighthouse zzqqzz'), finds: false },
  // Prefixes and two-character words (short-word tokens).
  { name: 'prefix th', options: q('th') },
  { name: 'prefix Sk', options: q('Sk') },
  { name: 'two prefixes', options: q('ro ca') },
  { name: 'a long word and a prefix', options: q('sketch wi') },
  { name: 'a two-character word', options: q('of') },
  { name: 'a lone punctuation mark', options: q('#') },
  // Lone letters (alone: LIKE over the newest posts; beside other words: left out).
  { name: 'a lone letter', options: q('a') },
  { name: 'a lone capital', options: q('W') },
  { name: 'two lone letters', options: q('k y') },
  { name: 'a lone letter beside a word', options: q('x sketch') },
  { name: 'a lone %', options: q('%') },
  { name: 'a lone _', options: q('_') },
  // Japanese, Chinese and Korean: 1, 2 and 3+ characters.
  { name: 'Japanese, one character', options: q('猫') },
  { name: 'Japanese, two characters', options: q('夜市') },
  { name: 'Japanese, three characters', options: q('冬の魔女') },
  { name: 'Japanese, long', options: q('ありがとうございます') },
  { name: 'Chinese, one character', options: q('龙') },
  { name: 'Chinese, two characters', options: q('线稿') },
  { name: 'Chinese, three characters', options: q('机器猫') },
  { name: 'Korean, one character', options: q('알') },
  { name: 'Korean, two characters', options: q('마녀') },
  { name: 'Korean, three characters', options: q('스케치') },
  { name: 'Korean, two words', options: q('고양이 로봇') },
  // Mixed scripts.
  { name: 'Japanese and Latin words', options: q('ロボ猫 robot') },
  { name: 'a CJK character and a Latin prefix', options: q('夜 ni') },
  { name: 'Latin and CJK in one short word', options: q('a森'), finds: false },
  // Case and accents.
  { name: 'Café (accent kept by the trigram text)', options: q('Café') },
  { name: 'cafe (no accent)', options: q('cafe') },
  { name: 'CAFÉ (non-ASCII upper case)', options: q('CAFÉ') },
  { name: 'FORÊT', options: q('FORÊT') },
  { name: 'Cyrillic upper case', options: q('ЛЕСНОЙ') },
  { name: 'a prefix with an accent (folded)', options: q('Ré') },
  { name: 'Greek upper case', options: q('ΣΟΦΙΑ') },
  // Punctuation and LIKE's wildcards.
  { name: 'a word with a colon', options: q('Commission:') },
  { name: 'a number sign', options: q('#12') },
  { name: 'double quotes', options: q('"hi"') },
  { name: 'percent and backslash', options: q('100% back\\slash') },
  { name: 'underscore', options: q('pure_bred') },
  { name: 'a wildcard that must not match everything', options: q('c_fe%'), finds: false },
  // Tags.
  { name: 'one tag', options: () => ({ tag: 'sketch' }) },
  { name: 'two tags', options: () => ({ tag: ['cat', 'Café'] }) },
  { name: 'a tag and a word', options: () => ({ tag: 'cat', q: 'th' }) },
  { name: 'a tag and a lone letter, after a cursor', options: () => afterFirstPage({ tag: 'sketch', q: 'a', limit: 5 }) },
  // One creator: alone, with words, with a tag, with both.
  { name: 'a creator alone', options: mine({}) },
  { name: 'a creator and a word', options: mine({ q: 'ca' }) },
  { name: 'a creator and a tag', options: mine({ tag: 'cat' }) },
  { name: 'a creator, a word and a tag', options: mine({ q: 'cafe', tag: 'cat' }) },
  // Offsets, cursors (from the first page's last post), capped counts and limits.
  { name: 'an offset', options: q('th', { offset: 10, limit: 5 }) },
  { name: "a creator's offset", options: mine({ offset: 7, limit: 5 }) },
  { name: 'the recent posts with a cursor', options: () => afterFirstPage({ limit: 7 }) },
  { name: 'a word with a cursor', options: () => afterFirstPage({ q: 'th', limit: 9 }) },
  {
    name: "a creator's cursor into its undated posts",
    options: (context) => afterFirstPage({ ...context.creator, limit: context.dated - 1 }),
  },
  { name: 'a capped count', options: q('th', { countLimit: 5 }) },
  { name: 'a limit of one', options: q('sketch', { limit: 1 }) },
];

/**
 * A run of 120 letters and digits with no word in it: the postings keep a run longer than 64 characters as
 * overlapping pieces, so these look for stretches inside one piece, across two, and too long for either.
 */
const LONG_RUN = Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, '0')}q`).join('');

/**
 * Searches the postings answer on PostgreSQL (words of letters and digits alone), where their answer is
 * built differently from the trigram path's: capped counts reached through the terms' cuts and the
 * deeper round, pages past the counted matches, long runs, edited and deleted posts.
 */
const POSTINGS_CASES: Case[] = [
  { name: 'one word, a count capped below its terms', options: q('sketch', { countLimit: 3 }) },
  { name: 'one word found inside longer words', options: q('ket', { countLimit: 40 }) },
  { name: 'two words, a count capped low', options: q('robot cat', { countLimit: 2 }) },
  { name: 'two words apart, a count capped low', options: q('thank support', { countLimit: 4 }) },
  { name: 'three words', options: q('the sketch weekly') },
  { name: 'two words whose newest meeting lies below a cut', options: q('qzalpha qzbeta', { countLimit: 1, limit: 1 }) },
  { name: 'two words that never meet', options: q('lighthouse zzqqzz'), finds: false },
  { name: 'a page by offset past the capped count', options: q('the', { countLimit: 5, offset: 3, limit: 5 }) },
  {
    name: 'a page after a cursor past the capped count',
    options: () => afterFirstPage({ q: 'the', limit: 5, countLimit: 5 }),
    postings: false,
  },
  { name: 'a page after a cursor', options: () => afterFirstPage({ q: 'sketch', limit: 4 }) },
  { name: 'a page after a cursor, two words', options: () => afterFirstPage({ q: 'robot cat', limit: 3, countLimit: 7 }) },
  { name: 'two prefixes, a count capped low', options: q('ro ca', { countLimit: 3 }) },
  { name: 'a CJK gram and a long word', options: q('夜 night') },
  { name: 'a prefix of a long run', options: q('K0') },
  { name: 'a CJK word of three characters, through its pairs', options: q('冬の魔女') },
  { name: 'a long CJK word, through four of its pairs', options: q('ありがとうございます', { countLimit: 3 }) },
  { name: 'a Korean word and a Latin one', options: q('고양이 robot') },
  { name: 'a CJK word whose pairs a newer post holds apart', options: q('竜鍋鳥') },
  { name: 'Greek lower case with an accent', options: q('σοφία') },
  { name: 'Cyrillic lower case', options: q('лесной') },
  { name: 'a stretch inside the first piece of a long run', options: q(LONG_RUN.slice(4, 30)) },
  { name: 'a stretch across two pieces of a long run', options: q(LONG_RUN.slice(50, 83)) },
  { name: 'the end of a long run', options: q(LONG_RUN.slice(-20)) },
  { name: 'a stretch of a long run longer than the pieces cover', options: q(LONG_RUN.slice(20, 100)), postings: false },
  { name: 'an edited post under its new word', options: q('quokkamarine') },
  { name: 'an edited post no longer under its old word', options: q('marmaladeword'), finds: false },
  { name: 'a deleted post', options: q('wombatfrond'), finds: false },
];

const keyOf = (post: PostSummary) => `${post.service}/${post.user}/${post.id}`;

describe('post search on PostgreSQL gives the answers of SQLite', () => {
  let dir: string;
  let cluster: ThrowawayCluster;
  let store: Store;
  let context: Context;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-search-parity-'));
    db = openDatabase(dataPaths(dir).database);
    migrate(db);
    await seedDemoArchive(db, { dataDir: dir, creators: 24, posts: 1500, seed: 18, images: 4 });
    const creator = db
      .prepare('SELECT service, "user" FROM post_tags GROUP BY service, "user" ORDER BY count(*) DESC, service, "user" LIMIT 1')
      .get() as { service: string; user: string };
    const post = (id: string, title: string, content: string, published: string | null, tags: string[] = []) =>
      upsertPost(db, { ...creator, id: `parity-${id}`, title, content, published, tags });
    await post('1', 'Café au lait', '<p>CAFÉ latte, a naïve résumé. FORÊT</p>', null, ['cat', 'Café']);
    await post('2', 'cafe corner', '<p>caffeine 100% pure_bred back\\slash</p>', '2025-06-01T00:00:00', ['cat']);
    await post('3', 'He said "hi"', '<p>ロボ猫 robot 고양이 龙蛋</p>', null);
    await post('4', 'Ünïcode Ελληνικά', '<p>ΣΟΦΙΑ σοφία, лесной</p>', null, ['sketch']);
    await post('5', '夜 night', '<p>森の精霊 a森</p>', '2025-06-01T00:00:00', ['cat', 'Café']);
    await post('6', 'A long run', `<p>${LONG_RUN}</p>`, null);
    await post('7', 'Breakfast', '<p>marmaladeword toast</p>', null);
    await post('8', 'Gone soon', '<p>wombatfrond</p>', null);
    // Both pairs of 竜鍋鳥 but not the word, in a newer post than the one that holds it.
    await post('9', 'Pot', '<p>竜鍋鳥</p>', null);
    await post('10', 'Pot and bird', '<p>竜鍋 鍋鳥</p>', null);
    // Oldest first: the newest post with both words (m3) lies below the cut of qzalpha's newest postings.
    for (const [id, text] of [
      ['m1', 'qzalphatwo qzbetaword'],
      ['m2', 'qzalphaone'],
      ['m3', 'qzalphaone qzbetaword'],
      ['m4', 'qzalphaone'],
      ['m5', 'qzalphaone'],
      ['m6', 'qzbetaword'],
    ]) {
      await post(id, 'Cut', `<p>${text}</p>`, null);
    }
    const dated = db
      .prepare('SELECT count(*) AS n FROM posts WHERE service = ? AND "user" = ? AND published IS NOT NULL')
      .get(creator.service, creator.user) as { n: number };
    context = { creator, dated: dated.n };
    cluster = await startThrowawayCluster({ fast: true });
    const pool = postgresPool(cluster.url, { max: 2 });
    try {
      await copyToPostgres(db, pool);
    } finally {
      await pool.end();
    }
    store = postgresStore(cluster.url, { max: 2 });
    // Written after the copy, on both engines: the postings follow post_search through its triggers.
    for (const engine of [db, store]) {
      await upsertPost(engine, {
        ...creator,
        id: 'parity-7',
        title: 'Breakfast',
        content: '<p>quokkamarine toast</p>',
        published: null,
        tags: [],
      });
      await deletePost(engine, creator.service, creator.user, 'parity-8');
    }
  }, 240_000);
  afterAll(async () => {
    if (store) await closeStore(store);
    await cluster?.stop();
    db?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs 60 searches, covering undated posts', () => {
    expect(CASES).toHaveLength(60);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(60);
    expect(context.dated).toBeGreaterThan(2);
  });

  for (const search of [...CASES, ...POSTINGS_CASES]) {
    it(search.name, async () => {
      const options = await search.options(context);
      const sqlite = await searchPosts(db, options);
      if (POSTINGS_CASES.includes(search)) {
        const page = {
          offset: options.offset ?? 0,
          limit: options.limit ?? PAGE_SIZE,
          after: options.archiveAfter,
          countLimit: options.countLimit ?? SEARCH_COUNT_LIMIT,
        };
        const direct = await newestByPostings(store, searchQueryWords(options.q ?? ''), page);
        if (search.postings === false) expect(direct, `${search.name}: left to the trigram path`).toBeNull();
        else expect(direct, `${search.name}: the postings' own answer`).toEqual({ posts: sqlite.posts, count: sqlite.count });
      }
      const postgres = await searchPosts(store, options);
      if (search.finds === false) expect(sqlite.posts, `${search.name}: SQLite finds nothing`).toEqual([]);
      else expect(sqlite.posts.length, `${search.name}: SQLite finds something`).toBeGreaterThan(0);
      expect(postgres.posts.map(keyOf), `${search.name}: the posts, in order`).toEqual(sqlite.posts.map(keyOf));
      expect(postgres.posts, `${search.name}: the summaries`).toEqual(sqlite.posts);
      const counts = (result: typeof sqlite) => ({ count: result.count, true_count: result.true_count, capped: result.capped });
      expect(counts(postgres), `${search.name}: the counts`).toEqual(counts(sqlite));
    });
  }
});
