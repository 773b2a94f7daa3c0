/**
 * The worker's operations side against a real SQLite file and the real worker: an administrator's cancel
 * (queued, and while running: it stops between steps and writes nothing more), giving up with the sealed
 * key kept, an administrator's retry running again with that key, the sweep that wipes it after the keep
 * window, and the low-disk pause (one log line, resume from the cursor when space returns).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listAudit } from '@api/data/audit-log.ts';
import { createImport, getImport, getImportCursor, getImportLogs, getImportWorkKey, updateImport } from '@api/data/imports.ts';
import { getAdminImport } from '@api/data/imports-admin.ts';
import { nowIso } from '@api/data/util.ts';
import type { ImportContext, PaysiteImporter } from '@api/importer/context.ts';
import { KeyRejectedError, TransientError } from '@api/importer/errors.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { WORKER_LINES, startImportWorker, type ImportWorker, type WorkerOptions } from '@api/importer/worker.ts';
import { cancelImport, IMPORT_ACTION_MESSAGES, retryImport } from '@api/moderation/import-actions.ts';
import { readConfig } from '@api/config.ts';
import { signIn } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

const KEY = 'sEcReT-session-key-operations-0123456789';
let t: TempDb;
let config: ReturnType<typeof readConfig>;
const workers: ImportWorker[] = [];
const serverLog: string[] = [];

beforeEach(() => {
  t = tempDb();
  config = readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test', MIN_FREE_DISK_MB: '100', IMPORT_RETRY_KEEP_HOURS: '72' });
  serverLog.length = 0;
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  t.cleanup();
});

async function queue(id: string) {
  await createImport(t.db, { id, service: 'patreon', work_key: sealForWorker(config, id, KEY) });
  return id;
}

function worker(importer: PaysiteImporter, options: WorkerOptions = {}) {
  const w = startImportWorker(
    { db: t.db, config, log: (line) => serverLog.push(line) },
    { autoStart: false, backoffMs: 1000, importers: () => importer, ...options },
  );
  workers.push(w);
  return w;
}

const admin = async () => (await signIn(t.db, { username: `admin${workers.length}`, role: 'administrator' })).account;
const row = (id: string) =>
  t.db.prepare('SELECT lease_owner, work_key, cursor, resuming_at, retry_count FROM imports WHERE id = ?').get(id) as {
    lease_owner: string | null;
    work_key: Buffer | null;
    cursor: string | null;
    resuming_at: string | null;
    retry_count: number;
  };
const hoursAgo = (h: number) => nowIso(new Date(Date.now() - h * 3600_000));

/** Steps 1..total from the cursor, each writing a log line; waits for `gate` after the step numbered pauseAfter. */
function steppingImporter(total: number, pauseAfter: number, gate: Promise<void>, onPause: () => void, ran: number[]) {
  return {
    async run(ctx: ImportContext) {
      for (let n = ((await ctx.cursor<{ n: number }>())?.n ?? 0) + 1; n <= total; n++) {
        const step = n;
        await ctx.step(() => ran.push(step), { cursor: { n: step }, log: [`Step ${step}.`] });
        if (step === pauseAfter) {
          onPause();
          await gate;
        }
      }
    },
  } satisfies PaysiteImporter;
}

function gated() {
  let open!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const paused = new Promise<void>((resolve) => (reached = resolve));
  return { gate, open, paused, reached };
}

