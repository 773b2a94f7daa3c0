/**
 * The audit log's data module on a real database: lines cannot be changed or deleted (the table's
 * triggers refuse it, whatever the statement), and the list filters by actor and action, newest first,
 * in pages.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countAudit, listAudit, listAuditActors, recordAudit } from '@api/data/audit-log.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';
import { tempDb, type TempDb } from './helpers.ts';

// Imported under another name: biome takes a use* call for a React hook.
const engines = engineDatabases();

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

describe.each(ENGINES)('audit log on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
  });

  it('answers empty on an empty log', async () => {
    expect(await listAudit(db, {}, { offset: 0, limit: 10 })).toEqual([]);
    expect(await countAudit(db, {})).toBe(0);
    expect(await countAudit(db, { actorId: 1, action: 'role_change' })).toBe(0);
    expect(await listAuditActors(db)).toEqual([]);
  });

  it('records lines with increasing ids, reads them back newest first, filters, counts and pages', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      ids.push(
        await recordAudit(db, {
          actor: i % 2 ? bob : ada,
          action: i % 3 ? 'link_approve' : 'role_change',
          target: `line ${i}`,
          reason: i === 0 ? 'café ☕' : null,
          details: i === 0 ? { old_role: 'consumer', new_role: 'moderator', n: 2 } : null,
          at: `2030-01-0${i + 1}T00:00:00`,
        }),
      );
    }
    const system = await recordAudit(db, { actor: null, action: 'auto_import_round', target: 'round 1' });
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(system).toBeGreaterThan(ids[6]);

    const all = await listAudit(db, {}, { offset: 0, limit: 100 });
    expect(all.map((row) => row.id)).toEqual([system, ...[...ids].reverse()]);
    expect(all[0]).toMatchObject({ actor_id: null, actor_name: null, action: 'auto_import_round', reason: null, details: null });
    expect(all[0].at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(all.at(-1)).toEqual({
      id: ids[0],
      at: '2030-01-01T00:00:00',
      actor_id: ada.id,
      actor_name: 'ada',
      action: 'role_change',
      target: 'line 0',
      reason: 'café ☕',
      details: { old_role: 'consumer', new_role: 'moderator', n: 2 },
    });

    expect(await countAudit(db, {})).toBe(8);
    expect(await countAudit(db, { actorId: bob.id })).toBe(3);
    expect(await countAudit(db, { action: 'role_change' })).toBe(3);
    expect(await countAudit(db, { actorId: ada.id, action: 'role_change' })).toBe(2);
    expect(await countAudit(db, { actorId: null, action: null })).toBe(8);
    expect((await listAudit(db, { actorId: ada.id, action: 'role_change' }, { offset: 0, limit: 10 })).map((row) => row.target)).toEqual([
      'line 6',
      'line 0',
    ]);
    expect((await listAudit(db, { action: 'link_approve' }, { offset: 1, limit: 2 })).map((row) => row.target)).toEqual([
      'line 4',
      'line 2',
    ]);
    expect(await listAudit(db, {}, { offset: 8, limit: 2 })).toEqual([]);
  });

  it('lists actors by name in binary order, equal names by id', async () => {
    await recordAudit(db, { actor: { id: 9, username: 'zed' }, action: 'link_reject', target: 'x' });
    await recordAudit(db, { actor: { id: 5, username: 'Ada' }, action: 'link_reject', target: 'x' });
    await recordAudit(db, { actor: { id: 4, username: 'ada' }, action: 'link_reject', target: 'x' });
    await recordAudit(db, { actor: { id: 3, username: 'ada' }, action: 'link_reject', target: 'x' });
    await recordAudit(db, { actor: null, action: 'link_reject', target: 'x' });
    expect(await listAuditActors(db)).toEqual([
      { id: 5, username: 'Ada' },
      { id: 3, username: 'ada' },
      { id: 4, username: 'ada' },
      { id: 9, username: 'zed' },
    ]);
  });

  it('refuses to change or delete a line', async () => {
    const id = await recordAudit(db, { actor: ada, action: 'role_change', target: 'kept' });
    await expect(sql`UPDATE audit_log SET target = 'forged' WHERE id = ${id}`.execute(db.k)).rejects.toThrow(
      'the audit log is append-only',
    );
    await expect(sql`DELETE FROM audit_log`.execute(db.k)).rejects.toThrow('the audit log is append-only');
    expect((await listAudit(db, {}, { offset: 0, limit: 10 })).map((row) => row.target)).toEqual(['kept']);
  });
});
