/**
 * The import queue on both engines: the same answers on a migrated SQLite file and on PostgreSQL, and a
 * claim race of several workers, each with its own connection, that claims every import exactly once.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  appendImportLog,
  cancelImportRow,
  claimNextImport,
  createImport,
  endImport,
  findPendingImportByFingerprint,
  getImport,
  getImportCursor,
  getImportLogs,
  getImportWorkKey,
  giveUpImport,
  hasImportWorkKey,
  holdsImportLease,
  publicImport,
  releaseImportLease,
  renewImportLease,
  replaceImportWorkKey,
  requeueGaveUpImport,
  setImportCursor,
  updateImport,
  wipeExpiredRetryKeys,
} from '@api/data/imports.ts';
import { closeStore, inTransaction, postgresStore, type Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

const engines = engineDatabases();
const T0 = '2030-01-01T00:00:00.000Z';
const T1 = '2030-01-01T01:00:00.000Z';
const T2 = '2030-01-01T02:00:00.000Z';
const LATER = '2999-01-01T00:00:00.000Z';

describe.each(ENGINES)('imports on %s', (engine) => {
  let db: Store;
  beforeEach(async () => {
    db = await engines.fresh(engine);
  });

  it('creates, reads, finds by fingerprint and updates imports', async () => {
    const id = await createImport(db, { service: 'patreon', created_at: T0, key_fingerprint: 'fp' });
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    const full = await createImport(db, {
      id: 'full',
      service: 'fanbox',
      priority: 3,
      sub_count: 2,
      save_dms: true,
      save_session_key: true,
      auto_import: true,
      channel_ids: 'a,b',
      created_at: T1,
      key_fingerprint: 'fp',
    });
    expect(full).toBe('full');
    expect(await getImport(db, 'missing')).toBeUndefined();
    const got = await getImport(db, id);
    expect(got).toEqual({
      id,
      service: 'patreon',
      account_id: null,
      key_id: null,
      priority: 0,
      sub_count: null,
      save_dms: false,
      save_session_key: false,
      auto_import: false,
      channel_ids: null,
      created_at: T0,
      first_started_at: null,
      retry_count: 0,
      current_try_started_at: null,
      resuming_at: null,
      finished_at: null,
      key_failed_at: null,
      is_key_invalid: false,
      gave_up_at: null,
      cancelled_at: null,
      cancelled_by: null,
    });
    expect(await getImport(db, 'full')).toMatchObject({ priority: 3, sub_count: 2, save_dms: true, auto_import: true, channel_ids: 'a,b' });
    const pub = publicImport(got!);
    expect(pub).not.toHaveProperty('account_id');
    expect(pub).not.toHaveProperty('channel_ids');

    // The newest pending one of the fingerprint; none once it ended or its key was refused.
    expect(await findPendingImportByFingerprint(db, 'fp')).toBe('full');
    expect(await findPendingImportByFingerprint(db, 'other')).toBeUndefined();
    expect(await updateImport(db, 'full', { is_key_invalid: true, finished_at: T2 })).toBe(true);
    expect(await findPendingImportByFingerprint(db, 'fp')).toBe(id);
    expect(await getImport(db, 'full')).toMatchObject({ is_key_invalid: true, finished_at: T2 });

    expect(await updateImport(db, id, {})).toBe(false);
    expect(await updateImport(db, id, { sub_count: undefined })).toBe(false);
    expect(await updateImport(db, 'missing', { retry_count: 1 })).toBe(false);
    await expect(updateImport(db, id, { cursor: 'x' } as never)).rejects.toThrow('Unknown import field cursor');
  });

  it('keeps log lines in order, unicode included', async () => {
    const id = await createImport(db, { service: 'patreon' });
    expect(await getImportLogs(db, id)).toEqual([]);
    await appendImportLog(db, id, 'Started.');
    await appendImportLog(db, id, 'Créateur 日本語 🎨 saved.', T0);
    await appendImportLog(db, id, 'Finished.');
    expect(await getImportLogs(db, id)).toEqual(['Started.', 'Créateur 日本語 🎨 saved.', 'Finished.']);
    expect(await getImportLogs(db, 'missing')).toEqual([]);
  });

  it('claims by priority then age, skipping waiting, leased, ended and refused imports', async () => {
    await createImport(db, { id: 'old', service: 'patreon', created_at: T0 });
    await createImport(db, { id: 'urgent', service: 'patreon', priority: 5, created_at: T2 });
    await createImport(db, { id: 'tie-b', service: 'patreon', created_at: T1 });
    await createImport(db, { id: 'tie-a', service: 'patreon', created_at: T1 });
    await createImport(db, { id: 'waiting', service: 'patreon', priority: 9, created_at: T0 });
    await updateImport(db, 'waiting', { resuming_at: LATER });
    await createImport(db, { id: 'done', service: 'patreon', priority: 9, created_at: T0 });
    await updateImport(db, 'done', { finished_at: T0 });
    await createImport(db, { id: 'refused', service: 'patreon', priority: 9, created_at: T0 });
    await updateImport(db, 'refused', { is_key_invalid: true });

    const first = await claimNextImport(db, 'w1', T2, T1);
    expect(first).toMatchObject({ id: 'urgent', current_try_started_at: T1, first_started_at: T1 });
    expect((await claimNextImport(db, 'w1', T2, T1))?.id).toBe('old');
    expect((await claimNextImport(db, 'w1', T2, T1))?.id).toBe('tie-a');
    expect((await claimNextImport(db, 'w1', T2, T1))?.id).toBe('tie-b');
    expect(await claimNextImport(db, 'w1', T2, T1)).toBeUndefined();

    // An expired lease is taken over; first_started_at keeps the first try.
    const taken = await claimNextImport(db, 'w2', LATER, T2);
    expect(taken).toMatchObject({ id: 'urgent', current_try_started_at: T2, first_started_at: T1 });
    expect(await holdsImportLease(db, 'urgent', 'w1')).toBe(false);
    expect(await holdsImportLease(db, 'urgent', 'w2')).toBe(true);
    expect(await renewImportLease(db, 'urgent', 'w1', LATER)).toBe(false);
    expect(await renewImportLease(db, 'urgent', 'w2', LATER)).toBe(true);
    expect(await holdsImportLease(db, 'missing', 'w2')).toBe(false);
  });

  it('releases, ends, gives up, requeues and cancels through the lease', async () => {
    const sealed = Buffer.from([0, 1, 2, 255]);
    await createImport(db, { id: 'a', service: 'patreon', created_at: T0, work_key: sealed });
    expect(await getImportCursor(db, 'a')).toBeUndefined();
    expect(await getImportWorkKey(db, 'a')).toEqual(sealed);
    expect(await getImportWorkKey(db, 'missing')).toBeUndefined();
    expect(await hasImportWorkKey(db, 'a')).toBe(true);
    await claimNextImport(db, 'w', LATER, T0);

    await setImportCursor(db, 'a', { page: 2, title: 'ü' });
    expect(await getImportCursor(db, 'a')).toEqual({ page: 2, title: 'ü' });
    const renewed = Buffer.from('renewed');
    expect(await replaceImportWorkKey(db, 'a', renewed)).toBe(true);
    expect(await getImportWorkKey(db, 'a')).toEqual(renewed);

    expect(await releaseImportLease(db, 'a', 'other', { retry_count: 9 })).toBe(false);
    expect(await releaseImportLease(db, 'a', 'w', { retry_count: 1, resuming_at: T1 })).toBe(true);
    expect(await getImport(db, 'a')).toMatchObject({ retry_count: 1, resuming_at: T1 });
    expect(await holdsImportLease(db, 'a', 'w')).toBe(false);
    expect(await claimNextImport(db, 'w', LATER, T0)).toBeUndefined();
    expect((await claimNextImport(db, 'w', LATER, T1))?.id).toBe('a');

    // Gives up: finished, the sealed key and cursor kept for a retry; the sweep wipes them later.
    expect(await giveUpImport(db, 'a', 'w', 8, T1)).toBe(true);
    expect(await getImport(db, 'a')).toMatchObject({ finished_at: T1, gave_up_at: T1, retry_count: 8 });
    expect(await hasImportWorkKey(db, 'a')).toBe(true);
    expect(await requeueGaveUpImport(db, 'a')).toBe(true);
    expect(await requeueGaveUpImport(db, 'a')).toBe(false);
    expect(await getImport(db, 'a')).toMatchObject({ finished_at: null, gave_up_at: null, resuming_at: null, retry_count: 0 });
    expect(await getImportCursor(db, 'a')).toEqual({ page: 2, title: 'ü' });
    await claimNextImport(db, 'w', LATER, T1);
    expect(await giveUpImport(db, 'a', 'w', 8, T1)).toBe(true);
    expect(await wipeExpiredRetryKeys(db, T0)).toBe(0);
    expect(await wipeExpiredRetryKeys(db, T2)).toBe(1);
    expect(await wipeExpiredRetryKeys(db, T2)).toBe(0);
    expect(await hasImportWorkKey(db, 'a')).toBe(false);
    expect(await getImportCursor(db, 'a')).toBeUndefined();
    expect(await requeueGaveUpImport(db, 'a')).toBe(false);

    // Ends: the lease freed, the key and cursor wiped; a wiped key is not replaced.
    await createImport(db, { id: 'b', service: 'patreon', created_at: T0, work_key: sealed });
    await claimNextImport(db, 'w', LATER, T0);
    await setImportCursor(db, 'b', [1]);
    expect(await endImport(db, 'b', 'other', { finished_at: T1 })).toBe(false);
    expect(await endImport(db, 'b', 'w', { finished_at: T1, key_failed_at: T1, is_key_invalid: true })).toBe(true);
    expect(await endImport(db, 'b', 'w', { finished_at: T1 })).toBe(false);
    expect(await getImport(db, 'b')).toMatchObject({ finished_at: T1, key_failed_at: T1, is_key_invalid: true });
    expect(await getImportWorkKey(db, 'b')).toBeUndefined();
    expect(await getImportCursor(db, 'b')).toBeUndefined();
    expect(await replaceImportWorkKey(db, 'b', renewed)).toBe(false);
    expect(await renewImportLease(db, 'b', 'w', LATER)).toBe(false);

    // Cancels one that has not ended, once; its cancelling administrator is kept.
    const admin = await db.k
      .insertInto('accounts')
      .values({ username: `admin-${engine}`, password_hash: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await createImport(db, { id: 'c', service: 'patreon', created_at: T0, work_key: sealed });
    await claimNextImport(db, 'w', LATER, T0);
    expect(await cancelImportRow(db, 'c', admin.id, T1)).toBe(true);
    expect(await cancelImportRow(db, 'c', admin.id, T2)).toBe(false);
    expect(await cancelImportRow(db, 'missing', null, T2)).toBe(false);
    expect(await getImport(db, 'c')).toMatchObject({ finished_at: T1, cancelled_at: T1, cancelled_by: admin.id });
    expect(await holdsImportLease(db, 'c', 'w')).toBe(false);
    expect(await hasImportWorkKey(db, 'c')).toBe(false);
  });

  it('claims every import exactly once when several workers race, each on its own connection', async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `race-${String(i).padStart(2, '0')}`);
    for (const [i, id] of ids.entries()) await createImport(db, { id, service: 'patreon', priority: i % 3, created_at: T0 });
    const owners = ['w1', 'w2', 'w3', 'w4'];
    let claims: string[][];
    if (engine === 'PostgreSQL') {
      // Claim loops in this process, each over its own pool.
      const url = db.pool!.options.connectionString!;
      const stores = owners.map(() => postgresStore(url, { max: 2 }));
      try {
        claims = await Promise.all(
          stores.map(async (store, i) => {
            const claimed: string[] = [];
            for (let job = await claimNextImport(store, owners[i], LATER); job; job = await claimNextImport(store, owners[i], LATER))
              claimed.push(job.id);
            return claimed;
          }),
        );
      } finally {
        for (const store of stores) await closeStore(store);
      }
    } else {
      // One SQLite handle serves one process: the workers are processes, each with its own handle.
      claims = await claimInProcesses(db.sqlite!.name, owners);
    }
    expect(claims.flat().sort()).toEqual(ids);
    for (const [i, owner] of owners.entries()) for (const id of claims[i]) expect(await holdsImportLease(db, id, owner)).toBe(true);
  }, 60_000);

  it.runIf(engine === 'PostgreSQL')('keeps an expired lease from a takeover while a step holding it is open', async () => {
    await createImport(db, { id: 'held', service: 'patreon', created_at: T0 });
    await claimNextImport(db, 'w1', T1, T0);
    const other = postgresStore(db.pool!.options.connectionString!, { max: 1 });
    try {
      await inTransaction(db, async (trx) => {
        expect(await holdsImportLease(trx, 'held', 'w1')).toBe(true);
        // The lease expired, but the step's row is locked: the claimer skips it rather than wait.
        expect(await claimNextImport(other, 'w2', LATER, T2)).toBeUndefined();
        await setImportCursor(trx, 'held', { step: 1 });
      });
      expect((await claimNextImport(other, 'w2', LATER, T2))?.id).toBe('held');
      expect(await holdsImportLease(db, 'held', 'w1')).toBe(false);
    } finally {
      await closeStore(other);
    }
  });
});

/** Runs tests/helpers/claim-loop.ts once per owner, starts them together, and gives each one's claims. */
async function claimInProcesses(target: string, owners: string[]): Promise<string[][]> {
  const children = owners.map((owner) =>
    spawn(process.execPath, ['--import', 'tsx', path.resolve('tests/helpers/claim-loop.ts'), target, owner], {
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  const lines = children.map((child) => {
    let out = '';
    let sawReady: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (sawReady = resolve));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.startsWith('ready\n')) sawReady();
    });
    const claimed = new Promise<string[]>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve(JSON.parse(out.slice('ready\n'.length)) as string[]) : reject(new Error(`claim loop exited ${code}`)),
      );
    });
    return { ready, claimed };
  });
  // Every child has loaded its modules and opened its connection before any of them claims.
  await Promise.all(lines.map((line) => line.ready));
  for (const child of children) child.stdin.end('go\n');
  return await Promise.all(lines.map((line) => line.claimed));
}
