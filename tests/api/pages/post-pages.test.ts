/**
 * The post page and its revision pages: keys in the page store, which changes re-render them, and
 * what the real SSR handler renders (meta tags, poll, downloads, comments, revisions, guards).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalPageKey } from '@api/pages/keys.ts';
import { affectedByChanges } from '@api/pages/affected.ts';
import { allArchivePages } from '@api/pages/rebuild.ts';
import { lastChangeId, readChangesSince } from '@api/data/changes.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { deletePost, upsertPost } from '@api/data/posts.ts';
import { listRevisionIds } from '@api/data/post-revisions.ts';
import { upsertComment } from '@api/data/comments.ts';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { httpRequest } from '../../helpers/http.ts';

const HASH = (c: string) => c.repeat(64);
const path = (c: string, ext: string) => `/${c}${c}/${c}${c}/${HASH(c)}.${ext}`;
const base = '/patreon/user/500/post';

let site: TestSite;
let revisions: number[];

async function get(url: string) {
  const answer = await httpRequest(site.base + url);
  return { status: answer.status, html: answer.body.toString('utf8') };
}

beforeAll(async () => {
  site = await createTestSite('post-pages');
  const db = site.db;
  await upsertCreator(db, { service: 'patreon', id: '500', name: 'Painter' });
  await upsertPost(db, { service: 'patreon', user: '500', id: 'older', title: 'Older', published: '2024-01-01T00:00:00' });
  await upsertPost(db, { service: 'patreon', user: '500', id: 'newer', title: 'Newer', published: '2024-01-03T00:00:00' });
  const post = {
    service: 'patreon',
    user: '500',
    id: 'mid',
    published: '2024-01-02T10:20:30',
    content: '<p>Hello <b>patrons</b><script>alert(1)</script></p>',
    file: { name: 'cover.png', path: path('a', 'png') },
    attachments: [
      { name: 'layers.zip', path: path('b', 'zip') },
      { name: 'timelapse.mp4', path: path('c', 'mp4') },
    ],
    tags: ['one', 'two'],
  };
  await upsertPost(db, { ...post, title: 'First version' }, { now: '2024-01-02T12:00:00' });
  await upsertPost(db, { ...post, title: 'Second version' }, { now: '2024-01-02T13:00:00' });
  await upsertPost(db, {
    ...post,
    title: 'Final version',
    poll: {
      title: 'Next theme?',
      choices: [
        { text: 'Cats', votes: 1 },
        { text: 'Dogs', votes: 2 },
      ],
      total_votes: 3,
      created_at: '2024-01-02T10:20:30',
      closes_at: null,
      allow_multiple: true,
    },
  });
  revisions = await listRevisionIds(db, 'patreon', '500', 'mid');
  await site.start();
}, 300_000);

afterAll(async () => {
  await site?.close();
});

describe('revision page keys', () => {
  it('stores revision pages under numeric ids only', () => {
    expect(canonicalPageKey('/patreon/user/500/post/mid/revision/12', '')).toBe('/patreon/user/500/post/mid/revision/12');
    for (const id of ['0', '012', 'abc', '1.5', '9'.repeat(16)]) {
      expect(canonicalPageKey(`/patreon/user/500/post/mid/revision/${id}`, ''), id).toBeUndefined();
    }
    expect(canonicalPageKey('/patreon/user/500/post/mid/revision/12', '?o=50')).toBeUndefined();
    expect(canonicalPageKey('/patreon/user/500/post/mid/revision', '')).toBeUndefined();
    expect(canonicalPageKey('/myspace/user/500/post/mid/revision/12', '')).toBeUndefined();
  });
});

describe('pages a post change affects', () => {
  it('a post write re-renders its revision pages, and a full rebuild renders them all', async () => {
    expect(revisions).toHaveLength(2);
    const from = await lastChangeId(site.db);
    await upsertPost(site.db, { service: 'patreon', user: '500', id: 'older', title: 'Older, edited', published: '2024-01-01T00:00:00' });
    const render = (await affectedByChanges(site.db, await readChangesSince(site.db, from))).render;
    // 'older' changed; its neighbour 'mid' is re-rendered with its revisions (their next link).
    for (const id of await listRevisionIds(site.db, 'patreon', '500', 'older')) expect(render).toContain(`${base}/older/revision/${id}`);
    for (const id of revisions) expect(render).toContain(`${base}/mid/revision/${id}`);
    const all = (await allArchivePages(site.db)).render;
    for (const id of revisions) expect(all).toContain(`${base}/mid/revision/${id}`);
  });

  it('a post that is a neighbour of two written posts and written itself keeps its revision pages', async () => {
    const put = (id: string, day: number, title: string) =>
      upsertPost(site.db, { service: 'patreon', user: '501', id, title, published: `2024-01-0${day}T00:00:00` });
    await upsertCreator(site.db, { service: 'patreon', id: '501', name: 'Sculptor' });
    await put('mid', 2, 'First');
    await put('mid', 2, 'Second');
    const from = await lastChangeId(site.db);
    await put('older', 1, 'Older');
    await put('newer', 3, 'Newer');
    await put('mid', 2, 'Third');
    const render = (await affectedByChanges(site.db, await readChangesSince(site.db, from))).render;
    const sculptor = '/patreon/user/501/post';
    for (const id of ['older', 'mid', 'newer']) expect(render).toContain(`${sculptor}/${id}`);
    const midRevisions = await listRevisionIds(site.db, 'patreon', '501', 'mid');
    expect(midRevisions).toHaveLength(2);
    for (const id of midRevisions) expect(render).toContain(`${sculptor}/mid/revision/${id}`);
  });

  it('a comment re-renders the post and its revision pages', async () => {
    await upsertPost(site.db, { service: 'patreon', user: '500', id: 'newer', title: 'Newer!', published: '2024-01-03T00:00:00' });
    const [revision] = await listRevisionIds(site.db, 'patreon', '500', 'newer');
    const from = await lastChangeId(site.db);
    await upsertComment(site.db, { service: 'patreon', user: '500', post_id: 'newer', id: 'c1', commenter: '1', content: 'hi' });
    const render = (await affectedByChanges(site.db, await readChangesSince(site.db, from))).render;
    expect([...render].sort()).toEqual([`${base}/newer`, `${base}/newer/revision/${revision}`]);
  });

  it("a creator's new name re-renders its post pages; a touch of its dates does not", async () => {
    let from = await lastChangeId(site.db);
    await upsertCreator(site.db, { service: 'patreon', id: '500', name: 'Painter', updated: 1_900_000_000 });
    expect(
      [...(await affectedByChanges(site.db, await readChangesSince(site.db, from))).render].some((key) => key.includes('/post/')),
    ).toBe(false);
    from = await lastChangeId(site.db);
    await upsertCreator(site.db, { service: 'patreon', id: '500', name: 'Painter Renamed' });
    const render = (await affectedByChanges(site.db, await readChangesSince(site.db, from))).render;
    for (const id of ['older', 'mid', 'newer']) expect(render).toContain(`${base}/${id}`);
    await upsertCreator(site.db, { service: 'patreon', id: '500', name: 'Painter' });
  });

  it('a deleted post renders its former revision pages, so that they are removed', async () => {
    await upsertPost(site.db, { service: 'patreon', user: '500', id: 'gone', title: 'v1', published: '2023-01-01T00:00:00' });
    await upsertPost(site.db, { service: 'patreon', user: '500', id: 'gone', title: 'v2', published: '2023-01-01T00:00:00' });
    const [id] = await listRevisionIds(site.db, 'patreon', '500', 'gone');
    const from = await lastChangeId(site.db);
    await deletePost(site.db, 'patreon', '500', 'gone');
    const render = (await affectedByChanges(site.db, await readChangesSince(site.db, from))).render;
    expect(render).toContain(`${base}/gone`);
    expect(render).toContain(`${base}/gone/revision/${id}`);
  });
});

describe('the rendered post page', () => {
  it('renders header, meta tags, poll, downloads, sanitized content and the empty comments', async () => {
    const { status, html } = await get(`${base}/mid`);
    expect(status).toBe(200);
    expect(html).toContain('<meta name="service" content="patreon">');
    expect(html).toContain('<meta name="id" content="mid">');
    expect(html).toContain('<meta name="user" content="500">');
    expect(html).toContain('<meta name="published" content="2024-01-02T10:20:30">');
    expect(html).toContain('<meta property="og:title" content="Final version">');
    expect(html).toContain('<meta property="og:type" content="article">');
    expect(html).toContain(`<meta property="og:url" content="${base}/mid">`);
    expect(html).toContain(`<meta property="og:image" content="/thumbnail/data${path('a', 'png')}">`);
    expect(html).toContain('<meta property="og:description" content="Hello patrons">');
    expect(html).toContain('2024-01-02 10:20:30');
    expect(html).toMatch(/<a rel="prev" href="\/patreon\/user\/500\/post\/newer">/);
    expect(html).toMatch(/<a rel="next" href="\/patreon\/user\/500\/post\/older">/);
    expect(html).toContain('33.33%');
    expect(html).toContain('66.67%');
    expect(html).toContain(`href="/data${path('b', 'zip')}?f=layers.zip"`);
    expect(html).toContain(`href="/file/${HASH('b')}"`);
    expect(html).toContain(`<video controls preload="none" src="/data${path('c', 'mp4')}"`);
    expect(html).toContain('Hello <b>patrons</b>');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('No comments found for this post.');
    expect(html).toContain(`<option value="${base}/mid/revision/${revisions[0]}">`);
  });

  it('renders a revision with its own content, the post neighbours and the selector on it', async () => {
    const oldest = revisions[revisions.length - 1];
    const { status, html } = await get(`${base}/mid/revision/${oldest}`);
    expect(status).toBe(200);
    expect(html).toContain('First version');
    expect(html).not.toContain('Next theme?');
    expect(html).toContain(`<meta property="og:url" content="${base}/mid/revision/${oldest}">`);
    expect(html).toContain(`<meta name="revision" content="${oldest}">`);
    expect(html).toMatch(/<a rel="prev" href="\/patreon\/user\/500\/post\/newer">/);
    expect(html).toMatch(new RegExp(`<option value="${base}/mid/revision/${oldest}" selected>`));
    expect(html).toContain(`<option value="${base}/mid">Current</option>`);
  });

  it('labels versions for readers (the API numbers them) and shows no selector for a post without older ones', async () => {
    const { html } = await get(`${base}/mid`);
    expect(html).toContain(`<option value="${base}/mid" selected>Current</option>`);
    // The oldest version was replaced by the second upsert (at 13:00).
    const oldest = revisions[revisions.length - 1];
    expect(html).toContain(`<option value="${base}/mid/revision/${oldest}">Revision ${oldest} (2024-01-02 13:00:00)</option>`);
    await upsertPost(site.db, { service: 'patreon', user: '500', id: 'single', title: 'Only version', published: '2023-06-01T00:00:00' });
    const single = await get(`${base}/single`);
    expect(single.status).toBe(200);
    expect(single.html).toContain('Only version');
    expect(single.html).not.toContain('<select class="post-revisions__select"');
  });

  it('answers the route guards and 404 for unknown revisions', async () => {
    expect((await get(`${base}/mid/revision/999999`)).status).toBe(404);
    expect((await get(`${base}/mid/revision/abc`)).status).toBe(404);
    expect((await get(`${base}/nope/revision/${revisions[0]}`)).status).toBe(404);
    expect((await get(`${base}/older/revision/${revisions[0]}`)).status).toBe(404);
    const missing = await get(`${base}/mid/revision`);
    expect(missing.status).toBe(400);
    expect(missing.html).toContain('Revision ID is required.');
    const blank = await get(`${base}/mid/revision/%20`);
    expect(blank.status).toBe(400);
    expect(blank.html).toContain('Revision ID is required.');
  });
});
