/**
 * The administrators' import list and the metrics' import counts on both engines: the same states,
 * filters, order and counts on a migrated SQLite file and on PostgreSQL.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { importOutcomeCounts, importQueueCounts } from '@api/data/import-stats.ts';
import { appendImportLog, createImport } from '@api/data/imports.ts';
import { countAdminImports, getAdminImport, importStatesBothWays, listAdminImports } from '@api/data/imports-admin.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

const engines = engineDatabases();
const NOW = '2030-06-01T12:00:00';
const PAST = '2030-06-01T11:00:00';
const FUTURE = '2030-06-01T13:00:00';

type Fields = Partial<{
  finished_at: string;
  is_key_invalid: number;
  gave_up_at: string;
  cancelled_at: string;
  resuming_at: string;
  lease_owner: string;
  lease_expires_at: string;
  work_key: Buffer | null;
}>;

/** One import of each kind, oldest first: [id, expected state, fields]. */
const CASES: Array<[string, string, Fields]> = [
  ['queued', 'queued', {}],
  ['expired', 'queued', { lease_owner: 'w', lease_expires_at: PAST }],
  ['due', 'queued', { resuming_at: PAST }],
  ['running', 'running', { lease_owner: 'w', lease_expires_at: FUTURE, resuming_at: PAST }],
  ['waiting', 'waiting', { resuming_at: FUTURE }],
  ['finished', 'finished', { finished_at: PAST }],
  ['refused', 'failed', { finished_at: PAST, is_key_invalid: 1 }],
  ['gave-up', 'failed', { finished_at: PAST, gave_up_at: PAST }],
  ['cancelled', 'cancelled', { finished_at: PAST, cancelled_at: PAST }],
];

async function seed(db: Store, service: (i: number) => string = (i) => (i % 2 ? 'fanbox' : 'patreon')): Promise<void> {
  for (const [i, [id, , fields]] of CASES.entries()) {
    await createImport(db, { id, service: service(i), created_at: `2030-06-01T0${i}:00:00`, work_key: Buffer.from('sealed') });
    if (Object.keys(fields).length) await db.k.updateTable('imports').set(fields).where('id', '=', id).execute();
  }
}

describe.each(ENGINES)('the imports dashboard on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
  });

  it('names every kind of import the same in SQL and in importState', async () => {
    await seed(db);
    const both = await importStatesBothWays(db, NOW);
    expect(both.map((b) => b.id)).toEqual(CASES.map(([id]) => id).sort());
    for (const b of both) {
      expect(b.sql).toBe(b.ts);
      expect(b.ts).toBe(CASES.find(([id]) => id === b.id)![1]);
    }
  });

  it('lists newest first, filtered and paged, with submitter, last log line and the running lease only', async () => {
    expect(await listAdminImports(db, {}, { offset: 0, limit: 10 }, NOW)).toEqual([]);
    expect(await countAdminImports(db, {}, NOW)).toBe(0);
    const account = await db.k
      .insertInto('accounts')
      .values({ username: 'Zoë', password_hash: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await seed(db);
    await db.k.updateTable('imports').set({ account_id: account.id }).where('id', '=', 'running').execute();
    await appendImportLog(db, 'running', 'first');
    await appendImportLog(db, 'running', 'Saved 日本語 post.');
    // A tie on created_at: the larger id first.
    await createImport(db, { id: 'tie', service: 'patreon', created_at: '2030-06-01T08:00:00' });

    const all = await listAdminImports(db, {}, { offset: 0, limit: 100 }, NOW);
    expect(all.map((i) => i.id)).toEqual([
      'tie',
      'cancelled',
      ...CASES.slice(0, 8)
        .map(([id]) => id)
        .reverse(),
    ]);
    expect(await countAdminImports(db, {}, NOW)).toBe(10);
    expect((await listAdminImports(db, {}, { offset: 2, limit: 3 }, NOW)).map((i) => i.id)).toEqual(['gave-up', 'refused', 'finished']);

    const running = all.find((i) => i.id === 'running')!;
    expect(running).toEqual({
      id: 'running',
      service: 'fanbox',
      state: 'running',
      submitter: { id: account.id, username: 'Zoë' },
      created_at: '2030-06-01T03:00:00',
      first_started_at: null,
      finished_at: null,
      retry_count: 0,
      resuming_at: PAST,
      last_log_line: 'Saved 日本語 post.',
      lease_owner: 'w',
      lease_expires_at: FUTURE,
      can_retry: false,
      can_cancel: true,
    });
    expect(all.find((i) => i.id === 'expired')).toMatchObject({
      state: 'queued',
      lease_owner: null,
      lease_expires_at: null,
      submitter: null,
    });
    expect(all.find((i) => i.id === 'gave-up')).toMatchObject({ state: 'failed', can_retry: true, can_cancel: false, last_log_line: null });
    expect(all.find((i) => i.id === 'refused')).toMatchObject({ state: 'failed', can_retry: false });

    expect((await listAdminImports(db, { state: 'failed' }, { offset: 0, limit: 10 }, NOW)).map((i) => i.id)).toEqual([
      'gave-up',
      'refused',
    ]);
    expect(await countAdminImports(db, { state: 'queued' }, NOW)).toBe(4);
    expect(await countAdminImports(db, { service: 'fanbox' }, NOW)).toBe(4);
    expect((await listAdminImports(db, { state: 'queued', service: 'fanbox' }, { offset: 0, limit: 10 }, NOW)).map((i) => i.id)).toEqual([
      'expired',
    ]);
    expect(await countAdminImports(db, { state: 'waiting', service: 'fanbox' }, NOW)).toBe(0);
    expect(await countAdminImports(db, { service: 'Patreon' }, NOW)).toBe(0);

    // Once its key is wiped, a gave-up import cannot be retried.
    await db.k.updateTable('imports').set({ work_key: null }).where('id', '=', 'gave-up').execute();
    expect(await getAdminImport(db, 'gave-up', NOW)).toMatchObject({ state: 'failed', can_retry: false });
    expect(await getAdminImport(db, 'running', NOW)).toEqual(running);
    expect(await getAdminImport(db, 'missing', NOW)).toBeUndefined();
  });

  it('counts the queue by state and the ended imports by service and outcome', async () => {
    expect(await importQueueCounts(db, NOW)).toEqual({ queued: 0, running: 0, waiting: 0 });
    expect(await importOutcomeCounts(db, NOW)).toEqual([]);
    await seed(db, (i) => (i < 6 ? 'patreon' : i === 8 ? 'afdian' : 'fanbox'));
    expect(await importQueueCounts(db, NOW)).toEqual({ queued: 3, running: 1, waiting: 1 });
    expect(await importOutcomeCounts(db, NOW)).toEqual([
      { service: 'afdian', outcome: 'cancelled', count: 1 },
      { service: 'fanbox', outcome: 'failed', count: 2 },
      { service: 'patreon', outcome: 'finished', count: 1 },
    ]);
    // Later, the lease and the wait have run out: both are queued again.
    expect(await importQueueCounts(db, '2030-06-02T00:00:00')).toEqual({ queued: 5, running: 0, waiting: 0 });
  });
});
