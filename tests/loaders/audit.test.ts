/**
 * The audit page's loader on a real database: administrators only, the API's filter rules (400 with the
 * same message), 404 past the last page, and each line put in words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '@api/data/audit-log.ts';
import { readConfig } from '@api/config.ts';
import { auditActionWords, auditDetailsText, loadAuditLog } from '@site/loaders/audit.ts';
import { signIn, type TestSession } from '../helpers/session.ts';
import { tempDb, type TempDb } from '../api/data/helpers.ts';

let t: TempDb;
let admin: TestSession;
const deps = () => ({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }) });
const as = (session: TestSession | null) =>
  new Request('http://trove.test/account/administrator/audit', { headers: session ? { cookie: session.cookie } : {} });
const load = (session: TestSession | null, query = '') => loadAuditLog(deps(), as(session), new URLSearchParams(query));

beforeAll(async () => {
  t = tempDb();
  admin = await signIn(t.db, { username: 'pageadmin', role: 'administrator' });
  await recordAudit(t.db, {
    actor: null,
    action: 'auto_import_round',
    target: 'round 2',
    details: { finished: true, queued: 3, skipped: 1, failed: 0 },
  });
  await recordAudit(t.db, {
    actor: admin.account,
    action: 'role_change',
    target: 'account 9 (x)',
    details: { old_role: 'consumer', new_role: 'moderator' },
  });
});
afterAll(() => t.cleanup());

describe('loadAuditLog', () => {
  it('refuses guests, consumers and moderators', async () => {
    expect(await load(null)).toMatchObject({ kind: 'denied', status: 401 });
    expect(await load(await signIn(t.db, { role: 'moderator' }))).toMatchObject({ kind: 'denied', status: 403 });
  });

  it('answers the lines newest first, in words, with the filters', async () => {
    const outcome = await load(admin);
    if (outcome.kind !== 'ok') throw new Error(outcome.kind);
    expect(outcome.data.entries.map((e) => [e.who, e.words, e.summary])).toEqual([
      ['pageadmin', 'Role changed', 'consumer → moderator'],
      ['system', 'Auto-import round', 'Finished: 3 queued, 1 skipped, 0 failed'],
    ]);
    expect(outcome.data.actors).toEqual([{ id: admin.account.id, username: 'pageadmin' }]);
    const filtered = await load(admin, `actor=${admin.account.id}&action=auto_import_round`);
    expect(filtered.kind === 'ok' && filtered.data.entries).toEqual([]);
    expect(filtered.kind === 'ok' && filtered.data.filter).toEqual({ actor: admin.account.id, action: 'auto_import_round' });
  });

  it('answers 400 for an unknown action and 404 past the last page', async () => {
    expect(await load(admin, 'action=erase')).toMatchObject({
      kind: 'bad-request',
      message: expect.stringMatching(/^Unknown action "erase"\./),
    });
    expect(await load(admin, 'o=50')).toEqual({ kind: 'not-found' });
  });
});

describe('audit words', () => {
  it('names every action and summarises details', () => {
    expect(auditActionWords('link_remove')).toBe('Links removed');
    expect(auditActionWords('some_new_action')).toBe('Some new action');
    expect(auditDetailsText({ action: 'auto_import_round', details: { started: true, scheduled: true } })).toBe('Started (fell due)');
    expect(auditDetailsText({ action: 'link_remove', details: { name: 'Two', unlinked_from: ['patreon/1', 'fanbox/3'] } })).toBe(
      'Two unlinked from patreon/1, fanbox/3',
    );
    expect(auditDetailsText({ action: 'import_retry', details: { import_id: 'ab12', attempts: 2 } })).toBe('import id: ab12; attempts: 2');
    expect(auditDetailsText({ action: 'role_change', details: null })).toBe('');
  });
});