describe('cancel', () => {
  it('ends a queued import at once: nothing runs, key and cursor wiped, audit line recorded', async () => {
    const id = await queue('queued-1');
    const by = await admin();
    const answer = await cancelImport(t.db, id, by);
    expect(answer).toMatchObject({ state: 'cancelled', can_cancel: false, can_retry: false });
    const ended = (await getImport(t.db, id))!;
    expect([ended.cancelled_by, ended.finished_at === ended.cancelled_at]).toEqual([by.id, true]);
    expect(row(id)).toMatchObject({ lease_owner: null, work_key: null, cursor: null });
    expect(await getImportLogs(t.db, id)).toEqual([IMPORT_ACTION_MESSAGES.cancelled]);
    expect((await listAudit(t.db, { action: 'import_cancel' }, { offset: 0, limit: 5 }))[0]).toMatchObject({
      actor_id: by.id,
      target: `import ${id} (patreon)`,
    });
    expect(await worker({ run: async () => undefined }).runOnce()).toBe(false);
    await expect(cancelImport(t.db, id, by)).rejects.toThrow(IMPORT_ACTION_MESSAGES.notCancellable);
  });

  it('stops a running import between steps, writing nothing more and no lease-lost line in its log', async () => {
    const id = await queue('running-1');
    const g = gated();
    const ran: number[] = [];
    let signal: AbortSignal | undefined;
    const importer = steppingImporter(3, 1, g.gate, () => undefined, ran);
    const w = worker({
      async run(ctx) {
        signal = ctx.signal;
        const step = ctx.step;
        ctx.step = (fn, commit) =>
          step(fn, commit).then((result) => {
            if (ran.length === 1) g.reached();
            return result;
          });
        await importer.run(ctx);
      },
    });
    const done = w.runOnce();
    await g.paused;
    expect((await getAdminImport(t.db, id))?.state).toBe('running');
    await cancelImport(t.db, id, await admin());
    g.open();
    expect(await done).toBe(true);
    expect(ran).toEqual([1]);
    expect(signal?.aborted).toBe(true);
    expect(await getImportLogs(t.db, id)).toEqual([WORKER_LINES.started, 'Step 1.', IMPORT_ACTION_MESSAGES.cancelled]);
    expect(row(id)).toMatchObject({ lease_owner: null, work_key: null, cursor: null });
    expect((await getImport(t.db, id))!.cancelled_at).not.toBeNull();
    expect(serverLog.join('\n')).toContain(`Import ${id}: cancelled by an administrator; stopped.`);
    expect(serverLog.join('\n')).not.toContain('lease lost');
  });
});

describe('giving up and retry', () => {
  const failing: PaysiteImporter = {
    async run() {
      throw new TransientError('503 Service Unavailable');
    },
  };

  it('keeps the sealed key of an import that gave up, and a retry runs it again with that key to the end', async () => {
    const id = await queue('gave-up-1');
    await worker(failing, { maxRetries: 0 }).runOnce();
    const failed = (await getImport(t.db, id))!;
    expect(failed.gave_up_at).not.toBeNull();
    expect(failed.finished_at).not.toBeNull();
    expect(await getImportWorkKey(t.db, id)).toBeDefined();
    expect(await getAdminImport(t.db, id)).toMatchObject({ state: 'failed', can_retry: true, can_cancel: false });
    expect((await getImportLogs(t.db, id)).at(-1)).toBe(WORKER_LINES.gaveUp(0));

    const by = await admin();
    expect(await retryImport(t.db, id, by)).toMatchObject({ state: 'queued', retry_count: 0, finished_at: null, resuming_at: null });
    expect((await getImport(t.db, id))!.gave_up_at).toBeNull();
    expect((await listAudit(t.db, { action: 'import_retry' }, { offset: 0, limit: 5 }))[0]).toMatchObject({
      target: `import ${id} (patreon)`,
    });

    let seenKey = '';
    await worker({
      async run(ctx) {
        seenKey = ctx.key;
        await ctx.step(() => undefined, { log: ['Imported again.'] });
      },
    }).runOnce();
    expect(seenKey).toBe(KEY);
    expect((await getAdminImport(t.db, id))?.state).toBe('finished');
    expect(await getImportWorkKey(t.db, id)).toBeUndefined();
    expect((await getImportLogs(t.db, id)).slice(-4)).toEqual([
      IMPORT_ACTION_MESSAGES.retried,
      WORKER_LINES.started,
      'Imported again.',
      WORKER_LINES.finished,
    ]);
  });

  it('refuses to retry a rejected key, a finished import and a queued one', async () => {
    const rejected = await queue('rejected-1');
    await worker({
      async run() {
        throw new KeyRejectedError('401');
      },
    }).runOnce();
    const by = await admin();
    expect(await getAdminImport(t.db, rejected)).toMatchObject({ state: 'failed', can_retry: false });
    await expect(retryImport(t.db, rejected, by)).rejects.toThrow(IMPORT_ACTION_MESSAGES.keyGone);
    const queued = await queue('queued-2');
    await expect(retryImport(t.db, queued, by)).rejects.toThrow(IMPORT_ACTION_MESSAGES.notFailed);
    await expect(retryImport(t.db, 'nope', by)).rejects.toThrow(IMPORT_ACTION_MESSAGES.notFound);
    expect(await listAudit(t.db, { action: 'import_retry' }, { offset: 0, limit: 5 })).toEqual([]);
  });

  it('wipes the kept key once the keep window has passed, in a sweep at most once a minute', async () => {
    const old = await queue('gave-up-old');
    const recent = await queue('gave-up-recent');
    const w = worker(failing, { maxRetries: 0 });
    await w.runOnce();
    await w.runOnce();
    t.db.prepare('UPDATE imports SET gave_up_at = ?, finished_at = ? WHERE id = ?').run(hoursAgo(73), hoursAgo(73), old);
    // The first runOnce already swept (nothing was old then); the next sweep is a minute later.
    await w.runOnce();
    expect(await getImportWorkKey(t.db, old)).toBeDefined();

    await worker(failing, { maxRetries: 0 }).runOnce();
    expect(await getImportWorkKey(t.db, old)).toBeUndefined();
    expect(row(old).cursor).toBeNull();
    expect(await getImportWorkKey(t.db, recent)).toBeDefined();
    expect(await getAdminImport(t.db, old)).toMatchObject({ state: 'failed', can_retry: false });
    const by = await admin();
    await expect(retryImport(t.db, old, by)).rejects.toThrow(IMPORT_ACTION_MESSAGES.keyGone);
    expect(serverLog).toContain('Import worker: wiped the kept session keys of 1 import(s) that gave up.');
  });

  it('sweeps during a long import too (from the heartbeat)', async () => {
    const old = await queue('gave-up-during');
    await worker(failing, { maxRetries: 0 }).runOnce();
    const long = await queue('long-running');
    const g = gated();
    const w = worker(
      steppingImporter(2, 1, g.gate, () => g.reached(), []),
      { heartbeatMs: 20, sweepEveryMs: 10 },
    );
    const done = w.runOnce();
    await g.paused;
    t.db.prepare('UPDATE imports SET gave_up_at = ? WHERE id = ?').run(hoursAgo(73), old);
    await expect.poll(() => getImportWorkKey(t.db, old), { timeout: 2000 }).toBeUndefined();
    expect((await getAdminImport(t.db, long))?.state).toBe('running');
    g.open();
    await done;
    expect((await getAdminImport(t.db, long))?.state).toBe('finished');
  });
});

