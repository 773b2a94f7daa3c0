/**
 * The import state rule: every kind of import row gets the state the product describes, and the SQL
 * filter of the administrators' list names each one the same as importState.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImport } from '@api/data/imports.ts';
import { importStatesBothWays } from '@api/data/imports-admin.ts';
import { importState, importStatusLabel } from '@shared/import-state.ts';
import { tempDb, type TempDb } from '../api/data/helpers.ts';

const NOW = '2030-06-01T12:00:00';
const PAST = '2030-06-01T11:00:00';
const FUTURE = '2030-06-01T13:00:00';
const base = { finished_at: null, is_key_invalid: false, gave_up_at: null, cancelled_at: null, resuming_at: null };

const CASES = [
  ['queued', {}],
  ['queued', { lease_owner: 'w', lease_expires_at: PAST }],
  ['queued', { resuming_at: PAST }],
  ['running', { lease_owner: 'w', lease_expires_at: FUTURE, resuming_at: PAST }],
  ['waiting', { resuming_at: FUTURE }],
  ['finished', { finished_at: PAST }],
  ['failed', { finished_at: PAST, is_key_invalid: true }],
  ['failed', { finished_at: PAST, gave_up_at: PAST }],
  ['cancelled', { finished_at: PAST, cancelled_at: PAST }],
] as const;

let t: TempDb;
beforeAll(() => {
  t = tempDb();
});
afterAll(() => t.cleanup());

describe('importState', () => {
  it('names each kind of import', () => {
    for (const [state, fields] of CASES) expect(importState({ ...base, ...fields }, NOW)).toBe(state);
  });

  it('agrees with the SQL filter of the administrators list', async () => {
    for (const [index, [, fields]] of CASES.entries()) {
      const id = `case-${index}`;
      await createImport(t.db, { id, service: 'patreon' });
      const f = { ...base, lease_owner: null, lease_expires_at: null, ...fields };
      t.db
        .prepare(
          `UPDATE imports SET finished_at = ?, is_key_invalid = ?, gave_up_at = ?, cancelled_at = ?, resuming_at = ?,
             lease_owner = ?, lease_expires_at = ? WHERE id = ?`,
        )
        .run(f.finished_at, f.is_key_invalid ? 1 : 0, f.gave_up_at, f.cancelled_at, f.resuming_at, f.lease_owner, f.lease_expires_at, id);
    }
    const both = await importStatesBothWays(t.db, NOW);
    expect(both.map((b) => b.ts)).toEqual(CASES.map(([state]) => state));
    for (const b of both) expect(b.sql).toBe(b.ts);
  });

  it('gives the status page Finished, Failed, Cancelled or In Progress', () => {
    expect(importStatusLabel({ ...base, resuming_at: '2999-01-01T00:00:00' })).toBe('In Progress');
    expect(importStatusLabel({ ...base, finished_at: PAST, gave_up_at: PAST })).toBe('Failed');
    expect(importStatusLabel({ ...base, finished_at: PAST, cancelled_at: PAST })).toBe('Cancelled');
    expect(importStatusLabel({ ...base, finished_at: PAST })).toBe('Finished');
  });
});
