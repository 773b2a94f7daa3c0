/**
 * The import worker against a real SQLite file: claim order, lease exclusivity, heartbeat, expired
 * leases, transient errors and backoff, rejected keys, the working key's lifetime, the 'not available
 * yet' ending, and a crash test that kill -9s `scripts/worker.ts` mid-import and starts it again.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addAutoImportKey } from '@api/data/auto-import-keys.ts';
import {
  appendImportLog,
  claimNextImport,
  createImport,
  getImport,
  getImportLogs,
  getImportWorkKey,
  updateImport,
} from '@api/data/imports.ts';
import { closeStore, postgresStore, sqliteStore, type Store } from '@api/data/store.ts';
import { nowIso } from '@api/data/util.ts';
import type { PaysiteImporter } from '@api/importer/context.ts';
import { KeyRejectedError, TransientError } from '@api/importer/errors.ts';
import { SLOW_TEST_CREATOR } from '@api/importer/test-slow.ts';
import { openForWorker, sealForWorker } from '@api/importer/work-key.ts';
import { WORKER_LINES, startImportWorker, type ImportWorker, type WorkerOptions } from '@api/importer/worker.ts';
import { readConfig } from '@api/config.ts';
import { databaseEnv, tempDatabaseUrl, tempDb, type TempDb } from '../data/helpers.ts';

const KEY = 'sEcReT-session-key-0123456789abcdefghijklmn';
let t: TempDb;
let config: ReturnType<typeof readConfig>;
const workers: ImportWorker[] = [];
const serverLog: string[] = [];

beforeEach(() => {
  t = tempDb();
  config = readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' });
  serverLog.length = 0;
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  t.cleanup();
});

async function queue(input: { id: string; priority?: number; created_at?: string; service?: string; key_id?: number | null }) {
  await createImport(t.db, {
    service: 'patreon',
    ...input,
    work_key: sealForWorker(config, input.id, KEY),
  });
  return input.id;
}

function worker(importer: PaysiteImporter | undefined, options: WorkerOptions = {}) {
  const w = startImportWorker(
    { db: t.db, config, log: (line) => serverLog.push(line) },
    { autoStart: false, backoffMs: 1000, ...(importer ? { importers: () => importer } : {}), ...options },
  );
  workers.push(w);
  return w;
}

const leaseOf = (id: string) =>
  t.db.prepare('SELECT lease_owner, lease_expires_at, cursor FROM imports WHERE id = ?').get(id) as {
    lease_owner: string | null;
    lease_expires_at: string | null;
    cursor: string | null;
  };
const secondsFromNow = (s: number) => nowIso(new Date(Date.now() + s * 1000));

describe('claiming', () => {
  it('claims by priority, then age, and skips imports waiting to resume or finished', async () => {
    await queue({ id: 'old-low', priority: 0, created_at: '2024-01-01T00:00:00' });
    await queue({ id: 'new-high', priority: 1, created_at: '2024-03-01T00:00:00' });
    await queue({ id: 'old-high', priority: 1, created_at: '2024-02-01T00:00:00' });
    await queue({ id: 'waiting', priority: 5, created_at: '2024-01-01T00:00:00' });
    await updateImport(t.db, 'waiting', { resuming_at: secondsFromNow(3600) });
    await queue({ id: 'done', priority: 9 });
    await updateImport(t.db, 'done', { finished_at: nowIso() });
    const order = [];
    for (let n = 0; n < 4; n++) order.push((await claimNextImport(t.db, 'w', secondsFromNow(60)))?.id);
    expect(order).toEqual(['old-high', 'new-high', 'old-low', undefined]);
    const claimed = (await getImport(t.db, 'old-high'))!;
    expect(claimed.first_started_at).not.toBeNull();
    expect(claimed.current_try_started_at).not.toBeNull();
  });

  it('gives one import to one of two workers (separate connections) claiming at once', async () => {
    await queue({ id: 'only' });
    const other = tempDbHandle();
    try {
      const a = await claimNextImport(t.db, 'a', secondsFromNow(60));
      const b = await claimNextImport(other.store, 'b', secondsFromNow(60));
      expect([a?.id, b?.id].filter(Boolean)).toEqual(['only']);
      expect(leaseOf('only').lease_owner).toBe('a');
    } finally {
      await other.close();
    }
  });

  it('reclaims an import whose lease expired (a crashed worker), and not before', async () => {
    await queue({ id: 'crashed' });
    expect((await claimNextImport(t.db, 'dead', secondsFromNow(60)))?.id).toBe('crashed');
    expect(await claimNextImport(t.db, 'alive', secondsFromNow(60))).toBeUndefined();
    t.db.prepare('UPDATE imports SET lease_expires_at = ? WHERE id = ?').run(secondsFromNow(-1), 'crashed');
    expect((await claimNextImport(t.db, 'alive', secondsFromNow(60)))?.id).toBe('crashed');
    expect(leaseOf('crashed').lease_owner).toBe('alive');
  });
});

function tempDbHandle(): { store: Store; close(): Promise<void> } {
  // A second connection to the same database, as a second worker process would have.
  if (t.engine === 'postgres') {
    const store = postgresStore(tempDatabaseUrl(t.dir)!, { max: 1 });
    return { store, close: () => closeStore(store) };
  }
  const store = sqliteStore(new Database(t.file));
  return { store, close: async () => void store.close() };
}

describe('running imports', () => {
  it('ends an import whose importer found nothing as Finished, and wipes the sealed key', async () => {
    const id = await queue({ id: 'gumroad-1', service: 'gumroad' });
    expect(openForWorker(config, id, (await getImportWorkKey(t.db, id))!)).toBe(KEY);
    const findsNothing: PaysiteImporter = {
      async run(ctx) {
        await ctx.step(() => undefined, { log: ['Nothing to import.'] });
      },
    };
    expect(await worker(findsNothing).runOnce()).toBe(true);
    const done = (await getImport(t.db, id))!;
    expect(done.finished_at).not.toBeNull();
    expect(done.is_key_invalid).toBe(false);
    expect(await getImportLogs(t.db, id)).toEqual([WORKER_LINES.started, 'Nothing to import.', WORKER_LINES.finished]);
    expect(await getImportWorkKey(t.db, id)).toBeUndefined();
    expect(leaseOf(id)).toEqual({ lease_owner: null, lease_expires_at: null, cursor: null });
    expect(await workers[0].runOnce()).toBe(false);
  });

  it('hands the importer the opened key and renews the lease with a heartbeat while it runs', async () => {
    const id = await queue({ id: 'beat' });
    const seen: { key?: string; expiries: string[] } = { expiries: [] };
    const w = worker(
      {
        async run(ctx) {
          seen.key = ctx.key;
          for (let i = 0; i < 4; i++) {
            await sleep(700);
            seen.expiries.push(leaseOf(id).lease_expires_at!);
          }
        },
      },
      { leaseMs: 2000, heartbeatMs: 200 },
    );
    await w.runOnce();
    expect(seen.key).toBe(KEY);
    // Without the heartbeat the expiry would stay at claim time + 2 s; it moved forward as time passed.
    expect(new Set(seen.expiries).size).toBeGreaterThan(1);
    expect(seen.expiries.at(-1)! > seen.expiries[0]).toBe(true);
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
  });

  it('stops writing when its lease was taken over, leaving the import to the new owner', async () => {
    const id = await queue({ id: 'taken' });
    const w = worker({
      async run(ctx) {
        await ctx.step(() => undefined, { cursor: { page: 1 }, log: ['Saved page 1.'] });
        t.db.prepare("UPDATE imports SET lease_owner = 'thief' WHERE id = ?").run(id);
        await ctx.step(() => undefined, { cursor: { page: 2 }, log: ['Saved page 2.'] });
      },
    });
    await w.runOnce();
    expect(await getImportLogs(t.db, id)).toEqual([WORKER_LINES.started, 'Saved page 1.']);
    expect(JSON.parse(leaseOf(id).cursor!)).toEqual({ page: 1 });
    expect((await getImport(t.db, id))!.finished_at).toBeNull();
  });

  it('backs off after a transient error (resuming_at, retry_count) and resumes from the cursor', async () => {
    const id = await queue({ id: 'flaky' });
    let calls = 0;
    const cursors: unknown[] = [];
    const w = worker(
      {
        async run(ctx) {
          calls++;
          cursors.push(await ctx.cursor());
          if (calls === 1) {
            await ctx.step(() => undefined, { cursor: { page: 2 }, log: ['Saved page 1.'] });
            throw new TransientError(`HTTP 503 for ${ctx.key}`);
          }
          await ctx.step(() => undefined, { cursor: { page: 3 }, log: ['Saved page 2.'] });
        },
      },
      // A minute: with a second, a slow machine reached the retry time before the "not due yet" check.
      { backoffMs: 60_000 },
    );
    const before = Date.now();
    await w.runOnce();
    const waiting = (await getImport(t.db, id))!;
    expect(waiting.retry_count).toBe(1);
    expect(waiting.finished_at).toBeNull();
    expect(Date.parse(`${waiting.resuming_at}Z`)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(leaseOf(id).lease_owner).toBeNull();
    expect(await w.runOnce()).toBe(false); // not due yet
    const logs = await getImportLogs(t.db, id);
    expect(logs.at(-1)).toMatch(/^Patreon error: HTTP 503 for \[key\]; retrying at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.$/);
    expect(logs.join('\n')).not.toContain(KEY);

    await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    await w.runOnce();
    expect(cursors).toEqual([undefined, { page: 2 }]);
    const done = (await getImport(t.db, id))!;
    expect(done.finished_at).not.toBeNull();
    expect(done.retry_count).toBe(1);
    expect((await getImportLogs(t.db, id)).slice(-3)).toEqual([WORKER_LINES.resumed(1), 'Saved page 2.', WORKER_LINES.finished]);
  });

  it('doubles the backoff with each retry', async () => {
    const id = await queue({ id: 'backoff' });
    const w = worker({ run: async () => Promise.reject(new TransientError('timeout')) }, { backoffMs: 60_000 });
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = Date.now();
      await w.runOnce();
      waits.push(Date.parse(`${(await getImport(t.db, id))!.resuming_at}Z`) - start);
      await updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });
    }
    expect((await getImport(t.db, id))!.retry_count).toBe(3);
    // 1, 2 and 4 minutes, give or take the second-resolution timestamps.
    expect(waits.map((ms) => Math.round(ms / 60_000))).toEqual([1, 2, 4]);
  });

  it('ends a rejected key as Failed and marks the kept key dead', async () => {
    const keyId = await addAutoImportKey(t.db, { service: 'patreon', encrypted_key: Buffer.from('sealed elsewhere') });
    const id = await queue({ id: 'rejected', key_id: keyId });
    await worker({ run: async () => Promise.reject(new KeyRejectedError('401')) }).runOnce();
    const failed = (await getImport(t.db, id))!;
    expect(failed.is_key_invalid).toBe(true);
    expect(failed.key_failed_at).not.toBeNull();
    expect(failed.finished_at).not.toBeNull();
    expect((await getImportLogs(t.db, id)).at(-1)).toBe('Patreon rejected the session key; the import failed.');
    expect((t.db.prepare('SELECT dead FROM auto_import_keys WHERE id = ?').get(keyId) as { dead: number }).dead).toBe(1);
    expect(await getImportWorkKey(t.db, id)).toBeUndefined();
  });

  it('stops an import whose sealed key is gone or was sealed for another import', async () => {
    await createImport(t.db, { id: 'nokey', service: 'patreon' });
    await createImport(t.db, {
      id: 'swapped',
      service: 'patreon',
      created_at: '2999-01-01T00:00:00',
      work_key: sealForWorker(config, 'other', KEY),
    });
    const w = worker({ run: async () => Promise.reject(new Error('must not run')) });
    await w.runOnce();
    await w.runOnce();
    for (const id of ['nokey', 'swapped']) {
      expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
      expect((await getImportLogs(t.db, id)).at(-1)).toBe(WORKER_LINES.keyMissing);
    }
  });

  it('gives the lease back on stop, between steps, so another worker resumes at once', async () => {
    const id = await queue({ id: 'stopped' });
    let step = 0;
    const importer: PaysiteImporter = {
      async run(ctx) {
        for (step = (await ctx.cursor<number>()) ?? 0; step < 5; step++) {
          if (ctx.signal.aborted) return;
          await ctx.step(() => undefined, { cursor: step + 1, log: [`Step ${step + 1}.`] });
          await sleep(50);
        }
      },
    };
    const first = worker(importer);
    const running = first.runOnce();
    // Stop after two steps, however fast the machine (a fixed wait let a slow one finish all five first).
    while (step < 2) await sleep(5);
    await first.stop();
    await running;
    expect(leaseOf(id).lease_owner).toBeNull();
    expect((await getImport(t.db, id))!.finished_at).toBeNull();
    await worker(importer).runOnce();
    const logs = (await getImportLogs(t.db, id)).filter((l) => l.startsWith('Step'));
    expect(logs).toEqual(['Step 1.', 'Step 2.', 'Step 3.', 'Step 4.', 'Step 5.']);
    expect(await getImportLogs(t.db, id)).toContain(WORKER_LINES.stopped);
  });

  it('counts no retry when the stop cuts a paysite request short', async () => {
    const id = await queue({ id: 'cut-short' });
    const importer: PaysiteImporter = {
      // A request in flight: it fails with the abort, as the paysite client does.
      run: (ctx) => sleep(10_000, undefined, { signal: ctx.signal }),
    };
    const first = worker(importer);
    const running = first.runOnce();
    await sleep(100);
    await first.stop();
    await running;
    const row = (await getImport(t.db, id))!;
    expect(row.retry_count).toBe(0);
    expect(row.resuming_at).toBeNull();
    expect(leaseOf(id).lease_owner).toBeNull();
    expect(await getImportLogs(t.db, id)).toContain(WORKER_LINES.stopped);
    expect(await getImportLogs(t.db, id)).not.toContain(WORKER_LINES.unexpected);
  });

  it('never writes the key to the server log, import logs or the database', async () => {
    const id = await queue({ id: 'leak' });
    await appendImportLog(t.db, id, 'before');
    await worker({ run: async (ctx) => Promise.reject(new Error(`boom with ${ctx.key}`)) }).runOnce();
    expect(serverLog.join('\n')).toContain('boom with [key]');
    expect(serverLog.join('\n')).not.toContain(KEY);
    const rows = JSON.stringify([t.db.prepare('SELECT * FROM imports').all(), t.db.prepare('SELECT * FROM import_logs').all()]);
    expect(rows).not.toContain(KEY);
    if (t.engine === 'sqlite') t.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(t.databaseFiles().filter((file) => fs.readFileSync(file).includes(Buffer.from(KEY)))).toEqual([]);
  });
});

describe('crash test: kill -9 scripts/worker.ts mid-import, then start it again', () => {
  const children: ChildProcess[] = [];
  afterEach(() => children.splice(0).forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

  const startWorker = () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('scripts/worker.ts')], {
      env: {
        ...process.env,
        DATA_DIR: t.dir,
        ...databaseEnv(t.dir),
        TROVE_ENV: 'test',
        TROVE_TEST_IMPORTER: 'slow',
        TROVE_TEST_IMPORTER_POSTS: '12',
        TROVE_TEST_IMPORTER_DELAY_MS: '120',
        IMPORT_LEASE_SECONDS: '2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    return child;
  };
  const postsSaved = () => (t.db.prepare('SELECT count(*) AS n FROM posts WHERE "user" = ?').get(SLOW_TEST_CREATOR) as { n: number }).n;

  it('finishes once with every post exactly once and no committed step logged twice', async () => {
    const id = await queue({ id: 'crash' });
    const first = startWorker();
    for (let waited = 0; postsSaved() < 4; waited += 50) {
      if (waited > 30_000) throw new Error('the worker did not start saving posts');
      await sleep(50);
    }
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const atCrash = postsSaved();
    expect(atCrash).toBeLessThan(12);
    expect((await getImport(t.db, id))!.finished_at).toBeNull();
    expect(leaseOf(id).lease_owner).not.toBeNull(); // the dead worker's lease, left to expire

    const second = startWorker();
    for (let waited = 0; !(await getImport(t.db, id))!.finished_at; waited += 100) {
      if (waited > 40_000) throw new Error('the import did not finish after the restart');
      await sleep(100);
    }
    second.kill('SIGTERM');
    await new Promise((resolve) => second.once('exit', resolve));

    const ids = (t.db.prepare('SELECT id FROM posts WHERE "user" = ? ORDER BY id').all(SLOW_TEST_CREATOR) as { id: string }[]).map(
      (r) => r.id,
    );
    expect(ids).toEqual(Array.from({ length: 12 }, (_, i) => `slow-${i}`).sort());
    const logs = await getImportLogs(t.db, id);
    const saved = logs.filter((l) => l.startsWith('Saved post'));
    expect(saved).toEqual(Array.from({ length: 12 }, (_, i) => `Saved post ${i + 1} of 12.`));
    expect(logs.filter((l) => l === 'Saved the creator.')).toHaveLength(1);
    expect(logs.filter((l) => l === WORKER_LINES.finished)).toHaveLength(1);
    expect(logs).toContain('Resumed after an interruption.');
    expect((await getImport(t.db, id))!.sub_count).toBe(1);
    expect(await getImportWorkKey(t.db, id)).toBeUndefined();
  }, 90_000);
});
