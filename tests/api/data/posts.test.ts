import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { upsertCreator } from '@api/data/creators.ts';
import {
  archiveCursorOf,
  countCreatorPosts,
  countPosts,
  deletePost,
  getPost,
  getPostSummaries,
  iterateCreatorPostIds,
  iteratePostKeys,
  listCreatorPosts,
  listRecentPosts,
  postExists,
  randomPost,
  resolvePost,
  upsertPost,
  type PostInput,
} from '@api/data/posts.ts';
import { readChangesSince } from '@api/data/changes.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { addCreator } from './store-rows.ts';
import { creatorPostPosition, postPageNeighbours } from '@api/data/post-neighbours.ts';
import { getPostPage, getPostRevisionPage } from '@api/data/post-page.ts';
import { listAllTags, listCreatorTags } from '@api/data/tags.ts';
import { listComments, upsertComment } from '@api/data/comments.ts';
import { listPostRevisions } from '@api/data/post-revisions.ts';
import { searchPosts } from '@api/data/post-search.ts';
import { tempDb, type TempDb } from './helpers.ts';

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);
const path = (hash: string, ext: string) => `/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}${ext}`;

describe('posts', () => {
  let t: TempDb;
  beforeEach(async () => {
    t = tempDb();
    await upsertCreator(t.db, { service: 'fanbox', id: '100', name: 'Kuro' });
    await upsertCreator(t.db, { service: 'patreon', id: '200', name: 'Luna' });
  });
  afterEach(() => t.cleanup());

  /** 120 posts for fanbox/100: days 1..60, two posts per day (ties broken by id, descending), ids '1001'..'1120'. */
  async function seedListing(): Promise<string[]> {
    for (let i = 0; i < 120; i += 1) {
      const day = 1 + Math.floor(i / 2);
      const date = new Date(Date.UTC(2024, 0, day, 12)).toISOString().slice(0, 19);
      await upsertPost(t.db, {
        service: 'fanbox',
        user: '100',
        id: String(1001 + i),
        title: `Post ${i}`,
        content: `<p>Body ${i}</p>`,
        published: date,
        added: date,
      });
    }
    // Expected newest-first order: published DESC, then id DESC within a day.
    const expected: string[] = [];
    for (let day = 60; day >= 1; day -= 1) {
      const first = 1001 + (day - 1) * 2;
      expected.push(String(first + 1), String(first));
    }
    return expected;
  }

  it('lists a creator newest first in pages of 50, with an empty page past the end', async () => {
    const expected = await seedListing();
    expect(await countCreatorPosts(t.db, 'fanbox', '100')).toBe(120);
    const pages = await Promise.all([0, 50, 100].map((o) => listCreatorPosts(t.db, 'fanbox', '100', o, 50)));
    expect(pages.map((p) => p.length)).toEqual([50, 50, 20]);
    expect(pages.flat().map((p) => p.id)).toEqual(expected);
    expect(await listCreatorPosts(t.db, 'fanbox', '100', 150, 50)).toEqual([]);
    expect(await listCreatorPosts(t.db, 'patreon', '200', 0, 50)).toEqual([]);
  });

  it('gives summaries in the API shape', async () => {
    await upsertPost(t.db, {
      service: 'patreon',
      user: '200',
      id: '9',
      title: 'Hello',
      content: '<p>Hello <b>world</b> &amp; friends</p>',
      published: '2024-06-04T23:53:36',
      added: '2024-06-05T00:00:00',
      tags: ['a', 'b'],
      attachments: [{ name: 'x.zip', path: path(HASH_A, '.zip') }],
    });
    const [summary] = await listCreatorPosts(t.db, 'patreon', '200', 0, 50);
    expect(Object.keys(summary).sort()).toEqual(
      [
        'id',
        'user',
        'service',
        'title',
        'substring',
        'published',
        'added',
        'edited',
        'tags',
        'file',
        'attachments',
        'poll',
        'incomplete_rewards',
        'embed',
        'shared_file',
      ].sort(),
    );
    expect(summary).toMatchObject({
      id: '9',
      user: '200',
      service: 'patreon',
      substring: 'Hello world & friends',
      published: '2024-06-04T23:53:36',
      file: {},
      attachments: [{ name: 'x.zip', path: path(HASH_A, '.zip') }],
      tags: ['a', 'b'],
      poll: null,
      embed: {},
      shared_file: false,
    });
    expect((await listRecentPosts(t.db, 0, 50)).map((p) => p.id)).toEqual(['9']);
    expect(await countPosts(t.db)).toBe(1);
  });

  it('links prev (newer) and next (older) along the creator listing', async () => {
    const expected = await seedListing();
    for (const [i, id] of expected.entries()) {
      const post = (await getPost(t.db, 'fanbox', '100', id))!;
      expect(post.prev).toBe(i === 0 ? null : expected[i - 1]);
      expect(post.next).toBe(i === expected.length - 1 ? null : expected[i + 1]);
      expect(await postPageNeighbours(t.db, 'fanbox', '100', id)).toEqual({ prev: post.prev, next: post.next });
      expect(await creatorPostPosition(t.db, 'fanbox', '100', id)).toBe(i);
    }
    const ids: string[] = [];
    for await (const id of iterateCreatorPostIds(t.db, 'fanbox', '100', 7)) ids.push(id);
    expect(ids).toEqual(expected);
  });

  it('places posts without a published date last', async () => {
    await upsertPost(t.db, { service: 'patreon', user: '200', id: '1', title: 'dated', published: '2024-01-01T00:00:00' });
    await upsertPost(t.db, { service: 'patreon', user: '200', id: '2', title: 'undated a', published: null });
    await upsertPost(t.db, { service: 'patreon', user: '200', id: '3', title: 'undated b', published: null });
    expect((await listCreatorPosts(t.db, 'patreon', '200', 0, 50)).map((p) => p.id)).toEqual(['1', '3', '2']);
    expect(await getPost(t.db, 'patreon', '200', '1')).toMatchObject({ prev: null, next: '3' });
    expect(await getPost(t.db, 'patreon', '200', '3')).toMatchObject({ prev: '1', next: '2' });
    expect(await getPost(t.db, 'patreon', '200', '2')).toMatchObject({ prev: '3', next: null });
    expect(await creatorPostPosition(t.db, 'patreon', '200', '2')).toBe(2);
  });

  it('stores the previous version as a revision when content changes, and nothing when identical', async () => {
    const post: PostInput = {
      service: 'fanbox',
      user: '100',
      id: '5',
      title: 'v1',
      content: '<p>first</p>',
      published: '2024-02-01T00:00:00',
    };
    expect((await upsertPost(t.db, post)).action).toBe('inserted');
    expect((await upsertPost(t.db, post)).action).toBe('unchanged');
    expect(await listPostRevisions(t.db, 'fanbox', '100', '5')).toEqual([]);

    const result = await upsertPost(t.db, { ...post, title: 'v2', content: '<p>second</p>' }, { now: '2024-02-02T00:00:00' });
    expect(result.action).toBe('updated');
    expect(result.revision_id).toBeGreaterThan(0);
    expect(await getPost(t.db, 'fanbox', '100', '5')).toMatchObject({ title: 'v2', content: '<p>second</p>' });
    const revisions = await listPostRevisions(t.db, 'fanbox', '100', '5');
    expect(revisions).toHaveLength(1);
    expect(revisions[0]).toMatchObject({
      revision_id: result.revision_id,
      title: 'v1',
      content: '<p>first</p>',
      added: '2024-02-02T00:00:00',
    });
    expect((await getPostRevisionPage(t.db, 'fanbox', '100', '5', result.revision_id!))?.post).toMatchObject({ title: 'v1' });
    expect(await getPostRevisionPage(t.db, 'fanbox', '100', '5', 999)).toBeUndefined();
    expect(await getPostRevisionPage(t.db, 'fanbox', '100', 'missing', result.revision_id!)).toBeUndefined();

    await upsertPost(t.db, { ...post, title: 'v3', content: '<p>third</p>' });
    expect((await listPostRevisions(t.db, 'fanbox', '100', '5')).map((r) => r.title)).toEqual(['v2', 'v1']);
    const page = (await getPostPage(t.db, 'fanbox', '100', '5'))!;
    // [index, version]: 0 is the post as it is now, then 1, 2 for older versions, newest first.
    expect(page.props.revisions.map(([index, version]) => [index, version.title])).toEqual([
      [0, 'v3'],
      [1, 'v2'],
      [2, 'v1'],
    ]);
    expect(page.props.revisions[0][1]).not.toHaveProperty('revision_id');
  });

  it('counts tags per creator and globally, following tag changes', async () => {
    await upsertPost(t.db, { service: 'fanbox', user: '100', id: '1', tags: ['cat', 'sketch'] });
    await upsertPost(t.db, { service: 'fanbox', user: '100', id: '2', tags: ['cat'] });
    await upsertPost(t.db, { service: 'patreon', user: '200', id: '3', tags: ['cat', '黒猫'] });
    expect(await listCreatorTags(t.db, 'fanbox', '100')).toEqual([
      { tag: 'cat', post_count: 2 },
      { tag: 'sketch', post_count: 1 },
    ]);
    expect(await listAllTags(t.db)).toEqual([
      { tag: 'cat', post_count: 3 },
      { tag: 'sketch', post_count: 1 },
      { tag: '黒猫', post_count: 1 },
    ]);
    await upsertPost(t.db, { service: 'fanbox', user: '100', id: '2', tags: ['sketch'] });
    expect(await listCreatorTags(t.db, 'fanbox', '100')).toEqual([
      { tag: 'sketch', post_count: 2 },
      { tag: 'cat', post_count: 1 },
    ]);
    expect((await searchPosts(t.db, { tag: 'sketch' })).posts.map((p) => p.id)).toEqual(['2', '1']);
    expect((await searchPosts(t.db, { tag: ['cat', 'sketch'] })).posts.map((p) => p.id)).toEqual(['1']);
    expect((await searchPosts(t.db, { tag: 'cat', service: 'patreon', user: '200' })).count).toBe(1);
  });

  describe('search', () => {
    beforeEach(async () => {
      await upsertPost(t.db, {
        service: 'fanbox',
        user: '100',
        id: '1',
        title: '黒猫の日常',
        content: '<p>今日も<b>黒猫</b>は眠い</p>',
        published: '2024-01-01T00:00:00',
      });
      await upsertPost(t.db, {
        service: 'fanbox',
        user: '100',
        id: '2',
        title: 'Weekly sketch dump',
        content: '<p>A <em>watercolour</em> study</p>',
        published: '2024-01-02T00:00:00',
      });
      await upsertPost(t.db, {
        service: 'patreon',
        user: '200',
        id: '3',
        title: '黑猫日记',
        content: '<p>原创插画</p>',
        published: '2024-01-03T00:00:00',
      });
      await upsertPost(t.db, {
        service: 'patreon',
        user: '200',
        id: '4',
        title: 'Sunset',
        content: '<p>Sketch of a sunset</p>',
        published: '2024-01-04T00:00:00',
      });
    });

    const ids = async (q: string, extra: Record<string, unknown> = {}) => (await searchPosts(t.db, { q, ...extra })).posts.map((p) => p.id);

    it('finds an English word in the title or the text of the content, case-insensitively, newest first', async () => {
      expect(await ids('sketch')).toEqual(['4', '2']);
      expect(await ids('WATERCOLOUR')).toEqual(['2']);
      expect(await ids('em>')).toEqual([]); // markup is not indexed
      expect((await searchPosts(t.db, { q: 'sketch' })).count).toBe(2);
    });

    it('finds Japanese and Chinese substrings, including 1- and 2-character queries', async () => {
      expect(await ids('猫の日')).toEqual(['1']);
      expect(await ids('猫')).toEqual(['3', '1']);
      expect(await ids('黒猫')).toEqual(['1']);
      expect(await ids('黑猫')).toEqual(['3']);
      expect(await ids('原创插画')).toEqual(['3']);
      expect(await ids('眠い')).toEqual(['1']);
    });

    it('combines words, tags and a creator scope, and pages', async () => {
      expect(await ids('sketch sunset')).toEqual(['4']);
      expect(await ids('sketch of')).toEqual(['4']);
      expect(await ids('sketch', { service: 'fanbox', user: '100' })).toEqual(['2']);
      expect(await ids('猫', { service: 'patreon', user: '200' })).toEqual(['3']);
      expect(await ids('sketch', { offset: 1, limit: 1 })).toEqual(['2']);
      expect(await searchPosts(t.db, { q: 'nothing-like-this' })).toEqual({ posts: [], count: 0, true_count: 0, capped: false });
      expect(await searchPosts(t.db, { q: 'e', countLimit: 2 })).toMatchObject({ count: 2, capped: true });
      expect((await searchPosts(t.db, { q: '' })).count).toBe(4);
    });

    it('follows updates and deletions', async () => {
      await upsertPost(t.db, {
        service: 'fanbox',
        user: '100',
        id: '2',
        title: 'Renamed',
        content: '<p>gouache</p>',
        published: '2024-01-02T00:00:00',
      });
      expect(await ids('watercolour')).toEqual([]);
      expect(await ids('gouache')).toEqual(['2']);
      await deletePost(t.db, 'patreon', '200', '4');
      expect(await ids('sunset')).toEqual([]);
      expect(await ids('sketch')).toEqual([]);
    });
  });

  it('builds the post page: attachments with server, image previews, videos and the embed', async () => {
    await upsertPost(t.db, {
      service: 'fanbox',
      user: '100',
      id: '1',
      title: 'Media',
      file: { name: 'cover.png', path: path(HASH_A, '.png') },
      attachments: [
        { name: 'clip.mp4', path: path(HASH_B, '.mp4') },
        { name: 'pack.zip', path: path('c'.repeat(64), '.zip') },
        { name: 'extra.jpg', path: path('d'.repeat(64), '.jpg') },
      ],
      embed: { url: 'https://example.com/v', subject: 'Video', description: 'A video' },
    });
    const page = (await getPostPage(t.db, 'fanbox', '100', '1', 'http://localhost:4321'))!;
    expect(page.post.file).toEqual({ name: 'cover.png', path: path(HASH_A, '.png') });
    expect(page.previews).toEqual([
      { type: 'thumbnail', server: 'http://localhost:4321', name: 'cover.png', path: path(HASH_A, '.png'), caption: null },
      { type: 'thumbnail', server: 'http://localhost:4321', name: 'extra.jpg', path: path('d'.repeat(64), '.jpg'), caption: null },
      { type: 'embed', url: 'https://example.com/v', subject: 'Video', description: 'A video' },
    ]);
    expect(page.videos).toEqual([
      { index: 0, path: path(HASH_B, '.mp4'), name: 'clip.mp4', extension: '.mp4', server: 'http://localhost:4321', caption: null },
    ]);
    expect(page.attachments.map((a) => a.name)).toEqual(['clip.mp4', 'pack.zip']);
    expect(page.attachments[1]).toEqual({
      server: 'http://localhost:4321',
      name: 'pack.zip',
      path: path('c'.repeat(64), '.zip'),
      extension: '.zip',
      name_extension: '.zip',
      stem: 'c'.repeat(64),
    });
    // A post without older versions still lists itself as version 0.
    expect(page.props).toEqual({ flagged: false, revisions: [[0, page.post]] });
    expect(await getPostPage(t.db, 'fanbox', '100', 'missing')).toBeUndefined();
  });

  it('keeps comments with their revisions', async () => {
    await upsertPost(t.db, { service: 'fanbox', user: '100', id: '1' });
    const base = { service: 'fanbox', user: '100', post_id: '1', commenter: '7', commenter_name: 'kiwi' };
    await upsertComment(t.db, { ...base, id: 'c1', content: 'first', published: '2024-01-01T00:00:00' });
    await upsertComment(t.db, { ...base, id: 'c2', parent_id: 'c1', content: 'reply', published: '2024-01-02T00:00:00' });
    await upsertComment(
      t.db,
      { ...base, id: 'c1', content: 'first (edited)', published: '2024-01-01T00:00:00' },
      { now: '2024-01-03T00:00:00' },
    );
    const comments = await listComments(t.db, 'fanbox', '100', '1');
    expect(comments.map((c) => [c.id, c.parent_id, c.content])).toEqual([
      ['c1', null, 'first (edited)'],
      ['c2', 'c1', 'reply'],
    ]);
    expect(comments[0].revisions).toEqual([{ id: expect.any(Number), content: 'first', added: '2024-01-03T00:00:00' }]);
  });

  it('iterates every post key in batches', async () => {
    await seedListing();
    const keys = [];
    for await (const key of iteratePostKeys(t.db, 7)) keys.push(key);
    expect(keys).toHaveLength(120);
    expect(new Set(keys.map((k) => k.id)).size).toBe(120);
    expect(keys[0]).toMatchObject({ service: 'fanbox', user: '100' });
  });
});

