/**
 * The takedown routes over HTTP against a real database and file store: who may call them, their
 * messages, the do-not-post list and lifting, and that nothing of a removed creator or post is served
 * afterwards (every API URL and the media paths of its deleted files answer 404).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { readConfig, dataPaths } from '@api/config.ts';
import { listAudit } from '@api/data/audit-log.ts';
import { addDoNotPost } from '@api/data/do-not-post.ts';
import { createMediaHandler } from '@api/server/media.ts';
import { apiPaths, apiUrl } from '@shared/api-paths.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';
import { seedArchive, type Seeded } from '../moderation/takedown-seed.ts';

let t: TempDb;
let app: ReturnType<typeof createApp>;
let media: (req: IncomingMessage, res: ServerResponse) => void;
let seeded: Seeded;
let admin: TestSession;
let moderator: TestSession;
let revisionId: number;
/** How often the app asked for the stored pages to be rebuilt now (AppDeps.pagesChanged). */
let rebuildsAsked = 0;

beforeAll(async () => {
  t = tempDb();
  seeded = await seedArchive(t.db, t.dir);
  app = createApp({
    db: t.db,
    config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }),
    logger: { error() {} },
    pagesChanged: async () => rebuildsAsked++,
  });
  const handler = createMediaHandler(dataPaths(t.dir));
  media = (req, res) => {
    if (!handler(req, res)) {
      res.statusCode = 418;
      res.end();
    }
  };
  admin = await signIn(t.db, { role: 'administrator' });
  moderator = await signIn(t.db, { role: 'moderator' });
  revisionId = (t.db.prepare(`SELECT revision_id FROM post_revisions WHERE post_id = 'p2'`).get() as { revision_id: number }).revision_id;
});

afterAll(() => t.cleanup());

const post = (url: string, session: TestSession | null, body: object | string = { reason: 'Owner request' }) => {
  const call = request(app).post(url);
  if (session) call.set('Cookie', session.cookie);
  return typeof body === 'string' ? call.type('form').send(body) : call.send(body);
};
const get = (url: string, session: TestSession | null = null) => {
  const call = request(app).get(url);
  return session ? call.set('Cookie', session.cookie) : call;
};
const del = (url: string, session: TestSession | null) => {
  const call = request(app).delete(url);
  return session ? call.set('Cookie', session.cookie) : call;
};

/** Everything the API serves of patreon/100 (p1, p2) and of its own share. */
function creatorUrls(): string[] {
  const creator = '/api/v1/patreon/user/100';
  return [
    `${creator}/profile`,
    `${creator}/posts`,
    `${creator}/posts-legacy`,
    `${creator}/post/p1`,
    `${creator}/post/p1/revisions`,
    `${creator}/post/p1/comments`,
    `${creator}/post/p2/revision/${revisionId}`,
    '/api/v1/patreon/post/p1',
    `${creator}/dms`,
    `${creator}/announcements`,
    `${creator}/tags`,
    `${creator}/links`,
    `${creator}/shares`,
    '/api/v1/patreon/user/100/community',
    `/api/v1/share/${seeded.ownShare}`,
    `/api/v1/search_hash/${seeded.files.unique.hash}`,
    `/api/v1/file/${seeded.files.archive.hash}`,
  ];
}

