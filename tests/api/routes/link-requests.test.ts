/**
 * Link requests, moderator review and link removal against a real migrated database: guards' messages,
 * validation messages and change-log rows.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, apiUrl } from '@shared/api-paths.ts';
import { createApp } from '@api/app.ts';
import { lastChangeId, readChangesSince } from '@api/data/changes.ts';
import { listAudit } from '@api/data/audit-log.ts';
import { linkedCreators, upsertCreator } from '@api/data/creators.ts';
import { createLinkRequest, getLinkRequest, linkCreators } from '@api/data/links.ts';
import { LINK_MESSAGES } from '@api/moderation/link-requests.ts';
import { readConfig } from '@api/config.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let app: ReturnType<typeof createApp>;
let consumer: TestSession;
let moderator: TestSession;
let admin: TestSession;

beforeAll(async () => {
  t = tempDb();
  app = createApp({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
  await upsertCreator(t.db, { service: 'patreon', id: '100', name: 'Alice', public_id: 'alice' });
  await upsertCreator(t.db, { service: 'fanbox', id: '200', name: 'Alice on fanbox' });
  await upsertCreator(t.db, { service: 'fantia', id: '300', name: 'Carol' });
  await upsertCreator(t.db, { service: 'boosty', id: 'dave', name: 'Dave' });
  await upsertCreator(t.db, { service: 'gumroad', id: 'erin', name: 'Erin' });
  consumer = await signIn(t.db, { username: 'linkasker' });
  moderator = await signIn(t.db, { username: 'linkmod', role: 'moderator' });
  admin = await signIn(t.db, { username: 'theadmin', role: 'administrator' });
});

afterAll(() => t.cleanup());

const post = (url: string, session: TestSession | null, body?: object) => {
  const call = request(app).post(url);
  if (session) call.set('Cookie', session.cookie);
  return body ? call.send(body) : call;
};
const get = (url: string, session: TestSession | null) => {
  const call = request(app).get(url);
  return session ? call.set('Cookie', session.cookie) : call;
};
const audit = (action: 'link_approve' | 'link_reject' | 'link_remove') => listAudit(t.db, { action }, { offset: 0, limit: 50 });
const pendingIds = () =>
  (t.db.prepare(`SELECT id FROM link_requests WHERE status = 'pending' ORDER BY id`).all() as { id: number }[]).map((r) => r.id);

// What /account/{service}/user/{id}/links/new shows, for clients: the page needs an account too.
describe('GET /api/v1/{service}/user/{id}/links/new', () => {
  it('answers the creator, the paysites of the filter and the limits to a signed-in account', async () => {
    const answer = await get('/api/v1/patreon/user/100/links/new', consumer);
    expect(answer.status).toBe(200);
    const { props } = answer.body;
    expect(props).toMatchObject({
      currentPage: 'artists',
      id: '100',
      service: 'patreon',
      name: 'Alice',
      reason_max: 140,
      candidates_max: 20,
    });
    expect(props.artist).toMatchObject({ id: '100', service: 'patreon', name: 'Alice', public_id: 'alice', post_count: 0 });
    expect(props.services).toContain('fanbox');
    expect(props.services[0]).toBe('patreon');
    // The public id names the same creator, as the page's redirect does.
    expect((await get('/api/v1/patreon/user/alice/links/new', consumer)).body.props.id).toBe('100');
  });

  it('refuses guests with the page message and answers 404 for an unknown creator', async () => {
    const guest = await get('/api/v1/patreon/user/100/links/new', null);
    expect(guest.status).toBe(401);
    expect(guest.body).toEqual({ error: 'You must be registered to access this page.' });
    const unknown = await get('/api/v1/patreon/user/999/links/new', consumer);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Creator not found.' });
  });
});

describe('POST /api/v1/{service}/user/{id}/links/new', () => {
  const url = '/api/v1/patreon/user/100/links/new';

  it('refuses guests with the spec message and stores nothing', async () => {
    const answer = await post(url, null, { service: 'fanbox', artist_id: '200' });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'You must be registered to access this page.' });
    expect(pendingIds()).toEqual([]);
  });

  it('answers the validation messages', async () => {
    const cases: Array<[object, string]> = [
      [{}, 'Input data is required.'],
      [{ creator: '   ' }, 'Input data is required.'],
      [{ creator: 'fanbox' }, 'Invalid input data length.'],
      [{ creator: 'fanbox/200/x' }, 'Invalid input data length.'],
      [{ service: 'fanbox' }, 'Artist ID is required.'],
      [{ artist_id: '200' }, 'Service name is required.'],
      [{ service: 'nosuch', artist_id: '200' }, '"nosuch" is not a valid paysite.'],
      [{ service: 'fanbox', artist_id: '200', reason: 'x'.repeat(141) }, 'Reason must be at most 140 characters long.'],
    ];
    for (const [body, message] of cases) {
      const answer = await post(url, consumer, body);
      expect([answer.status, answer.body], JSON.stringify(body)).toEqual([400, { error: message }]);
    }
    expect(pendingIds()).toEqual([]);
  });

  it('answers 404 for an unknown creator on either side, 400 for the creator itself', async () => {
    expect((await post('/api/v1/patreon/user/999/links/new', consumer, { service: 'fanbox', artist_id: '200' })).status).toBe(404);
    const unknownTarget = await post(url, consumer, { service: 'fanbox', artist_id: '999' });
    expect([unknownTarget.status, unknownTarget.body]).toEqual([404, { error: 'Creator not found.' }]);
    const itself = await post(url, consumer, { creator: 'patreon/alice' });
    expect([itself.status, itself.body]).toEqual([400, { error: LINK_MESSAGES.itself }]);
    expect(pendingIds()).toEqual([]);
  });

  it('stores a pending request with the requester and reason (140 characters allowed), once', async () => {
    const reason = 'é'.repeat(140);
    const answer = await post(url, consumer, { service: 'fanbox', artist_id: '200', reason });
    expect([answer.status, answer.body]).toEqual([200, { message: LINK_MESSAGES.requested }]);
    const [id] = pendingIds();
    const stored = (await getLinkRequest(t.db, id))!;
    expect(stored.from_creator).toEqual({ service: 'patreon', id: '100', name: 'Alice' });
    expect(stored.to_creator).toEqual({ service: 'fanbox', id: '200', name: 'Alice on fanbox' });
    expect(stored.reason).toBe(reason);
    expect(stored.requester.username).toBe('linkasker');
    // The same pair again, from the other side, is already requested.
    const again = await post('/api/v1/fanbox/user/200/links/new', consumer, { creator: 'patreon/100' });
    expect([again.status, again.body]).toEqual([409, { error: LINK_MESSAGES.alreadyRequested }]);
    expect(pendingIds()).toEqual([id]);
  });

  it('accepts a form-encoded body and refuses creators already in one group', async () => {
    await linkCreators(t.db, { service: 'boosty', id: 'dave' }, { service: 'gumroad', id: 'erin' });
    const answer = await request(app)
      .post('/api/v1/boosty/user/dave/links/new')
      .set('Cookie', consumer.cookie)
      .type('form')
      .send({ service: 'gumroad', artist_id: 'erin' });
    expect([answer.status, answer.body]).toEqual([409, { error: LINK_MESSAGES.alreadyLinked }]);
  });
});

describe('moderator review', () => {
  const list = '/api/v1/account/moderator/tasks/creator_links';

  it('guards the list: 401 for guests, 403 for consumers', async () => {
    expect((await get(list, null)).body).toEqual({ error: 'You must be registered to access this page.' });
    const refused = await get(list, consumer);
    expect([refused.status, refused.body]).toEqual([403, { error: 'Account is not moderator.' }]);
  });

  it('lists pending requests with from, to, reason and requester name and role (v1 and v2)', async () => {
    const answer = await get(list, moderator);
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(1);
    expect(answer.body[0]).toMatchObject({
      from_creator: { service: 'patreon', id: '100', name: 'Alice' },
      to_creator: { service: 'fanbox', id: '200', name: 'Alice on fanbox' },
      requester: { username: 'linkasker', role: 'consumer' },
    });
    const v2 = await get('/api/v2/account/moderator/tasks/creator_links', admin);
    expect(v2.body).toEqual({ type: 'api_response', data: answer.body });
  });

  it('approval links both creators both ways and records link changes for both', async () => {
    const [id] = pendingIds();
    const before = await lastChangeId(t.db);
    const refused = await post(apiUrl(apiPaths.approveLinkRequest(id)), consumer);
    expect([refused.status, refused.body]).toEqual([403, { error: 'Account is not moderator.' }]);
    expect(await lastChangeId(t.db)).toBe(before);
    expect(await audit('link_approve')).toEqual([]);

    const answer = await post(apiUrl(apiPaths.approveLinkRequest(id)), moderator);
    expect([answer.status, answer.body]).toEqual([200, { message: LINK_MESSAGES.approved }]);
    expect(await audit('link_approve')).toEqual([
      expect.objectContaining({ actor_id: moderator.account.id, actor_name: 'linkmod', target: 'patreon/100 ↔ fanbox/200' }),
    ]);
    expect((await linkedCreators(t.db, 'patreon', '100')).map((c) => `${c.service}/${c.id}`)).toEqual(['fanbox/200']);
    expect((await linkedCreators(t.db, 'fanbox', '200')).map((c) => `${c.service}/${c.id}`)).toEqual(['patreon/100']);
    const changed = (await readChangesSince(t.db, before)).filter((c) => c.kind === 'link').map((c) => `${c.service}/${c.creator_id}`);
    expect(new Set(changed)).toEqual(new Set(['patreon/100', 'fanbox/200']));
    expect((await getLinkRequest(t.db, id))!.status).toBe('approved');
    expect((await get(list, moderator)).body).toEqual([]);
    // The public links answer shows the link.
    expect((await get('/api/v1/fanbox/user/200/links', null)).body.map((c: { id: string }) => c.id)).toEqual(['100']);

    const twice = await post(apiUrl(apiPaths.rejectLinkRequest(id)), moderator);
    expect([twice.status, twice.body]).toEqual([409, { error: LINK_MESSAGES.alreadyReviewed }]);
    expect(await audit('link_reject')).toEqual([]);
  });

  it('rejects without linking; unknown and malformed ids', async () => {
    const id = await createLinkRequest(t.db, {
      from_service: 'fantia',
      from_id: '300',
      to_service: 'patreon',
      to_id: '100',
      requester_id: consumer.account.id,
    });
    const answer = await post(`/api/v2/account/moderator/creator_link_requests/${id}/reject`, admin);
    expect([answer.status, answer.body]).toEqual([200, { type: 'api_response', data: { message: LINK_MESSAGES.rejected } }]);
    expect((await getLinkRequest(t.db, id))!.status).toBe('rejected');
    expect(await linkedCreators(t.db, 'fantia', '300')).toEqual([]);
    expect(await audit('link_reject')).toEqual([
      expect.objectContaining({ actor_id: admin.account.id, target: 'fantia/300 ↔ patreon/100', reason: null }),
    ]);
    const unknown = await post('/api/v1/account/moderator/creator_link_requests/99999/approve', moderator);
    expect([unknown.status, unknown.body]).toEqual([404, { error: LINK_MESSAGES.requestNotFound }]);
    const bad = await post('/api/v1/account/moderator/creator_link_requests/0/approve', moderator);
    expect([bad.status, bad.body]).toEqual([400, { error: 'Request ID must be positive.' }]);
  });
});

describe('DELETE /api/v1/{service}/user/{id}/links', () => {
  it('is for administrators only and takes the creator out of its group', async () => {
    const before = await lastChangeId(t.db);
    const refused = await request(app).delete('/api/v1/fanbox/user/200/links').set('Cookie', moderator.cookie);
    expect([refused.status, refused.body]).toEqual([403, { error: 'Account is not administrator.' }]);
    expect(await linkedCreators(t.db, 'patreon', '100')).toHaveLength(1);
    expect(await audit('link_remove')).toEqual([]);

    const answer = await request(app).delete('/api/v1/fanbox/user/200/links').set('Cookie', admin.cookie);
    expect([answer.status, answer.body]).toEqual([200, { message: LINK_MESSAGES.unlinked }]);
    expect(await linkedCreators(t.db, 'patreon', '100')).toEqual([]);
    const changed = (await readChangesSince(t.db, before)).map((c) => `${c.service}/${c.creator_id}`);
    expect(changed).toContain('patreon/100');
    expect(changed).toContain('fanbox/200');
    expect(await audit('link_remove')).toEqual([
      expect.objectContaining({
        actor_id: admin.account.id,
        target: 'fanbox/200',
        details: { name: 'Alice on fanbox', unlinked_from: ['patreon/100'] },
      }),
    ]);

    const again = await request(app).delete('/api/v1/fanbox/user/200/links').set('Cookie', admin.cookie);
    expect([again.status, again.body]).toEqual([404, { error: LINK_MESSAGES.noLinks }]);
    expect((await request(app).delete('/api/v1/fanbox/user/999/links').set('Cookie', admin.cookie)).status).toBe(404);
    expect(await audit('link_remove')).toHaveLength(1);
  });
});
