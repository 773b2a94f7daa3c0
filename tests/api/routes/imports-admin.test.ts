/**
 * The administrators' imports dashboard API against a real migrated database: the list (states,
 * filters, paging, submitter), retry and cancel with their 404 and 409 answers, and that no answer ever
 * carries a key, its fingerprint, the sealed work key, the cursor or channel ids.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { appendImportLog, claimNextImport, createImport, giveUpImport, setImportCursor, updateImport } from '@api/data/imports.ts';
import { nowIso } from '@api/data/util.ts';
import { IMPORT_ACTION_MESSAGES } from '@api/moderation/import-actions.ts';
import { readConfig } from '@api/config.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { validSubmission } from '../../helpers/import-keys.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let app: ReturnType<typeof createApp>;
let admin: TestSession;
let moderator: TestSession;
let alice: TestSession;
const answers: string[] = [];
const soon = (s: number) => nowIso(new Date(Date.now() + s * 1000));

beforeAll(async () => {
  t = tempDb();
  app = createApp({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
  admin = await signIn(t.db, { username: 'importadmin', role: 'administrator' });
  moderator = await signIn(t.db, { username: 'importmod', role: 'moderator' });
  alice = await signIn(t.db, { username: 'alice' });
});
afterAll(() => t.cleanup());

const track = (answer: request.Response) => {
  answers.push(answer.text);
  return answer;
};
const get = (url: string, session: TestSession | null = admin) => {
  const call = request(app).get(url);
  return (session ? call.set('Cookie', session.cookie) : call).then(track);
};
const post = (url: string, session: TestSession | null = admin) => {
  const call = request(app).post(url);
  return (session ? call.set('Cookie', session.cookie) : call).send({}).then(track);
};
const submit = (body: Record<string, string>, session?: TestSession) => {
  const call = request(app).post('/api/v1/importer/submit');
  return (session ? call.set('Cookie', session.cookie) : call).send(body).then((a) => a.body.import_id as string);
};

describe('imports dashboard API', () => {
  it('is for administrators only', async () => {
    expect((await get('/api/v1/admin/imports', null)).status).toBe(401);
    expect((await get('/api/v1/admin/imports', moderator)).status).toBe(403);
    expect((await post('/api/v1/admin/imports/x/cancel', moderator)).status).toBe(403);
    expect((await post('/api/v1/admin/imports/x/retry', alice)).status).toBe(403);
  });

  it('lists imports newest first with state, submitter and last log line, filtered and paged; never a secret', async () => {
    const patreon = validSubmission('patreon');
    const discord = validSubmission('discord');
    const guestId = await submit(patreon);
    await updateImport(t.db, guestId, { finished_at: nowIso() });
    const aliceId = await submit(discord, alice);
    t.db.prepare("UPDATE imports SET created_at = '2099-01-01T00:00:00' WHERE id = ?").run(aliceId);
    const running = (await claimNextImport(t.db, 'host:1:abcd', soon(60)))!;
    expect(running.id).toBe(aliceId);
    await setImportCursor(t.db, aliceId, { page: 'cursor-secret-page' });
    await appendImportLog(t.db, aliceId, 'Saved post 3 of 9.');

    const all = await get('/api/v1/admin/imports');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(2);
    expect(all.body.imports[0]).toEqual({
      id: aliceId,
      service: 'discord',
      state: 'running',
      submitter: { id: alice.account.id, username: 'alice' },
      created_at: '2099-01-01T00:00:00',
      first_started_at: expect.any(String),
      finished_at: null,
      retry_count: 0,
      resuming_at: null,
      last_log_line: 'Saved post 3 of 9.',
      lease_owner: 'host:1:abcd',
      lease_expires_at: expect.any(String),
      can_retry: false,
      can_cancel: true,
    });
    expect(all.body.imports[1]).toMatchObject({ id: guestId, state: 'finished', submitter: null, can_cancel: false });

    expect((await get('/api/v1/admin/imports?state=running')).body.imports.map((i: { id: string }) => i.id)).toEqual([aliceId]);
    expect((await get('/api/v1/admin/imports?state=finished&service=patreon')).body.total).toBe(1);
    expect((await get('/api/v1/admin/imports?state=finished&service=discord')).body).toEqual({ total: 0, imports: [] });
    expect((await get('/api/v1/admin/imports?state=&service=')).body.total).toBe(2);

    const badState = await get('/api/v1/admin/imports?state=stuck');
    expect([badState.status, badState.body.error]).toEqual([400, '"stuck" is not an import state.']);
    expect((await get('/api/v1/admin/imports?service=myspace')).status).toBe(400);
    expect((await get('/api/v1/admin/imports?o=7')).status).toBe(400);

    const secrets = (
      t.db.prepare('SELECT key_fingerprint, work_key FROM imports').all() as Array<{ key_fingerprint: string; work_key: Buffer | null }>
    ).map((row) => ({
      key_fingerprint: row.key_fingerprint,
      work_key: row.work_key && Buffer.from(row.work_key).toString('hex').toUpperCase(),
    }));
    const cancelled = await post(`/api/v1/admin/imports/${aliceId}/cancel`);
    expect(cancelled.body).toMatchObject({ state: 'cancelled', can_cancel: false, lease_owner: null });
    const text = answers.join('\n');
    for (const secret of [patreon.session_key, discord.session_key, '123456789012345678', 'cursor-secret-page'])
      expect(text).not.toContain(secret);
    for (const s of secrets) {
      expect(text).not.toContain(s.key_fingerprint);
      if (s.work_key) expect(text.toUpperCase()).not.toContain(s.work_key.slice(0, 32));
    }
  });

  it('pages by 50', async () => {
    for (let i = 0; i < PAGE_SIZE + 2; i++) await createImport(t.db, { id: `bulk-${String(i).padStart(3, '0')}`, service: 'fanbox' });
    const first = await get('/api/v1/admin/imports?service=fanbox');
    expect([first.body.total, first.body.imports.length]).toEqual([PAGE_SIZE + 2, PAGE_SIZE]);
    const second = await get(`/api/v1/admin/imports?service=fanbox&o=${PAGE_SIZE}`);
    expect(second.body.imports.map((i: { id: string }) => i.id)).toEqual(['bulk-001', 'bulk-000']);
    expect(second.body.imports[0]).toMatchObject({ state: 'queued', can_cancel: true });
  });

  it('cancels a queued or waiting import once; 404 for an unknown one', async () => {
    const waiting = await createImport(t.db, { service: 'fantia', work_key: Buffer.from('sealed') });
    await updateImport(t.db, waiting, { resuming_at: soon(3600), retry_count: 2 });
    expect((await get('/api/v1/admin/imports?state=waiting')).body.imports[0]).toMatchObject({ id: waiting, state: 'waiting' });
    const answer = await post(`/api/v1/admin/imports/${waiting}/cancel`);
    expect([answer.status, answer.body.state]).toEqual([200, 'cancelled']);
    const again = await post(`/api/v1/admin/imports/${waiting}/cancel`);
    expect([again.status, again.body.error]).toEqual([409, IMPORT_ACTION_MESSAGES.notCancellable]);
    const missing = await post('/api/v1/admin/imports/0000000000000000/cancel');
    expect([missing.status, missing.body.error]).toEqual([404, IMPORT_ACTION_MESSAGES.notFound]);
    const audit = t.db.prepare("SELECT actor_name, target FROM audit_log WHERE action = 'import_cancel' ORDER BY id").all();
    expect(audit).toContainEqual({ actor_name: 'importadmin', target: `import ${waiting} (fantia)` });
  });

  it('retries a gave-up import with its key kept; 409 for a key gone, a key refused or an import that did not fail', async () => {
    const gaveUp = await createImport(t.db, { service: 'gumroad', priority: 99, work_key: Buffer.from('sealed') });
    const owner = 'w';
    expect((await claimNextImport(t.db, owner, soon(60)))?.id).toBe(gaveUp);
    await giveUpImport(t.db, gaveUp, owner, 8);
    expect((await get('/api/v1/admin/imports?state=failed')).body.imports[0]).toMatchObject({ id: gaveUp, can_retry: true });
    const answer = await post(`/api/v1/admin/imports/${gaveUp}/retry`);
    expect([answer.status, answer.body.state, answer.body.retry_count]).toEqual([200, 'queued', 0]);
    const notFailed = await post(`/api/v1/admin/imports/${gaveUp}/retry`);
    expect([notFailed.status, notFailed.body.error]).toEqual([409, IMPORT_ACTION_MESSAGES.notFailed]);

    const keyGone = await createImport(t.db, { service: 'gumroad', priority: 99 });
    await claimNextImport(t.db, owner, soon(60));
    await claimNextImport(t.db, owner, soon(60));
    await giveUpImport(t.db, keyGone, owner, 8);
    const gone = await post(`/api/v1/admin/imports/${keyGone}/retry`);
    expect([gone.status, gone.body.error]).toEqual([409, "This import's session key is gone; it cannot be retried."]);

    const refused = await createImport(t.db, { service: 'gumroad', work_key: Buffer.from('sealed') });
    await updateImport(t.db, refused, { finished_at: nowIso(), is_key_invalid: true });
    expect((await post(`/api/v1/admin/imports/${refused}/retry`)).body.error).toBe(IMPORT_ACTION_MESSAGES.keyGone);
    expect((await post('/api/v1/admin/imports/0000000000000000/retry')).status).toBe(404);
    const audit = t.db.prepare("SELECT target FROM audit_log WHERE action = 'import_retry'").all();
    expect(audit).toEqual([{ target: `import ${gaveUp} (gumroad)` }]);
  });
});