describe('low disk space', () => {
  it('pauses a running import with one log line, claims nothing while low, and resumes from its cursor', async () => {
    const id = await queue('disk-1');
    let free = 10_000 * 1024 * 1024;
    const g = gated();
    const ran: number[] = [];
    const w = worker(
      steppingImporter(3, 1, g.gate, () => g.reached(), ran),
      { freeDiskBytes: () => free },
    );
    const done = w.runOnce();
    await g.paused;
    free = 99 * 1024 * 1024;
    g.open();
    expect(await done).toBe(true);
    expect(ran).toEqual([1]);
    const paused = row(id);
    expect(paused).toMatchObject({ lease_owner: null, retry_count: 0, cursor: JSON.stringify({ n: 1 }) });
    expect(paused.resuming_at! > nowIso()).toBe(true);
    expect((await getAdminImport(t.db, id))?.state).toBe('waiting');
    expect(await getImportWorkKey(t.db, id)).toBeDefined();

    // Due again but still low: nothing is claimed and nothing more is logged.
    await updateImport(t.db, id, { resuming_at: hoursAgo(1) });
    expect(await w.runOnce()).toBe(false);
    expect(await w.runOnce()).toBe(false);
    const pauseLine = WORKER_LINES.diskLow(100);
    expect(pauseLine).toBe('Free disk space is below 100 MB; the import pauses until space returns.');
    expect((await getImportLogs(t.db, id)).filter((line) => line === pauseLine)).toHaveLength(1);

    free = 10_000 * 1024 * 1024;
    expect(await w.runOnce()).toBe(true);
    expect(ran).toEqual([1, 2, 3]);
    expect(await getImportLogs(t.db, id)).toEqual([
      WORKER_LINES.started,
      'Step 1.',
      pauseLine,
      WORKER_LINES.resumed(0),
      'Step 2.',
      'Step 3.',
      WORKER_LINES.finished,
    ]);
    expect(await getImportCursor(t.db, id)).toBeUndefined();
  });
});
