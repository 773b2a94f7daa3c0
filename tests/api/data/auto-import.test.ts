/** Auto-import rounds and candidates on both engines, with the rounds' audit lines. */
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { listAudit } from '@api/data/audit-log.ts';
import {
  claimAutoImportRound,
  finishAutoImportRound,
  getAutoImportCandidate,
  listAutoImportCandidates,
  listAutoImportRounds,
  requestAutoImportRound,
} from '@api/data/auto-import.ts';
import type { Store } from '@api/data/store.ts';
import { ENGINES, engineDatabases } from '../../helpers/engines.ts';

// Imported under another name: biome takes a use* call for a React hook.
const engines = engineDatabases();

const T1 = '2030-01-01T00:00:00';
const T2 = '2030-01-02T00:00:00';
const T3 = '2030-01-03T00:00:00';

describe.each(ENGINES)('auto-import on %s', (engine) => {
  let db: Store;
  let admin: { id: number; username: string };
  beforeEach(async () => {
    db = await engines.fresh(engine);
    const row = await db.k
      .insertInto('accounts')
      .values({ username: 'boss', password_hash: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    admin = { id: row.id, username: 'boss' };
  });

  const auditLines = async () =>
    (await listAudit(db, {}, { offset: 0, limit: 100 }))
      .reverse()
      .map(({ actor_id, action, target, details, at }) => ({ actor_id, action, target, details, at }));

  it('answers empty with no rounds or keys', async () => {
    expect(await listAutoImportRounds(db)).toEqual([]);
    expect(await listAutoImportCandidates(db)).toEqual([]);
    expect(await getAutoImportCandidate(db, 1)).toBeUndefined();
  });

  it('requests a round once while it waits, claims it, then schedules one when due, and finishes', async () => {
    const requested = await requestAutoImportRound(db, admin, T1);
    expect(requested).toEqual({
      id: requested.id,
      requested_at: T1,
      requested_by: admin.id,
      started_at: null,
      finished_at: null,
      queued: null,
      skipped: null,
      failed: null,
    });
    expect(await requestAutoImportRound(db, null, T2)).toEqual(requested);
    expect(await claimAutoImportRound(db, T2, T1)).toBe(requested.id);
    expect(await claimAutoImportRound(db, T2, T1)).toBeUndefined();
    const scheduled = await claimAutoImportRound(db, T3, T2);
    expect(scheduled).toBeGreaterThan(requested.id);
    await finishAutoImportRound(db, scheduled!, { queued: 3, skipped: 0, failed: 1 }, T3);
    const byScript = await requestAutoImportRound(db, null, T3);

    expect(await listAutoImportRounds(db)).toEqual([
      { ...byScript, requested_by: null, started_at: null },
      { id: scheduled, requested_at: T3, requested_by: null, started_at: T3, finished_at: T3, queued: 3, skipped: 0, failed: 1 },
      { ...requested, started_at: T2 },
    ]);
    expect((await listAutoImportRounds(db, 1)).map((round) => round.id)).toEqual([byScript.id]);
    const r = (id: number | undefined) => `round ${id}`;
    expect(await auditLines()).toEqual([
      { actor_id: admin.id, action: 'auto_import_round', target: r(requested.id), details: { requested: true }, at: T1 },
      { actor_id: null, action: 'auto_import_round', target: r(requested.id), details: { started: true, scheduled: false }, at: T2 },
      { actor_id: null, action: 'auto_import_round', target: r(scheduled), details: { started: true, scheduled: true }, at: T3 },
      {
        actor_id: null,
        action: 'auto_import_round',
        target: r(scheduled),
        details: { finished: true, queued: 3, skipped: 0, failed: 1 },
        at: T3,
      },
    ]);
  });

  it('gives a due round to one of several schedulers claiming at once', async () => {
    // PostgreSQL: three transactions on three connections at once. SQLite: schedulers in other processes
    // wait for each other's BEGIN IMMEDIATE, which one after the other models (transactions started at
    // once on one handle are not kept apart by inTransaction).
    const claim = () => claimAutoImportRound(db, T2, T1);
    // Connections opened beforehand, so that the claims overlap rather than wait for a connection each.
    await Promise.all([1, 2, 3].map(() => sql`SELECT 1`.execute(db.k)));
    const claims = engine === 'PostgreSQL' ? await Promise.all([claim(), claim(), claim()]) : [await claim(), await claim(), await claim()];
    expect(claims.filter((id) => id !== undefined)).toHaveLength(1);
    expect(await listAutoImportRounds(db)).toHaveLength(1);
  });

  it('lists alive opted-in keys with their latest import, its channels and whether one is pending', async () => {
    const key = (values: { service: string; dead?: number; auto_import?: number; fingerprint?: string | null }) =>
      db.k
        .insertInto('auto_import_keys')
        .values({ encrypted_key: Buffer.from([0, 255, values.service.length]), account_id: admin.id, dead: 0, auto_import: 1, ...values })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((row) => row.id);
    const discord = await key({ service: 'discord', fingerprint: 'fp-d' });
    const fanbox = await key({ service: 'fanbox', fingerprint: 'fp-f' });
    const never = await key({ service: 'patreon' });
    const dead = await key({ service: 'gumroad', dead: 1 });
    const optedOut = await key({ service: 'fantia', auto_import: 0 });
    const imp = (id: string, values: Record<string, unknown>) =>
      db.k
        .insertInto('imports')
        .values({ id, service: 'x', finished_at: '2029-01-01', ...values })
        .execute();
    await imp('i1', { key_id: discord, created_at: T1, channel_ids: 'old' });
    await imp('i3', { key_id: discord, created_at: T2, channel_ids: '111,222' });
    await imp('i2', { key_id: discord, created_at: T2, channel_ids: 'tied-lower-id' });
    await imp('i4', { key_id: dead, created_at: T3, finished_at: null });
    // Pending through the fingerprint alone: a resubmitted key not linked to the kept one.
    await imp('i5', { key_id: null, key_fingerprint: 'fp-f', created_at: T3, finished_at: null });
    await imp('i6', { key_id: fanbox, created_at: T1, channel_ids: null });
    await imp('i7', { key_id: never, created_at: T3, finished_at: null, is_key_invalid: 1 });

    const candidates = await listAutoImportCandidates(db);
    expect(candidates.map((c) => c.id)).toEqual([discord, fanbox, never]);
    expect(candidates[0]).toEqual({
      id: discord,
      service: 'discord',
      encrypted_key: Buffer.from([0, 255, 7]),
      account_id: admin.id,
      fingerprint: 'fp-d',
      last_import_at: T2,
      pending: false,
      channel_ids: '111,222',
    });
    expect(candidates[1]).toMatchObject({ id: fanbox, last_import_at: T1, pending: true, channel_ids: null });
    expect(candidates[2]).toMatchObject({ id: never, fingerprint: null, last_import_at: T3, pending: false, channel_ids: null });
    expect(Buffer.isBuffer(candidates[2].encrypted_key)).toBe(true);
    expect(await getAutoImportCandidate(db, fanbox)).toEqual(candidates[1]);
    expect(await getAutoImportCandidate(db, dead)).toBeUndefined();
    expect(await getAutoImportCandidate(db, optedOut)).toBeUndefined();
    expect(await getAutoImportCandidate(db, 999_999)).toBeUndefined();
  });
});
