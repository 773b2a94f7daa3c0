/**
 * Importer API against a real migrated database: every service's key rules through HTTP (JSON and
 * form bodies), queueing with the honest log line, dedupe of a pending key, include-DMs for guests,
 * rate limits, 404s, answer shapes, and that no answer, log call or import row carries the key.
 */
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { appendImportLog, getImport, updateImport } from '@api/data/imports.ts';
import { IMPORTER_MESSAGES, SUBMITTED_PRIORITY } from '@api/importer/submit.ts';
import { IMPORT_RATE_LIMIT_MESSAGE } from '@api/importer/submit-limits.ts';
import { readConfig } from '@api/config.ts';
import { IMPORT_RATE_LIMITS } from '@shared/constants.ts';
import { PAYSITES } from '@shared/paysites/index.ts';
import { boostyKey, validSubmission } from '../../helpers/import-keys.ts';
import { signIn, type TestSession } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let app: ReturnType<typeof createApp>;
let alice: TestSession;
const logged: string[] = [];
const answers: string[] = [];

const submit = (body: Record<string, string>, session?: TestSession, form = false) => {
  let call = request(app).post('/api/v1/importer/submit');
  if (session) call = call.set('Cookie', session.cookie);
  return (form ? call.type('form') : call).send(body).then((answer) => {
    answers.push(answer.text);
    return answer;
  });
};
const get = (path: string) =>
  request(app)
    .get(`/api/v1${path}`)
    .then((answer) => {
      answers.push(answer.text);
      return answer;
    });
const count = (sql: string) => (t.db.prepare(sql).get() as { n: number }).n;

beforeAll(async () => {
  t = tempDb();
  const logger = {
    error: (message: string, details?: unknown) => logged.push(message + JSON.stringify(details ?? {})),
    warn: (message: string, details?: unknown) => logged.push(message + JSON.stringify(details ?? {})),
  };
  app = createApp({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }), logger });
  alice = await signIn(t.db);
});
// Each test starts with fresh rate-limit counters; the limit test fills them on purpose.
beforeEach(() => void t.db.prepare('DELETE FROM rate_limits').run());
afterAll(() => t.cleanup());

describe('POST /api/v1/importer/submit validation', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['patreon', { session_key: 'short' }, 'Invalid key: Expected 43 characters, got 5'],
    ['fanbox', { session_key: 'nope' }, 'Invalid key.'],
    ['discord', { session_key: 'bad token' }, 'Invalid token format.'],
    ['discord', { channel_ids: '1,x2' }, 'x2 is not a valid channel ID.'],
    ['fantia', { session_key: 'a'.repeat(33) }, 'Invalid key: Expected 32 or 64 characters.'],
    ['afdian', { session_key: 'XYZ' }, 'Invalid key.'],
    ['boosty', { session_key: 'nope' }, 'Invalid key: Expected valid JSON.'],
    ['boosty', { session_key: boostyKey(Date.now() - 1) }, 'Key is expired.'],
    ['gumroad', { session_key: 'g' }, 'Invalid key: Expected 200 to 1024 characters.'],
    ['subscribestar', { session_key: 's'.repeat(1025) }, 'Key is too long.'],
    ['dlsite', { session_key: '' }, 'Session key is required.'],
    ['fansly', { session_key: 'x'.repeat(70) + '-' }, "The key doesn't match the required pattern."],
    ['onlyfans', { auth_id: 'abc' }, 'User ID must consist of only digits.'],
    ['onlyfans', { 'x-bc': '123' }, 'Invalid BC token'],
    ['onlyfans', { user_agent: 'Agent ✓' }, 'Invalid User-Agent (contains non-ASCII characters).'],
    ['candfans', { session_key: '@@@' }, 'The key was not decodable.'],
  ];
  it.each(cases)('%s %j -> 400 %s (JSON and form bodies)', async (service, fields, message) => {
    const body = { ...validSubmission(service as never), ...fields };
    for (const form of [false, true]) {
      const answer = await submit(body, undefined, form);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: message });
    }
  });

  it('refuses an unknown paysite and creates nothing', async () => {
    const answer = await submit({ service: 'myspace', session_key: 'x' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: '"myspace" is not a valid paysite.' });
    expect(count('SELECT count(*) AS n FROM imports')).toBe(0);
  });
});

