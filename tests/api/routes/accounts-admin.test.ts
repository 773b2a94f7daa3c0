/**
 * Account administration against a real migrated database: guards' messages, validation messages,
 * role rules and notifications.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { getAccount } from '@api/data/accounts.ts';
import { countAudit, listAudit } from '@api/data/audit-log.ts';
import { listNotifications } from '@api/data/notifications.ts';
import { sqliteStore } from '@api/data/store.ts';
import { ACCOUNT_MESSAGES } from '@api/moderation/account-roles.ts';
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
  consumer = await signIn(t.db, { username: 'linkasker' });
  moderator = await signIn(t.db, { username: 'linkmod', role: 'moderator' });
  admin = await signIn(t.db, { username: 'theadmin', role: 'administrator' });
});

afterAll(() => t.cleanup());

const get = (url: string, session: TestSession | null) => {
  const call = request(app).get(url);
  return session ? call.set('Cookie', session.cookie) : call;
};
const patch = (url: string, session: TestSession | null, body: object) => {
  const call = request(app).patch(url);
  if (session) call.set('Cookie', session.cookie);
  return call.send(body);
};
describe('account administration', () => {
  it('guards every route with the administrator message', async () => {
    for (const url of [
      '/api/v1/account/administrator/accounts',
      '/api/v1/account/administrator/accounts/1',
      `/api/v1/account/administrator/account/${consumer.account.id}`,
    ]) {
      expect((await get(url, null)).status).toBe(401);
      const refused = await get(url, moderator);
      expect([refused.status, refused.body]).toEqual([403, { error: 'Account is not administrator.' }]);
    }
    const refused = await patch(`/api/v1/account/administrator/account/${consumer.account.id}`, moderator, { role: 'moderator' });
    expect(refused.status).toBe(403);
    expect((await getAccount(t.db, consumer.account.id))!.role).toBe('consumer');
    expect(await countAudit(t.db, { action: 'role_change' })).toBe(0);
  });

  it('counts and pages accounts with trimmed name and role filters', async () => {
    for (let i = 0; i < 55; i += 1) await signIn(t.db, { username: `bulk${String(i).padStart(2, '0')}` });
    const total = (t.db.prepare('SELECT count(*) AS n FROM accounts').get() as { n: number }).n;
    expect((await get('/api/v1/account/administrator/accounts', admin)).body).toBe(total);
    expect((await get('/api/v1/account/administrator/accounts?name=%20bulk%20', admin)).body).toBe(55);
    expect((await get('/api/v1/account/administrator/accounts?role=%20moderator%20', admin)).body).toBe(1);
    expect((await get('/api/v1/account/administrator/accounts?role=', admin)).body).toBe(total);
    const badRole = await get('/api/v1/account/administrator/accounts?role=owner', admin);
    expect([badRole.status, badRole.body]).toEqual([400, { error: 'Invalid account role.' }]);

    const first = await get('/api/v1/account/administrator/accounts/1?name=bulk', admin);
    expect(first.body).toHaveLength(50);
    expect(Object.keys(first.body[0]).sort()).toEqual(['created_at', 'id', 'role', 'username']);
    const second = await get('/api/v2/account/administrator/accounts/2?name=bulk', admin);
    expect(second.body.data.map((a: { username: string }) => a.username)).toEqual(['bulk50', 'bulk51', 'bulk52', 'bulk53', 'bulk54']);
    expect((await get('/api/v1/account/administrator/accounts/9?name=bulk', admin)).body).toEqual([]);
    const zero = await get('/api/v1/account/administrator/accounts/0', admin);
    expect([zero.status, zero.body]).toEqual([400, { error: 'Page number must be positive.' }]);
    const blank = await get('/api/v1/account/administrator/accounts/%20', admin);
    expect([blank.status, blank.body]).toEqual([400, { error: 'Page number is required.' }]);
  });

  it('shows one account; bad and unknown ids', async () => {
    const one = await get(`/api/v1/account/administrator/account/${consumer.account.id}`, admin);
    expect(one.body).toEqual(await getAccount(t.db, consumer.account.id));
    const zero = await get('/api/v1/account/administrator/account/0', admin);
    expect([zero.status, zero.body]).toEqual([400, { error: 'Account ID must be positive.' }]);
    const v2 = await get('/api/v2/account/administrator/account/abc', admin);
    expect([v2.status, v2.body.error.message]).toEqual([400, 'Account ID must be positive.']);
    expect((await get('/api/v1/account/administrator/account/999999', admin)).status).toBe(404);
  });

  it('changes a role to moderator and notifies the account with the old and new role', async () => {
    const target = await signIn(t.db, { username: 'promoteme' });
    const url = `/api/v1/account/administrator/account/${target.account.id}`;
    const answer = await patch(url, admin, { role: 'moderator' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: target.account.id, username: 'promoteme', role: 'moderator' });
    // One audit line, by the administrator, with the old and new role.
    expect(await listAudit(t.db, { action: 'role_change' }, { offset: 0, limit: 50 })).toEqual([
      expect.objectContaining({
        actor_id: admin.account.id,
        actor_name: 'theadmin',
        target: `account ${target.account.id} (promoteme)`,
        details: { old_role: 'consumer', new_role: 'moderator' },
      }),
    ]);
    const notes = await listNotifications(sqliteStore(t.db), target.account.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ type: 1, extra_info: { old_role: 'consumer', new_role: 'moderator' }, is_seen: false });
    // The new role takes effect at once for the existing session.
    expect((await get('/api/v1/account/moderator/tasks/creator_links', target)).status).toBe(200);
    // Back to consumer through v2 (envelope).
    const back = await request(app)
      .patch(`/api/v2/account/administrator/account/${target.account.id}`)
      .set('Cookie', admin.cookie)
      .send({ type: 'x', data: { role: 'consumer' } });
    expect(back.body.data.role).toBe('consumer');
    expect((await listNotifications(sqliteStore(t.db), target.account.id))[0].extra_info).toEqual({
      old_role: 'moderator',
      new_role: 'consumer',
    });
  });

  it("refuses other roles, administrators, one's own role and unknown accounts, changing nothing", async () => {
    const target = await signIn(t.db, { username: 'staysame' });
    const other = await signIn(t.db, { username: 'otheradmin', role: 'administrator' });
    const cases: Array<[number, object, number, string]> = [
      [target.account.id, { role: 'administrator' }, 400, 'Invalid account role.'],
      [target.account.id, { role: 'owner' }, 400, 'Invalid account role.'],
      [target.account.id, {}, 400, 'Invalid account role.'],
      [other.account.id, { role: 'consumer' }, 403, ACCOUNT_MESSAGES.administratorRole],
      [admin.account.id, { role: 'moderator' }, 403, ACCOUNT_MESSAGES.ownRole],
      [999999, { role: 'moderator' }, 404, ACCOUNT_MESSAGES.notFound],
    ];
    for (const [id, body, status, message] of cases) {
      const answer = await patch(`/api/v1/account/administrator/account/${id}`, admin, body);
      expect([answer.status, answer.body], `${id} ${JSON.stringify(body)}`).toEqual([status, { error: message }]);
    }
    expect((await getAccount(t.db, target.account.id))!.role).toBe('consumer');
    expect((await getAccount(t.db, other.account.id))!.role).toBe('administrator');
    expect((await getAccount(t.db, admin.account.id))!.role).toBe('administrator');
    expect(await listNotifications(sqliteStore(t.db), target.account.id)).toEqual([]);
    expect(await listNotifications(sqliteStore(t.db), other.account.id)).toEqual([]);
  });

  it('refuses a cross-site role change (CSRF)', async () => {
    const target = await signIn(t.db, { username: 'csrfvictim' });
    const answer = await request(app)
      .patch(`/api/v1/account/administrator/account/${target.account.id}`)
      .set('Cookie', admin.cookie)
      .set('Origin', 'https://evil.example')
      .set('Host', 'trove.example')
      .send({ role: 'moderator' });
    expect(answer.status).toBe(403);
    expect((await getAccount(t.db, target.account.id))!.role).toBe('consumer');
  });
});
