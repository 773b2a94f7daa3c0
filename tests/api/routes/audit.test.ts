/**
 * GET /api/v1/admin/audit over real HTTP (supertest) and a real database: administrators only, newest
 * first in pages of 50, filtered by actor and action, with a clear 400 for a filter it does not know.
 * A role changed through the API shows up in it.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { AUDIT_ACTIONS, recordAudit } from '@api/data/audit-log.ts';
import { readConfig } from '@api/config.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let app: ReturnType<typeof createApp>;
let admin: TestSession;

const audit = (query: string, session: TestSession | null = admin) => {
  const call = request(app).get(`/api/v1/admin/audit${query}`);
  return session ? call.set('Cookie', session.cookie) : call;
};

beforeAll(async () => {
  t = tempDb();
  app = createApp({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
  admin = await signIn(t.db, { username: 'auditadmin', role: 'administrator' });
  const mod = { id: 999, username: 'oldmod' };
  for (let i = 0; i < 54; i += 1)
    await recordAudit(t.db, { actor: mod, action: 'link_approve', target: `patreon/${i} ↔ fanbox/${i}`, reason: 'same' });
});
afterAll(() => t.cleanup());

describe('GET /api/v1/admin/audit', () => {
  it('is for administrators only', async () => {
    expect((await audit('', null)).status).toBe(401);
    for (const role of ['consumer', 'moderator'] as const) {
      const refused = await audit('', await signIn(t.db, { role }));
      expect([refused.status, refused.body]).toEqual([403, { error: 'Account is not administrator.' }]);
    }
  });

  it('answers a page newest first with the total, the actors and the actions', async () => {
    const target = await signIn(t.db, { username: 'promoted' });
    const changed = await request(app)
      .patch(`/api/v1/account/administrator/account/${target.account.id}`)
      .set('Cookie', admin.cookie)
      .send({ role: 'moderator' });
    expect(changed.status).toBe(200);

    const answer = await audit('');
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(55);
    expect(answer.body.entries).toHaveLength(50);
    expect(answer.body.entries[0]).toEqual({
      id: expect.any(Number),
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      actor_id: admin.account.id,
      actor_name: 'auditadmin',
      action: 'role_change',
      target: `account ${target.account.id} (promoted)`,
      reason: null,
      details: { old_role: 'consumer', new_role: 'moderator' },
    });
    expect(answer.body.actors).toEqual([
      { id: admin.account.id, username: 'auditadmin' },
      { id: 999, username: 'oldmod' },
    ]);
    expect(answer.body.actions).toEqual([...AUDIT_ACTIONS]);

    const second = await audit('?o=50');
    expect(second.body.entries.map((e: { target: string }) => e.target)).toEqual([4, 3, 2, 1, 0].map((i) => `patreon/${i} ↔ fanbox/${i}`));
  });

  it('filters by actor and by action, both at once, keeping the total of the filter', async () => {
    const byAdmin = await audit(`?actor=${admin.account.id}`);
    expect([byAdmin.body.total, byAdmin.body.entries.map((e: { action: string }) => e.action)]).toEqual([1, ['role_change']]);
    const approvals = await audit('?action=link_approve');
    expect(approvals.body.total).toBe(54);
    expect(approvals.body.entries.every((e: { action: string }) => e.action === 'link_approve')).toBe(true);
    const none = await audit(`?actor=${admin.account.id}&action=link_approve`);
    expect([none.status, none.body.total, none.body.entries]).toEqual([200, 0, []]);
    expect((await audit('?action=&actor=')).body.total).toBe(55);
  });

  it('answers 400 with a clear message for an unknown action, a bad actor or offset', async () => {
    const unknown = await audit('?action=delete_everything');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/^Unknown action "delete_everything"\. Known actions: role_change, /);
    const actor = await audit('?actor=abc');
    expect([actor.status, actor.body]).toEqual([400, { error: 'Actor must be a positive account ID.' }]);
    const offset = await audit('?o=7');
    expect([offset.status, offset.body]).toEqual([400, { error: 'Offset 7 is not a multiple of 50.' }]);
  });

  it('offers no way to change or delete a line', async () => {
    for (const method of ['put', 'patch', 'delete', 'post'] as const) {
      const answer = await request(app)[method]('/api/v1/admin/audit').set('Cookie', admin.cookie);
      expect(answer.status).toBe(405);
    }
    expect((await audit('')).body.total).toBe(55);
  });
});