describe('takedown routes', () => {
  it('are for administrators only', async () => {
    const url = '/api/v1/admin/takedown/patreon/user/100';
    expect((await post(url, null)).status).toBe(401);
    expect((await post(url, moderator)).status).toBe(403);
    expect((await get('/api/v1/admin/do_not_post', moderator)).status).toBe(403);
    expect((await get('/api/v1/patreon/user/100/profile')).status).toBe(200);
  });

  it('refuses a missing, blank or too long reason and unknown creators and posts', async () => {
    const creatorUrl = apiUrl(apiPaths.takedownCreator('patreon', '100'));
    expect(creatorUrl).toBe('/api/v1/admin/takedown/patreon/user/100');
    for (const body of [{}, { reason: '   ' }]) {
      const answer = await post(creatorUrl, admin, body);
      expect([answer.status, answer.body]).toEqual([400, { error: 'A reason is required.' }]);
    }
    const long = await post(creatorUrl, admin, { reason: 'x'.repeat(1001) });
    expect([long.status, long.body]).toEqual([400, { error: 'The reason must be at most 1000 characters long.' }]);
    const unknown = await post('/api/v1/admin/takedown/patreon/user/nobody', admin);
    expect([unknown.status, unknown.body]).toEqual([404, { error: 'Creator not found.' }]);
    const unknownPost = await post('/api/v1/admin/takedown/patreon/user/100/post/nothing', admin);
    expect([unknownPost.status, unknownPost.body]).toEqual([404, { error: 'Post not found.' }]);
    expect((await post('/api/v1/admin/takedown/nosuchsite/user/100', admin)).status).toBe(400);
    // Nothing was removed by the refusals, and no rebuild was asked for.
    expect((await get('/api/v1/patreon/user/100/profile')).status).toBe(200);
    expect(rebuildsAsked).toBe(0);
  });

  it('removes a creator: nothing of it is served any more, a second takedown is a 409', async () => {
    for (const url of creatorUrls()) expect([url, (await get(url)).status]).toEqual([url, 200]);
    const fileUrls = [`/data${seeded.files.unique.path}`, `/thumbnail/data${seeded.files.unique.path}`, `/data${seeded.files.inline.path}`];
    for (const url of fileUrls) expect([url, (await request(media).get(url)).status]).toEqual([url, 200]);

    const listed = (body: unknown) => /Zebrafish|"user":"100"|Own share/.test(JSON.stringify(body));
    for (const url of ['/api/v1/posts', '/api/v1/dms', '/api/v1/shares']) expect([url, listed((await get(url)).body)]).toEqual([url, true]);

    const answer = await post('/api/v1/admin/takedown/patreon/user/100', admin, 'reason=%20Owner%20request%20');
    expect(answer.status).toBe(200);
    expect(answer.body.entry).toMatchObject({
      service: 'patreon',
      creator_id: '100',
      post_id: null,
      reason: 'Owner request',
      added_by: admin.account.id,
    });
    expect(answer.body.removed).toMatchObject({ creators: 1, posts: 2 });
    expect([answer.body.files_deleted, answer.body.files_kept]).toEqual([8, 2]);

    for (const url of creatorUrls()) expect([url, (await get(url)).status]).toEqual([url, 404]);
    for (const url of fileUrls) expect([url, (await request(media).get(url)).status]).toEqual([url, 404]);
    // The shared file stays, and its hash search shows only the other creator's post.
    expect((await request(media).get(`/data${seeded.files.shared.path}`)).status).toBe(200);
    const shared = await get(`/api/v1/search_hash/${seeded.files.shared.hash}`);
    expect(JSON.stringify(shared.body)).not.toContain('"100"');
    expect(JSON.stringify(shared.body)).toContain('f1');
    // Search and the creators list no longer know it.
    expect(JSON.stringify((await get('/api/v1/posts?q=Zebrafish')).body)).not.toContain('p1');
    for (const url of ['/api/v1/posts', '/api/v1/dms', '/api/v1/posts/tags', '/api/v1/shares', '/api/v1/posts/popular']) {
      expect([url, listed((await get(url)).body)]).toEqual([url, false]);
    }
    const creators = (await get('/api/v1/creators.txt')).body as Array<{ id: string }>;
    expect(creators.map((c) => c.id).sort()).toEqual(['200', '900']);
    expect(JSON.stringify((await get('/api/v1/fanbox/user/200/links')).body)).not.toContain('"100"');

    const again = await post('/api/v1/admin/takedown/patreon/user/100', admin);
    expect([again.status, again.body]).toEqual([409, { error: 'This creator is already on the do-not-post list.' }]);
    expect(await listAudit(t.db, { action: 'takedown_creator' }, { offset: 0, limit: 5 })).toHaveLength(1);
  });

  it('removes a Discord server: its server and channel answers are 404', async () => {
    expect((await get('/api/v1/discord/server/900')).status).toBe(200);
    expect((await get('/api/v1/discord/channel/dc1')).status).toBe(200);
    expect((await post('/api/v1/admin/takedown/discord/user/900', admin)).status).toBe(200);
    expect((await get('/api/v1/discord/server/900')).status).toBe(404);
    expect((await get('/api/v1/discord/channel/dc1')).status).toBe(404);
    expect((await request(media).get(`/data${seeded.files.discord.path}`)).status).toBe(404);
  });

  it('removes one post: it answers 404, the creator stays, a second takedown is a 409', async () => {
    const postUrl = '/api/v1/fanbox/user/200/post/f1';
    expect((await get(postUrl)).status).toBe(200);
    const asked = rebuildsAsked;
    const answer = await post('/api/v1/admin/takedown/fanbox/user/200/post/f1', admin, { reason: 'Reported by the artist' });
    expect(answer.status).toBe(200);
    // The stored pages are rebuilt at once, not at the next interval.
    expect(rebuildsAsked).toBe(asked + 1);
    expect(answer.body.entry).toMatchObject({ service: 'fanbox', creator_id: '200', post_id: 'f1', name: 'Kept post' });
    expect(answer.body.removed).toMatchObject({ posts: 1, creators: 0 });
    // The shared file's last user is gone now, so is the file.
    expect(answer.body.files_deleted).toBe(2);
    for (const url of [postUrl, '/api/v1/fanbox/post/f1']) expect([url, (await get(url)).status]).toEqual([url, 404]);
    // Its revisions and comments answer as those of any unknown post of a known creator: an empty list.
    for (const url of [`${postUrl}/revisions`, `${postUrl}/comments`]) {
      const list = await get(url);
      expect([url, list.status, list.body]).toEqual([url, 200, []]);
    }
    expect((await request(media).get(`/data${seeded.files.shared.path}`)).status).toBe(404);
    expect((await get('/api/v1/fanbox/user/200/profile')).status).toBe(200);
    const again = await post('/api/v1/admin/takedown/fanbox/user/200/post/f1', admin);
    expect([again.status, again.body]).toEqual([409, { error: 'This post is already on the do-not-post list.' }]);
  });

  it('lists the do-not-post entries newest first, 50 per page', async () => {
    for (let i = 0; i < 55; i += 1) await addDoNotPost(t.db, { service: 'gumroad', creator_id: `bulk${i}`, reason: 'bulk' });
    const first = await get('/api/v1/admin/do_not_post', admin);
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(58);
    expect(first.body.entries).toHaveLength(50);
    expect(first.body.entries[0].creator_id).toBe('bulk54');
    const second = await get('/api/v1/admin/do_not_post?o=50', admin);
    // Then the three takedowns, newest first: the post f1 of fanbox/200, the Discord server, patreon/100.
    expect(second.body.entries.map((e: { creator_id: string }) => e.creator_id)).toEqual([
      'bulk4',
      'bulk3',
      'bulk2',
      'bulk1',
      'bulk0',
      '200',
      '900',
      '100',
    ]);
    const bad = await get('/api/v1/admin/do_not_post?o=25', admin);
    expect([bad.status, bad.body]).toEqual([400, { error: 'Offset 25 is not a multiple of 50.' }]);
  });

  it('lifts an entry once, with its audit line', async () => {
    const entries = (await get('/api/v1/admin/do_not_post?o=50', admin)).body.entries as Array<{ id: number; creator_id: string }>;
    const entry = entries.find((e) => e.creator_id === '100')!;
    expect((await del(`/api/v1/admin/do_not_post/${entry.id}`, moderator)).status).toBe(403);
    const lifted = await del(`/api/v1/admin/do_not_post/${entry.id}`, admin);
    expect(lifted.status).toBe(200);
    expect(lifted.body.lifted).toMatchObject({ id: entry.id, service: 'patreon', creator_id: '100', reason: 'Owner request' });
    const again = await del(`/api/v1/admin/do_not_post/${entry.id}`, admin);
    expect([again.status, again.body]).toEqual([404, { error: 'Entry not found.' }]);
    expect((await del('/api/v1/admin/do_not_post/abc', admin)).status).toBe(400);
    expect((await listAudit(t.db, { action: 'do_not_post_lift' }, { offset: 0, limit: 5 }))[0]).toMatchObject({
      target: 'patreon/100',
      reason: null,
      actor_id: admin.account.id,
    });
    // Lifted, the creator may be taken down again once it is back; while it is not, it is simply unknown.
    expect((await post('/api/v1/admin/takedown/patreon/user/100', admin)).status).toBe(404);
  });
});
