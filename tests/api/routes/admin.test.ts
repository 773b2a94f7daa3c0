/**
 * /api/v1/admin/auto_import over real HTTP (supertest) and a real database: administrators request a
 * round (202, one waiting request at a time, CSRF-checked like every unsafe method) and list rounds
 * with what the auto-import process did; nobody else may (the permission matrix covers every role).
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { listAudit } from '@api/data/audit-log.ts';
import { CSRF_MESSAGE } from '@api/http/session.ts';
import { startAutoImportScheduler } from '@api/importer/auto-import-scheduler.ts';
import { operatorPublicKey } from '@api/importer/operator-key.ts';
import { dataPaths, readConfig, type Config } from '@api/config.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';
import path from 'node:path';

let t: TempDb;
let config: Config;
let app: ReturnType<typeof createApp>;
let admin: TestSession;

const post = (session?: TestSession) => {
  const call = request(app).post('/api/v1/admin/auto_import');
  return session ? call.set('Cookie', session.cookie) : call;
};
const list = (session?: TestSession) => {
  const call = request(app).get('/api/v1/admin/auto_import');
  return session ? call.set('Cookie', session.cookie) : call;
};
const auditLines = () => listAudit(t.db, { action: 'auto_import_round' }, { offset: 0, limit: 50 });
const rounds = () => (t.db.prepare('SELECT count(*) AS n FROM auto_import_rounds').get() as { n: number }).n;

beforeAll(async () => {
  t = tempDb();
  config = readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' });
  app = createApp({ db: t.db, config, logger: { error() {} } });
  admin = await signIn(t.db, { role: 'administrator' });
});
afterAll(() => t.cleanup());

describe('POST /api/v1/admin/auto_import', () => {
  it('is refused to guests (401), consumers and moderators (403), writing nothing', async () => {
    expect((await post()).status).toBe(401);
    for (const role of ['consumer', 'moderator'] as const) expect((await post(await signIn(t.db, { role }))).status).toBe(403);
    expect(rounds()).toBe(0);
    expect(await auditLines()).toEqual([]);
  });

  it('refuses a cross-site request carrying the session cookie', async () => {
    const answer = await post(admin).set('Origin', 'https://evil.example').set('Sec-Fetch-Site', 'cross-site');
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ error: CSRF_MESSAGE });
    expect(rounds()).toBe(0);
  });

  it('records a round request (202) and answers the waiting one again until it starts', async () => {
    const first = await post(admin);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ round_id: expect.any(Number), requested_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/) });
    const again = await post(admin);
    expect(again.body).toEqual(first.body);
    expect(rounds()).toBe(1);
    // One audit line for the request; the answered-again request adds none.
    expect(await auditLines()).toEqual([
      expect.objectContaining({
        actor_id: admin.account.id,
        actor_name: admin.account.username,
        target: `round ${first.body.round_id}`,
        details: { requested: true },
      }),
    ]);
  });
});

describe('GET /api/v1/admin/auto_import', () => {
  it('is for administrators only', async () => {
    expect((await list()).status).toBe(401);
    expect((await list(await signIn(t.db, { role: 'moderator' }))).status).toBe(403);
  });

  it('lists rounds newest first, with their progress once the auto-import process ran them', async () => {
    const waiting = (await list(admin)).body;
    expect(waiting).toEqual([
      {
        id: expect.any(Number),
        requested_at: expect.any(String),
        requested_by: admin.account.id,
        started_at: null,
        finished_at: null,
        queued: null,
        skipped: null,
        failed: null,
      },
    ]);
    operatorPublicKey(config);
    const scheduler = startAutoImportScheduler(
      { db: t.db, config, privateKeyPath: path.join(dataPaths(t.dir).operatorKeys, 'private.pem') },
      { autoStart: false },
    );
    expect((await scheduler.tick())?.round).toBe(waiting[0].id);
    // The auto-import process adds the round's start and end, as the system (no actor).
    expect((await auditLines()).map((line) => [line.actor_id, line.target, line.details])).toEqual([
      [null, `round ${waiting[0].id}`, { finished: true, queued: 0, skipped: 0, failed: 0 }],
      [null, `round ${waiting[0].id}`, { started: true, scheduled: false }],
      [admin.account.id, `round ${waiting[0].id}`, { requested: true }],
    ]);
    const ran = (await list(admin)).body;
    expect(ran[0]).toMatchObject({
      id: waiting[0].id,
      queued: 0,
      skipped: 0,
      failed: 0,
      started_at: expect.any(String),
      finished_at: expect.any(String),
    });
    // A new request after it started is a new round.
    const next = (await post(admin)).body;
    expect(next.round_id).toBeGreaterThan(waiting[0].id);
    expect((await list(admin)).body.map((r: { id: number }) => r.id)).toEqual([next.round_id, waiting[0].id]);
  }, 60_000);
});
