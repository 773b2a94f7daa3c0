/**
 * Flags API against a real migrated database: 201, 409 for a second flag, a public GET answering 200
 * when flagged and 404 when not, the v2 envelope; the moderators' list of flagged posts and dismissing.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { flagPost } from '@api/data/flags.ts';
import { listAudit } from '@api/data/audit-log.ts';
import { readConfig } from '@api/config.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { as, v1Calls } from '../../helpers/api-calls.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let app: ReturnType<typeof createApp>;
let alice: TestSession;
let bob: TestSession;

const { get, post, del } = v1Calls(() => app);
const count = (sql: string, ...args: unknown[]) => (t.db.prepare(sql).get(...args) as { n: number }).n;

beforeAll(async () => {
  t = tempDb();
  app = createApp({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
  await upsertCreator(t.db, { service: 'patreon', id: '100', name: 'Alice Art', public_id: 'aliceart' });
  await upsertPost(t.db, { service: 'patreon', user: '100', id: '1', title: 'First', published: '2024-01-02T03:04:05' });
  await upsertPost(t.db, { service: 'patreon', user: '100', id: '2', title: 'Second', published: '2024-02-02T03:04:05' });
  alice = await signIn(t.db);
  bob = await signIn(t.db);
});

afterAll(() => t.cleanup());

describe('flags', () => {
  const flagPath = '/patreon/user/100/post/1/flag';

  // kemono 1.3.0: GET .../flag is 200 when the post is flagged and 404 when it is not; clients read
  // the status (a check of `status_code == 200`), not the body.
  it('tells anyone whether a post is flagged by the status: 404 when not, 404 for an unknown post', async () => {
    const unflagged = await get(flagPath);
    expect(unflagged.status).toBe(404);
    expect(unflagged.body).toEqual({ error: 'This post is not flagged.' });
    const unknown = await get('/patreon/user/100/post/77/flag');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Post not found.' });
  });

  it('refuses guests and a missing reason', async () => {
    expect((await post(flagPath).send({ reason: 'reason-other' })).status).toBe(401);
    const missing = await post(flagPath, alice).send({});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'Flag reason is required.' });
    expect((await get(flagPath)).status).toBe(404);
  });

  it('records one flag per account: 201, then 409', async () => {
    const first = await post(flagPath, alice).send({ reason: 'reason-other' });
    expect(first.status).toBe(201);
    expect(first.body).toBe(true);
    const flagged = await get(flagPath);
    expect(flagged.status).toBe(200);
    expect(flagged.body).toBe(true);
    const again = await post(flagPath, alice).type('form').send({ reason: 'reason-other' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'You have already flagged this post.' });
    // Another account may still flag it.
    expect((await post(flagPath, bob).send({ reason: 'reason-other' })).status).toBe(201);
    expect(count('SELECT count(*) AS n FROM flags WHERE post_id = ?', '1')).toBe(2);
    // The post API shows the same state.
    expect((await get('/patreon/user/100/post/1')).body.props.flagged).toBe(true);
  });

  it('answers 404 when flagging an unknown post', async () => {
    const answer = await post('/patreon/user/100/post/77/flag', alice).send({ reason: 'reason-other' });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: 'Post not found.' });
  });

  it('flags through PUT /api/v2/account/flags/post in the v2 envelope', async () => {
    const put = (session: TestSession | undefined, data: unknown) =>
      as(session, request(app).put('/api/v2/account/flags/post')).send({ type: 'api_request', data });
    const target = { service: 'patreon', creator_id: '100', post_id: '2', reason: 'reason-other' };
    expect((await put(undefined, target)).body).toEqual({
      type: 'api_error',
      error: { type: 'unauthorized', message: 'You must be registered to access this page.' },
    });
    const created = await put(alice, target);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ type: 'api_response', data: true });
    const again = await put(alice, target);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ type: 'api_error', error: { type: 'conflict', message: 'You have already flagged this post.' } });
    const unknown = await put(alice, { ...target, post_id: '77' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('Post not found.');
    const bad = await put(alice, { ...target, service: 'nowhere' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('"nowhere" is not a valid paysite.');
    expect((await get('/patreon/user/100/post/2/flag')).status).toBe(200);
  });
});

describe('the moderators’ flagged posts', () => {
  let mod: TestSession;

  beforeAll(async () => {
    mod = await signIn(t.db, { role: 'moderator' });
    await upsertCreator(t.db, { service: 'fanbox', id: '300', name: 'Carol <Studio>' });
    await upsertPost(t.db, { service: 'fanbox', user: '300', id: '31', title: 'Broken zip', published: '2024-03-01T00:00:00' });
    await upsertPost(t.db, { service: 'fanbox', user: '300', id: '32', title: 'Older flag', published: '2024-03-02T00:00:00' });
    const at = (day: number) => `2031-01-0${day}T00:00:00.000Z`;
    await flagPost(t.db, {
      service: 'fanbox',
      user: '300',
      post_id: '32',
      account_id: alice.account.id,
      reason: 'reason-other',
      created_at: at(1),
    });
    await flagPost(t.db, {
      service: 'fanbox',
      user: '300',
      post_id: '31',
      account_id: alice.account.id,
      reason: 'reason-other',
      created_at: at(2),
    });
    await flagPost(t.db, {
      service: 'fanbox',
      user: '300',
      post_id: '31',
      account_id: bob.account.id,
      reason: 'reason-other',
      created_at: at(3),
    });
    await flagPost(t.db, {
      service: 'fanbox',
      user: '300',
      post_id: '31',
      account_id: mod.account.id,
      reason: 'missing files',
      created_at: at(4),
    });
  });

  it('refuses guests (401) and consumers (403)', async () => {
    expect((await get('/account/moderator/flags')).status).toBe(401);
    expect((await get('/account/moderator/flags', alice)).status).toBe(403);
    expect((await del('/account/moderator/flags/fanbox/300/31', alice)).status).toBe(403);
    expect(count("SELECT count(*) AS n FROM flags WHERE post_id = '31'")).toBe(3);
  });

  it('lists flagged posts, the latest flag first, with count, latest time and distinct reasons', async () => {
    const answer = await get('/account/moderator/flags', mod);
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(count('SELECT count(DISTINCT service || "user" || post_id) AS n FROM flags'));
    expect(answer.body.posts.slice(0, 2)).toEqual([
      {
        service: 'fanbox',
        user: '300',
        id: '31',
        title: 'Broken zip',
        creator_name: 'Carol <Studio>',
        flagged_at: '2031-01-04T00:00:00.000Z',
        flag_count: 3,
        reasons: ['missing files', 'reason-other'],
      },
      expect.objectContaining({ id: '32', flag_count: 1, flagged_at: '2031-01-01T00:00:00.000Z' }),
    ]);
    expect((await get('/account/moderator/flags?o=50', mod)).body.posts).toEqual([]);
    const bad = await get('/account/moderator/flags?o=7', mod);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Offset 7 is not a multiple of 50.' });
  });

  it("dismisses a post's flags (200 with the count, audited), then answers 404", async () => {
    const answer = await del('/account/moderator/flags/fanbox/300/31', mod);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ cleared: 3 });
    expect(count("SELECT count(*) AS n FROM flags WHERE post_id = '31'")).toBe(0);
    expect(count("SELECT count(*) AS n FROM flags WHERE post_id = '32'")).toBe(1);
    const audit = (await listAudit(t.db, {}, { offset: 0, limit: 10 })).find((e) => e.action === 'flag_dismiss');
    expect(audit).toMatchObject({ actor_id: mod.account.id, target: 'fanbox/300/31', details: { cleared: 3 } });
    const again = await del('/account/moderator/flags/fanbox/300/31', mod);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'This post has no flags.' });
    expect((await del('/account/moderator/flags/fanbox/300/99', mod)).status).toBe(404);
    expect((await get('/fanbox/user/300/post/31/flag')).status).toBe(404);
  });
});
