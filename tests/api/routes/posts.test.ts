import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { addPopularity } from '@api/data/popular.ts';
import { deletePost, upsertPost } from '@api/data/posts.ts';
import { upsertComment } from '@api/data/comments.ts';
import { readConfig } from '@api/config.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let temp: TempDb;
let app: ReturnType<typeof createApp>;
const IMAGE = `/aa/bb/${'aabb'.padEnd(64, '0')}.png`;
const ZIP = `/cc/dd/${'ccdd'.padEnd(64, '1')}.zip`;
const TOTAL = 120;

function day(n: number): string {
  return new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 19);
}

beforeAll(async () => {
  temp = tempDb();
  const { db } = temp;
  await upsertCreator(db, { service: 'patreon', id: '42', name: 'Painter', updated: Date.UTC(2024, 5, 1) / 1000 });
  await upsertCreator(db, { service: 'fanbox', id: '7', name: 'Other' });
  for (let n = 1; n <= TOTAL; n++) {
    await upsertPost(db, {
      service: 'patreon',
      user: '42',
      id: String(n),
      title: n === 5 ? 'Sunset over the harbour' : `Post ${n}`,
      content: `<p>Body of post ${n}</p>`,
      published: day(n),
      added: day(n),
      tags: n % 2 === 0 ? ['even'] : ['odd'],
      file: n === 5 ? { name: 'sunset.png', path: IMAGE } : null,
      attachments: n === 5 ? [{ name: 'extras.zip', path: ZIP }] : [],
    });
  }
  await upsertPost(
    db,
    {
      service: 'patreon',
      user: '42',
      id: '5',
      title: 'Sunset over the harbour',
      content: '<p>Edited body</p>',
      published: day(5),
      edited: day(200),
      file: { name: 'sunset.png', path: IMAGE },
      attachments: [{ name: 'extras.zip', path: ZIP }],
      tags: ['odd'],
    },
    { now: day(201) },
  );
  await upsertComment(db, {
    service: 'patreon',
    user: '42',
    post_id: '5',
    id: 'c1',
    commenter: 'u1',
    commenter_name: 'Fan',
    content: 'Lovely',
    published: day(6),
  });
  await upsertComment(
    db,
    {
      service: 'patreon',
      user: '42',
      post_id: '5',
      id: 'c1',
      commenter: 'u1',
      commenter_name: 'Fan',
      content: 'Lovely!',
      published: day(6),
    },
    { now: day(7) },
  );
  await addPopularity(db, [
    { day: '2024-03-01', service: 'patreon', user: '42', post_id: '10', favorites: 5 },
    { day: '2024-03-01', service: 'patreon', user: '42', post_id: '11', favorites: 9 },
    { day: '2024-03-04', service: 'patreon', user: '42', post_id: '12', favorites: 20 },
    { day: '2024-02-10', service: 'patreon', user: '42', post_id: '13', favorites: 1 },
  ]);
  app = createApp({ db, config: readConfig({ DATA_DIR: temp.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
});

afterAll(() => temp.cleanup());

// Behind a TLS-terminating proxy kemono clients download {server}/data{path}: an http:// server there
// sends them to the proxy's plain port (or nowhere).
describe('the file server behind a proxy (`server` of attachments, previews and videos)', () => {
  const VIDEO = `/ee/ff/${'eeff'.padEnd(64, '2')}.mp4`;
  const appWith = (env: Record<string, string>) =>
    createApp({ db: temp.db, config: readConfig({ DATA_DIR: temp.dir, TROVE_ENV: 'test', ...env }), logger: { error() {} } });
  const servers = (body: { attachments: { server: string }[]; previews: { server?: string }[]; videos: { server: string }[] }) => [
    ...body.attachments.map((a) => a.server),
    ...body.previews.flatMap((p) => (p.server ? [p.server] : [])),
    ...body.videos.map((v) => v.server),
  ];

  beforeAll(async () => {
    await upsertPost(temp.db, {
      service: 'fanbox',
      user: '7',
      id: 'v1',
      title: 'Clip',
      file: { name: 'cover.png', path: IMAGE },
      attachments: [
        { name: 'clip.mp4', path: VIDEO },
        { name: 'extras.zip', path: ZIP },
      ],
    });
  });
  // The global listings below count the creator's posts only.
  afterAll(async () => {
    await deletePost(temp.db, 'fanbox', '7', 'v1');
  });

  it('with TRUST_PROXY=1 uses X-Forwarded-Proto and the Host header', async () => {
    const proxied = appWith({ TRUST_PROXY: '1' });
    const answer = await request(proxied)
      .get('/api/v1/fanbox/user/7/post/v1')
      .set('Host', 'archive.example.org')
      .set('X-Forwarded-Proto', 'https');
    expect(answer.status).toBe(200);
    const all = servers(answer.body);
    expect(all).toHaveLength(4);
    expect(new Set(all)).toEqual(new Set(['https://archive.example.org']));
    const legacy = await request(proxied)
      .get('/api/v1/fanbox/user/7/posts-legacy')
      .set('Host', 'archive.example.org')
      .set('X-Forwarded-Proto', 'https');
    expect(legacy.body.result_previews[0][0].server).toBe('https://archive.example.org');
    expect(legacy.body.result_attachments[0][0].server).toBe('https://archive.example.org');
  });

  it('with TRUST_PROXY=1 prefers X-Forwarded-Host, and ignores values that are no scheme or host', async () => {
    const proxied = appWith({ TRUST_PROXY: '1' });
    const forwarded = await request(proxied)
      .get('/api/v1/fanbox/user/7/post/v1')
      .set('Host', '127.0.0.1:4321')
      .set('X-Forwarded-Host', 'archive.example.org')
      .set('X-Forwarded-Proto', 'https');
    expect(forwarded.body.attachments[0].server).toBe('https://archive.example.org');
    const junk = await request(proxied)
      .get('/api/v1/fanbox/user/7/post/v1')
      .set('Host', 'archive.example.org')
      .set('X-Forwarded-Host', 'evil.example/<script>')
      .set('X-Forwarded-Proto', 'javascript');
    expect(junk.body.attachments[0].server).toBe('http://archive.example.org');
  });

  it('without TRUST_PROXY the socket decides the scheme, whatever the headers say', async () => {
    const direct = appWith({});
    const answer = await request(direct)
      .get('/api/v1/fanbox/user/7/post/v1')
      .set('Host', 'archive.example.org')
      .set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-Host', 'elsewhere.example.org');
    expect(new Set(servers(answer.body))).toEqual(new Set(['http://archive.example.org']));
  });

  it('IMAGE_HOST still wins', async () => {
    const hosted = appWith({ TRUST_PROXY: '1', IMAGE_HOST: 'https://img.example.org/' });
    const answer = await request(hosted)
      .get('/api/v1/fanbox/user/7/post/v1')
      .set('X-Forwarded-Proto', 'https')
      .set('Host', 'archive.example.org');
    expect(new Set(servers(answer.body))).toEqual(new Set(['https://img.example.org']));
  });
});

describe('GET /api/v1/{service}/user/{id}/posts', () => {
  const url = '/api/v1/patreon/user/42/posts';

  it('answers 50 summaries a page, newest first, a short last page and [] past the end', async () => {
    const first = await request(app).get(url);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(50);
    expect(first.body[0].id).toBe(String(TOTAL));
    expect(Object.keys(first.body[0]).sort()).toEqual(
      [
        'added',
        'attachments',
        'edited',
        'embed',
        'file',
        'id',
        'incomplete_rewards',
        'poll',
        'published',
        'service',
        'shared_file',
        'substring',
        'tags',
        'title',
        'user',
      ].sort(),
    );
    expect(first.body[0].file).toEqual({});
    expect((await request(app).get(`${url}?o=100`)).body).toHaveLength(TOTAL - 100);
    const past = await request(app).get(`${url}?o=5000`);
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
  });

  it('searches within the creator by words and tags', async () => {
    const found = await request(app).get(`${url}?q=harbour`);
    expect(found.body.map((p: { id: string }) => p.id)).toEqual(['5']);
    const tagged = await request(app).get(`${url}?tag=even&o=50`);
    expect(tagged.body).toHaveLength(10);
    expect(tagged.body.every((p: { tags: string[] }) => p.tags.includes('even'))).toBe(true);
  });

  it('gives the spec messages for bad input, never a 500', async () => {
    expect((await request(app).get(`${url}?o=75`)).body).toEqual({ error: 'Offset 75 is not a multiple of 50.' });
    expect((await request(app).get(`${url}?o=-50`)).status).toBe(400);
    expect((await request(app).get(`${url}?o=abc`)).status).toBe(400);
    expect((await request(app).get(`${url}?q=a`)).status).toBe(400);
    expect((await request(app).get('/api/v1/patreon/user/404/posts')).body).toEqual({ error: 'Creator not found.' });
    expect((await request(app).get('/api/v1/nowhere/user/42/posts')).status).toBe(400);
  });

  it('answers 304 to a client whose copy is newer than the creator', async () => {
    expect((await request(app).get(url).set('If-Modified-Since', 'Sat, 01 Jun 2024 00:00:00 GMT')).status).toBe(304);
    expect((await request(app).get(url).set('If-Modified-Since', 'Thu, 01 Jun 2023 00:00:00 GMT')).status).toBe(200);
  });
});

describe('GET /api/v1/{service}/user/{id}/posts-legacy', () => {
  it('answers the legacy page shape with per-result media', async () => {
    const answer = await request(app).get('/api/v1/patreon/user/42/posts-legacy?o=100');
    expect(answer.status).toBe(200);
    expect(answer.body.props).toMatchObject({
      currentPage: 'posts',
      id: '42',
      service: 'patreon',
      name: 'Painter',
      count: TOTAL,
      limit: 50,
      has_links: false,
    });
    expect(answer.body.props.artist.post_count).toBe(TOTAL);
    expect(answer.body.base).toEqual({ service: 'patreon', artist_id: '42' });
    const index = answer.body.results.findIndex((p: { id: string }) => p.id === '5');
    expect(answer.body.result_is_image[index]).toBe(true);
    expect(answer.body.result_previews[index][0]).toMatchObject({ type: 'thumbnail', path: IMAGE, name: 'sunset.png' });
    expect(answer.body.result_attachments[index][0]).toMatchObject({ path: ZIP, name: 'extras.zip', extension: '.zip' });
    expect(answer.body.results).toHaveLength(answer.body.result_is_image.length);
  });
});

describe('GET /api/v1/{service}/user/{id}/post/{post} and its revisions and comments', () => {
  it('answers the post with neighbours, media with the file server, and revisions', async () => {
    const answer = await request(app).get('/api/v1/patreon/user/42/post/5');
    expect(answer.status).toBe(200);
    const { post, attachments, previews, props } = answer.body;
    expect(post).toMatchObject({ id: '5', content: '<p>Edited body</p>', next: '4', prev: '6' });
    expect(attachments[0].server).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(previews[0]).toMatchObject({ type: 'thumbnail', path: IMAGE });
    expect(props.flagged).toBe(false);
    expect(answer.headers['last-modified']).toBeDefined();
  });

  // KToolBox reads props.revisions as List[Tuple[int, Revision]] (pydantic: a string label fails the
  // whole answer, and download-post then downloads nothing) and skips the pair whose revision_id is
  // unset (the post itself); kemono-dl's fixture has [[0, post]] for a post without older versions.
  it('numbers props.revisions with integers: 0 for the post now, then 1, 2, ... newest first', async () => {
    const { post, props } = (await request(app).get('/api/v1/patreon/user/42/post/5')).body;
    const revisions: [unknown, { revision_id?: number; content: string }][] = props.revisions;
    expect(revisions.map(([index]) => index)).toEqual([0, 1]);
    for (const [index] of revisions) expect(Number.isInteger(index)).toBe(true);
    expect(revisions[0][1]).toEqual(post);
    expect(revisions[0][1].revision_id).toBeUndefined();
    expect(revisions[1][1]).toMatchObject({ revision_id: expect.any(Number), content: '<p>Body of post 5</p>' });
    const unrevised = (await request(app).get('/api/v1/patreon/user/42/post/6')).body;
    expect(unrevised.props.revisions).toEqual([[0, unrevised.post]]);
  });

  it('lists previous versions, and answers one in the envelope of the post call', async () => {
    const list = await request(app).get('/api/v1/patreon/user/42/post/5/revisions');
    expect(list.body).toHaveLength(1);
    expect(list.body[0].content).toBe('<p>Body of post 5</p>');
    // KToolBox's download-post --revision_id reads `post` of this answer (GetPost.Response).
    const one = await request(app).get(`/api/v1/patreon/user/42/post/5/revision/${list.body[0].revision_id}`);
    expect(one.status).toBe(200);
    expect(Object.keys(one.body).sort()).toEqual(['attachments', 'post', 'previews', 'props', 'videos']);
    expect(one.body.post).toMatchObject({
      id: '5',
      revision_id: list.body[0].revision_id,
      content: '<p>Body of post 5</p>',
      next: '4',
      prev: '6',
    });
    expect(one.body.attachments[0]).toMatchObject({
      path: ZIP,
      name: 'extras.zip',
      server: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    expect(one.body.previews[0]).toMatchObject({ type: 'thumbnail', path: IMAGE });
    expect(one.body.props.revisions.map(([index]: [number]) => index)).toEqual([0, 1]);
    expect((await request(app).get('/api/v1/patreon/user/42/post/5/revision/999')).status).toBe(404);
    expect((await request(app).get('/api/v1/patreon/user/42/post/nope/revision/1')).status).toBe(404);
    expect((await request(app).get('/api/v1/patreon/user/42/post/5/revision/abc')).status).toBe(400);
  });

  it('answers comments with their revisions', async () => {
    const answer = await request(app).get('/api/v1/patreon/user/42/post/5/comments');
    expect(answer.body).toEqual([
      expect.objectContaining({
        id: 'c1',
        commenter_name: 'Fan',
        content: 'Lovely!',
        revisions: [expect.objectContaining({ content: 'Lovely' })],
      }),
    ]);
    expect((await request(app).get('/api/v1/patreon/user/42/post/6/comments')).body).toEqual([]);
  });

  it('answers 404 for unknown posts', async () => {
    expect((await request(app).get('/api/v1/patreon/user/42/post/nope')).body).toEqual({ error: 'Post not found.' });
    expect((await request(app).get('/api/v1/patreon/user/42/post/nope')).status).toBe(404);
  });

  it('finds a post by service and id', async () => {
    expect((await request(app).get('/api/v1/patreon/post/5')).body).toEqual({ service: 'patreon', artist_id: '42', post_id: '5' });
    expect((await request(app).get('/api/v1/fanbox/post/5')).status).toBe(404);
  });
});

describe('global post listings', () => {
  it('GET /posts answers counts and 50 posts, searchable', async () => {
    const all = await request(app).get('/api/v1/posts');
    expect(all.body.count).toBe(TOTAL);
    expect(all.body.true_count).toBe(TOTAL);
    expect(all.body.posts).toHaveLength(50);
    const found = await request(app).get('/api/v1/posts?q=harbour');
    expect(found.body).toMatchObject({ count: 1, posts: [expect.objectContaining({ id: '5' })] });
    expect((await request(app).get('/api/v1/posts?o=10000')).body.posts).toEqual([]);
    expect((await request(app).get('/api/v1/posts?o=3')).status).toBe(400);
  });

  it('GET /posts/random names an existing post', async () => {
    const answer = await request(app).get('/api/v1/posts/random');
    expect(answer.body).toMatchObject({ service: 'patreon', artist_id: '42' });
    expect(Number(answer.body.post_id)).toBeGreaterThanOrEqual(1);
  });

  it('GET /posts/tags counts every tag', async () => {
    expect((await request(app).get('/api/v1/posts/tags')).body).toEqual(
      expect.arrayContaining([
        { tag: 'even', post_count: 60 },
        { tag: 'odd', post_count: 60 },
      ]),
    );
  });
});

describe('GET /api/v1/posts/popular', () => {
  it('ranks a day by favourites and navigates per scale', async () => {
    const answer = await request(app).get('/api/v1/posts/popular?period=day&date=2024-03-01');
    expect(answer.status).toBe(200);
    expect(answer.body.posts.map((p: { id: string; fav_count: number }) => [p.id, p.fav_count])).toEqual([
      ['11', 9],
      ['10', 5],
    ]);
    expect(answer.body.info).toMatchObject({
      date: '2024-03-01',
      min_date: '2024-02-10',
      max_date: '2024-03-04',
      scale: 'day',
      navigation_dates: { day: ['2024-02-29', '2024-03-02', '2024-03-01'] },
    });
    expect(answer.body.props).toMatchObject({ count: 2, earliest_date_for_popular: '2024-02-10' });
    expect(answer.body.props.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('sums a week and a month', async () => {
    const week = await request(app).get('/api/v1/posts/popular?period=week&date=2024-03-04');
    expect(week.body.posts.map((p: { id: string }) => p.id)).toEqual(['12']);
    const month = await request(app).get('/api/v1/posts/popular?period=month&date=2024-03-15');
    expect(month.body.posts.map((p: { id: string }) => p.id)).toEqual(['12', '11', '10']);
  });

  it('defaults to recent around the last day with data', async () => {
    const answer = await request(app).get('/api/v1/posts/popular');
    expect(answer.body.info).toMatchObject({ scale: 'recent', date: '2024-03-04' });
    expect(answer.body.posts.map((p: { id: string }) => p.id)).toEqual(['12', '11', '10']);
  });

  it('rejects bad periods, dates and offsets with the spec messages', async () => {
    expect((await request(app).get('/api/v1/posts/popular?period=year')).body).toEqual({ error: 'year is not a valid period' });
    expect((await request(app).get('/api/v1/posts/popular?date=2024-02-30')).status).toBe(400);
    expect((await request(app).get('/api/v1/posts/popular?o=7')).status).toBe(400);
  });
});
