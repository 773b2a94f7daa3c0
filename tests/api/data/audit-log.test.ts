/**
 * The audit log's data module on a real database: lines cannot be changed or deleted (the table's
 * triggers refuse it, whatever the statement), and the list filters by actor and action, newest first,
 * in pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countAudit, listAudit, listAuditActors, recordAudit } from '@api/data/audit-log.ts';
import { tempDb, type TempDb } from './helpers.ts';

let t: TempDb;
const ada = { id: 1, username: 'ada' };
const bob = { id: 2, username: 'bob' };

beforeAll(async () => {
  t = tempDb();
  for (let i = 0; i < 60; i += 1) {
    await recordAudit(t.db, {
      actor: i % 2 ? bob : ada,
      action: i % 3 ? 'link_approve' : 'role_change',
      target: `line ${i}`,
      at: '2030-01-01T00:00:00',
    });
  }
  await recordAudit(t.db, { actor: null, action: 'auto_import_round', target: 'round 1', details: { started: true, scheduled: true } });
});
afterAll(() => t.cleanup());

describe('audit log', () => {
  it('keeps what was recorded, details as an object', async () => {
    const [last] = await listAudit(t.db, {}, { offset: 0, limit: 1 });
    expect(last).toMatchObject({
      actor_id: null,
      actor_name: null,
      action: 'auto_import_round',
      target: 'round 1',
      reason: null,
      details: { started: true, scheduled: true },
    });
    expect(last.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });

  it('refuses to change or delete a line, even with SQL straight on the table', () => {
    const before = t.db.prepare('SELECT * FROM audit_log ORDER BY id').all();
    expect(() => t.db.prepare("UPDATE audit_log SET target = 'forged' WHERE id = 1").run()).toThrow('the audit log is append-only');
    expect(() => t.db.prepare('UPDATE audit_log SET actor_id = NULL').run()).toThrow('the audit log is append-only');
    expect(() => t.db.prepare('DELETE FROM audit_log WHERE id = 1').run()).toThrow('the audit log is append-only');
    expect(() => t.db.prepare('DELETE FROM audit_log').run()).toThrow('the audit log is append-only');
    expect(() => t.db.prepare("INSERT OR REPLACE INTO audit_log (id, action, target) VALUES (1, 'role_change', 'forged')").run()).toThrow(
      'the audit log is append-only',
    );
    expect(t.db.prepare('SELECT * FROM audit_log ORDER BY id').all()).toEqual(before);
  });

  it('filters by actor and by action, and counts what it filters', async () => {
    expect(await countAudit(t.db, {})).toBe(61);
    expect(await countAudit(t.db, { actorId: bob.id })).toBe(30);
    expect(await countAudit(t.db, { action: 'role_change' })).toBe(20);
    expect(await countAudit(t.db, { actorId: ada.id, action: 'role_change' })).toBe(10);
    const rows = await listAudit(t.db, { actorId: ada.id, action: 'role_change' }, { offset: 0, limit: 50 });
    expect(rows).toHaveLength(10);
    expect(rows.every((row) => row.actor_name === 'ada' && row.action === 'role_change')).toBe(true);
    expect(await listAuditActors(t.db)).toEqual([ada, bob]);
  });

  it('pages newest first without gaps or repeats', async () => {
    const first = await listAudit(t.db, {}, { offset: 0, limit: 50 });
    const second = await listAudit(t.db, {}, { offset: 50, limit: 50 });
    expect(first).toHaveLength(50);
    expect(second).toHaveLength(11);
    const ids = [...first, ...second].map((row) => row.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(61);
    expect(second.at(-1)!.target).toBe('line 0');
  });
});