const engines = engineDatabases();

describe.each(ENGINES)('posts on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
    await addCreator(db, 'fanbox', '1');
    await addCreator(db, 'fanbox', '2');
  });
  const put = (id: string, published: string | null, more: Partial<PostInput> = {}) =>
    upsertPost(db, { service: 'fanbox', user: '1', id, title: `t${id}`, published, added: `2030-01-01T00:00:0${id.length}`, ...more });
  const ids = (posts: { id: string }[]) => posts.map((post) => post.id);

  it('answers empty and missing', async () => {
    expect(await listCreatorPosts(db, 'fanbox', '1', 0, 10)).toEqual([]);
    expect(await listRecentPosts(db, 0, 10)).toEqual([]);
    expect(await countPosts(db)).toBe(0);
    expect(await countCreatorPosts(db, 'fanbox', '1')).toBe(0);
    expect(await getPost(db, 'fanbox', '1', 'x')).toBeUndefined();
    expect(await postExists(db, 'fanbox', '1', 'x')).toBe(false);
    expect(await resolvePost(db, 'fanbox', 'x')).toBeUndefined();
    expect(await archiveCursorOf(db, { service: 'fanbox', user: '1', id: 'x' })).toBeNull();
    expect(await randomPost(db)).toBeUndefined();
    expect(await deletePost(db, 'fanbox', '1', 'x')).toBe(false);
    expect(await getPostSummaries(db, [{ service: 'fanbox', user: '1', id: 'x' }])).toEqual([]);
  });

  it('counts the posts through new ones, re-imports and removals', async () => {
    const counted = async () => (await sql<{ n: number }>`SELECT count(*) AS n FROM posts`.execute(db.k)).rows[0].n;
    for (const id of ['a', 'b', 'c']) await put(id, '2020-01-01T00:00:00');
    await put('a', '2020-01-01T00:00:00', { title: 'edited' });
    await upsertPost(db, { service: 'fanbox', user: '2', id: 'd', title: 'td', published: null, added: '2030-01-01T00:00:00' });
    expect(await countPosts(db)).toBe(4);
    expect(await deletePost(db, 'fanbox', '1', 'b')).toBe(true);
    expect(await countPosts(db)).toBe(3);
    // Several rows in one statement.
    await sql`DELETE FROM posts WHERE service = 'fanbox' AND "user" = '1'`.execute(db.k);
    expect(await countPosts(db)).toBe(1);
    await put('e', null);
    await sql`DELETE FROM posts`.execute(db.k);
    expect([await countPosts(db), Number(await counted())]).toEqual([0, 0]);
  });

  it('keeps the count exact over many small writes (PostgreSQL folds its rows of changes)', async () => {
    for (let i = 0; i < 260; i += 1) {
      await sql`INSERT INTO posts (service, "user", id, seq, title, added) VALUES ('fanbox', '1', ${`p${i}`}, ${i + 1}, 't', '2030-01-01T00:00:00')`.execute(
        db.k,
      );
    }
    await sql`DELETE FROM posts WHERE id IN ('p0', 'p1')`.execute(db.k);
    expect(await countPosts(db)).toBe(258);
    if (engine === 'PostgreSQL') {
      const changeRows = (await sql<{ n: number }>`SELECT count(*) AS n FROM post_count`.execute(db.k)).rows[0].n;
      expect(Number(changeRows)).toBeLessThan(10);
    }
  });

  it('lists a creator newest first, ties by id, undated last, by offset and by cursor', async () => {
    for (const [id, published] of [
      ['a', '2020-01-01T00:00:00'],
      ['b', '2020-02-01T00:00:00'],
      ['c', '2020-02-01T00:00:00'],
      ['y', null],
      ['z', null],
      ['é', '2020-03-01T00:00:00'],
    ] as const) {
      await put(id, published);
    }
    const order = ['é', 'c', 'b', 'a', 'z', 'y'];
    expect(ids(await listCreatorPosts(db, 'fanbox', '1', 0, 10))).toEqual(order);
    expect(ids(await listCreatorPosts(db, 'fanbox', '1', 2, 3))).toEqual(['b', 'a', 'z']);
    expect(ids(await listCreatorPosts(db, 'fanbox', '1', 0, 3, { published: '2020-02-01T00:00:00', id: 'c' }))).toEqual(['b', 'a', 'z']);
    expect(ids(await listCreatorPosts(db, 'fanbox', '1', 0, 10, { published: null, id: 'z' }))).toEqual(['y']);
    const walked: string[] = [];
    for await (const id of iterateCreatorPostIds(db, 'fanbox', '1', 4)) walked.push(id);
    expect(walked).toEqual(order);
    expect(await countCreatorPosts(db, 'fanbox', '1')).toBe(6);
    const post = await getPost(db, 'fanbox', '1', 'a');
    expect([post?.prev, post?.next, post?.title]).toEqual(['b', 'z', 'ta']);
  });

  it('numbers new posts in turn, lists them by added, and iterates and picks them', async () => {
    await put('1', null, { added: '2030-01-02T00:00:00' });
    await put('2', null, { added: '2030-01-01T00:00:00' });
    await put('3', null, { added: '2030-01-02T00:00:00', user: '2' });
    expect(ids(await listRecentPosts(db, 0, 10))).toEqual(['3', '1', '2']);
    expect(await archiveCursorOf(db, { service: 'fanbox', user: '1', id: '1' })).toEqual({ added: '2030-01-02T00:00:00', seq: 1 });
    expect(ids(await listRecentPosts(db, 0, 10, { added: '2030-01-02T00:00:00', seq: 1 }))).toEqual(['2']);
    const keys = [];
    for await (const key of iteratePostKeys(db, 2)) keys.push(key);
    expect(keys.map((key) => [key.user, key.id, key.seq])).toEqual([
      ['1', '1', 1],
      ['1', '2', 2],
      ['2', '3', 3],
    ]);
    expect(await randomPost(db, () => 0.5)).toEqual({ service: 'fanbox', user: '1', id: '2' });
    expect(await resolvePost(db, 'fanbox', '3')).toEqual({ service: 'fanbox', artist_id: '2', post_id: '3' });
    const summaries = await getPostSummaries(db, [
      { service: 'fanbox', user: '2', id: '3' },
      { service: 'fanbox', user: '9', id: '1' },
      { service: 'fanbox', user: '1', id: '1' },
    ]);
    expect(ids(summaries)).toEqual(['3', '1']);
  });

  it('gives concurrent writers distinct archive numbers', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => put(`p${i}`, null)));
    const keys = [];
    for await (const key of iteratePostKeys(db)) keys.push(key.seq);
    expect(keys).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('updates, keeps revisions, deletes, and logs the changes', async () => {
    expect(await put('a', '2020-01-01T00:00:00', { content: '<p>日本語</p>', tags: ['x'] })).toEqual({ action: 'inserted' });
    await put('b', '2020-02-01T00:00:00');
    expect(await put('a', '2020-01-01T00:00:00', { content: '<p>日本語</p>', tags: ['x'] })).toEqual({ action: 'unchanged' });
    expect(await put('a', '2020-03-01T00:00:00', { content: '<p>新</p>' })).toEqual({ action: 'updated', revision_id: 1 });
    const post = await getPost(db, 'fanbox', '1', 'a');
    expect([post?.content, post?.tags, post?.published, post?.next]).toEqual(['<p>新</p>', [], '2020-03-01T00:00:00', 'b']);
    const since = (await readChangesSince(db, 0)).at(-1)!.id;
    expect(await deletePost(db, 'fanbox', '1', 'a')).toBe(true);
    expect(await postExists(db, 'fanbox', '1', 'a')).toBe(false);
    expect((await readChangesSince(db, since)).map((change) => [change.action, change.post_id, change.ref])).toEqual([
      ['delete', 'a', 'revision:1'],
      ['delete', 'a', null],
      ['upsert', 'b', 'neighbour'],
    ]);
    expect(await countPosts(db)).toBe(1);
  });
});