describe('queueing', () => {
  it.each(PAYSITES.map((s) => [s]))('queues a valid %s key with the queued log line', async (service) => {
    const answer = await submit(validSubmission(service), undefined, true);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['import_id']);
    const id = answer.body.import_id as string;
    const status = await get(`/imports/${id}`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      id,
      service,
      priority: SUBMITTED_PRIORITY,
      sub_count: 0,
      save_dms: false,
      finished_at: null,
      is_key_invalid: false,
      retry_count: 0,
    });
    expect(Object.keys(status.body).sort()).toEqual(
      [
        'cancelled_at',
        'created_at',
        'current_try_started_at',
        'finished_at',
        'first_started_at',
        'gave_up_at',
        'id',
        'is_key_invalid',
        'key_failed_at',
        'logs',
        'priority',
        'resuming_at',
        'retry_count',
        'save_dms',
        'service',
        'sub_count',
      ].sort(),
    );
    // The import carries its log lines (a list of strings), as the separate log call has them.
    expect(status.body.logs).toEqual([IMPORTER_MESSAGES.queued]);
    const logs = await get(`/importer/logs/${id}`);
    expect(logs.body).toEqual([IMPORTER_MESSAGES.queued]);
  });

  it('returns the pending import for the same key, and a new one once it finished', async () => {
    const body = validSubmission('patreon', 'dd1');
    const first = (await submit(body)).body.import_id;
    const again = await submit({ ...body, session_key: `  ${body.session_key} ` }, undefined, true);
    expect(again.body.import_id).toBe(first);
    // Same key on another paysite is another import.
    const fantia = await submit({ service: 'fantia', session_key: 'f'.repeat(32) });
    expect(fantia.body.import_id).not.toBe(first);
    await updateImport(t.db, first, { finished_at: new Date().toISOString() });
    const later = (await submit(body)).body.import_id;
    expect(later).not.toBe(first);
    await updateImport(t.db, later, { is_key_invalid: true, key_failed_at: new Date().toISOString() });
    expect((await submit(body)).body.import_id).not.toBe(later);
  });

  it('refuses include-DMs for guests and records it for a signed-in account', async () => {
    const guest = await submit({ ...validSubmission('patreon', 'dm1'), save_dms: '1' });
    expect(guest.status).toBe(403);
    expect(guest.body).toEqual({ error: IMPORTER_MESSAGES.dmsNeedAccount });
    const signed = await submit({ ...validSubmission('patreon', 'dm2'), save_dms: '1' }, alice, true);
    expect(signed.status).toBe(200);
    const row = (await getImport(t.db, signed.body.import_id))!;
    expect(row).toMatchObject({ save_dms: true, account_id: alice.account.id });
    expect((await get(`/imports/${row.id}`)).body.save_dms).toBe(true);
    // Paysites without DMs never record the flag.
    const fanbox = await submit({ ...validSubmission('fanbox', 'dm3'), save_dms: '1' }, alice);
    expect((await getImport(t.db, fanbox.body.import_id))!.save_dms).toBe(false);
  });

  it('ignores key saving for guests (nothing can be stored without an owner)', async () => {
    const answer = await submit({ ...validSubmission('patreon', 'gs1'), save_session_key: '1', auto_import: '1' });
    expect(answer.status).toBe(200);
    expect(await getImport(t.db, answer.body.import_id)).toMatchObject({ save_session_key: false, auto_import: false, key_id: null });
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After once the address has used its submissions', async () => {
    const { points } = IMPORT_RATE_LIMITS.perAddress;
    for (let i = 0; i < points; i += 1) expect((await submit(validSubmission('patreon', `rl${i}`))).status).toBe(200);
    const before = count('SELECT count(*) AS n FROM imports');
    const refused = await submit(validSubmission('patreon', 'rlx'));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: IMPORT_RATE_LIMIT_MESSAGE });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(count('SELECT count(*) AS n FROM imports')).toBe(before);
    // A pending key still finds its import: that creates nothing.
    expect((await submit(validSubmission('patreon', 'rl0'))).status).toBe(200);
  });

  it('limits an account across addresses', async () => {
    const bob = await signIn(t.db);
    const { points } = IMPORT_RATE_LIMITS.perAccount;
    for (let i = 0; i < points; i += 1) {
      t.db.prepare("DELETE FROM rate_limits WHERE key LIKE 'import-address%'").run();
      expect((await submit(validSubmission('patreon', `ac${i}`), bob)).status).toBe(200);
    }
    t.db.prepare("DELETE FROM rate_limits WHERE key LIKE 'import-address%'").run();
    expect((await submit(validSubmission('patreon', 'acx'), bob)).status).toBe(429);
  });
});

describe('GET /imports/{id} and /importer/logs/{id}', () => {
  it("carries the import's log lines in order, as a list of strings", async () => {
    const id = (await submit(validSubmission('fanbox', 'logs'))).body.import_id as string;
    await appendImportLog(t.db, id, 'Started.');
    await appendImportLog(t.db, id, 'Imported 3 posts.');
    const answer = await get(`/imports/${id}`);
    expect(answer.body.logs).toEqual([IMPORTER_MESSAGES.queued, 'Started.', 'Imported 3 posts.']);
    expect((await get(`/importer/logs/${id}`)).body).toEqual(answer.body.logs);
  });

  it('answers 404 with the spec message for an unknown import', async () => {
    for (const path of ['/imports/doesnotexist', '/importer/logs/doesnotexist']) {
      const answer = await get(path);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'Your import could not be found.' });
    }
  });
});

describe('secrets', () => {
  it('never puts a submitted key in an answer, a log call or the import tables', async () => {
    const keys = PAYSITES.map((s) => validSubmission(s).session_key);
    const text = [...answers, ...logged].join('\n');
    const rows = JSON.stringify([t.db.prepare('SELECT * FROM imports').all(), t.db.prepare('SELECT * FROM import_logs').all()]);
    for (const key of keys) {
      expect(text).not.toContain(key);
      expect(rows).not.toContain(key);
    }
    expect(answers.length).toBeGreaterThan(40);
  });
});
