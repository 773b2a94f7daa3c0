/**
 * Post search gives the same answers on both engines: one demo archive (1,500 posts in eight languages,
 * plus a few posts written here for accents, case, punctuation and undated posts), seeded into a real
 * SQLite file and copied into a real throwaway PostgreSQL database; then the same 60 searches through
 * searchPosts on each store (FTS5 on SQLite; on PostgreSQL it hands over to searchPostsPostgres over
 * post_search), compared post for post, in order, with their counts. Every search that should find
 * something finds something on SQLite, so two empty answers cannot pass for parity.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '@api/config.ts';
import { copyToPostgres } from '@api/data/copy-to-postgres.ts';
import { migrate, openDatabase, type Db } from '@api/data/db.ts';
import { searchPosts, type SearchOptions } from '@api/data/post-search.ts';
import { archiveCursorOf, upsertPost } from '@api/data/posts.ts';
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

  for (const search of CASES) {
    it(search.name, async () => {
      const options = await search.options(context);
      const sqlite = await searchPosts(db, options);
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
