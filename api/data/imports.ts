/**
 * The import queue: imports (a submitted session key being processed), the worker's lease on one, its
 * resume cursor and its log lines. The kept keys are in auto-import-keys.ts. Not archive data: no
 * change-log rows (the import's own writes of creators, posts and DMs record theirs).
 */
import { randomBytes } from 'node:crypto';
import { stmt, type Db } from './db.ts';
import { inTransaction, nowIso } from './util.ts';

export interface Import {
  id: string;
  service: string;
  account_id: number | null;
  key_id: number | null;
  priority: number;
  sub_count: number | null;
  save_dms: boolean;
  save_session_key: boolean;
  auto_import: boolean;
  channel_ids: string | null;
  created_at: string;
  first_started_at: string | null;
  retry_count: number;
  current_try_started_at: string | null;
  resuming_at: string | null;
  finished_at: string | null;
  key_failed_at: string | null;
  is_key_invalid: boolean;
  /** The worker gave up after its retries (the sealed key is kept for IMPORT_RETRY_KEEP_HOURS). */
  gave_up_at: string | null;
  cancelled_at: string | null;
  /** The administrator who cancelled it (NULL once that account is gone). */
  cancelled_by: number | null;
}

export interface ImportInput {
  id?: string;
  service: string;
  account_id?: number | null;
  key_id?: number | null;
  priority?: number;
  sub_count?: number | null;
  save_dms?: boolean;
  save_session_key?: boolean;
  auto_import?: boolean;
  channel_ids?: string | null;
  created_at?: string;
  /** HMAC of service and key (migration 006), to find the same key's pending import; never the key. */
  key_fingerprint?: string | null;
  /** The key sealed with the data folder's working key (api/importer/work-key.ts) for the worker. */
  work_key?: Buffer | null;
}

/** Fields the worker updates as an import progresses. */
export type ImportUpdate = Partial<
  Pick<
    Import,
    | 'priority'
    | 'sub_count'
    | 'first_started_at'
    | 'retry_count'
    | 'current_try_started_at'
    | 'resuming_at'
    | 'finished_at'
    | 'key_failed_at'
    | 'is_key_invalid'
    | 'key_id'
    | 'gave_up_at'
  >
>;

const IMPORT_COLUMNS = `id, service, account_id, key_id, priority, sub_count, save_dms, save_session_key, auto_import,
  channel_ids, created_at, first_started_at, retry_count, current_try_started_at, resuming_at, finished_at, key_failed_at,
  is_key_invalid, gave_up_at, cancelled_at, cancelled_by`;

type ImportRow = Omit<Import, 'save_dms' | 'save_session_key' | 'auto_import' | 'is_key_invalid'> & {
  save_dms: number;
  save_session_key: number;
  auto_import: number;
  is_key_invalid: number;
};

function toImport(row: ImportRow): Import {
  return {
    ...row,
    save_dms: row.save_dms === 1,
    save_session_key: row.save_session_key === 1,
    auto_import: row.auto_import === 1,
    is_key_invalid: row.is_key_invalid === 1,
  };
}

/** Queues an import. @returns its id (random 16 hex digits unless given) */
export async function createImport(db: Db, input: ImportInput): Promise<string> {
  const id = input.id ?? randomBytes(8).toString('hex');
  stmt(
    db,
    `INSERT INTO imports (id, service, account_id, key_id, priority, sub_count, save_dms, save_session_key, auto_import,
                          channel_ids, created_at, key_fingerprint, work_key)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    input.service,
    input.account_id ?? null,
    input.key_id ?? null,
    input.priority ?? 0,
    input.sub_count ?? null,
    input.save_dms ? 1 : 0,
    input.save_session_key ? 1 : 0,
    input.auto_import ? 1 : 0,
    input.channel_ids ?? null,
    input.created_at ?? nowIso(),
    input.key_fingerprint ?? null,
    input.work_key ?? null,
  );
  return id;
}

/** The id of the queued or running (not finished, key not refused) import of a key fingerprint, if any. */
export async function findPendingImportByFingerprint(db: Db, fingerprint: string): Promise<string | undefined> {
  return stmt<{ id: string }>(
    db,
    `SELECT id FROM imports
      WHERE key_fingerprint = ? AND finished_at IS NULL AND is_key_invalid = 0
      ORDER BY created_at DESC LIMIT 1`,
  ).get(fingerprint)?.id;
}

/**
 * The fields (docs/product.md#imports-and-kept-keys) that anyone with the import's id may see: never its
 * account, key or channels.
 */
export type PublicImport = Pick<
  Import,
  | 'id'
  | 'service'
  | 'priority'
  | 'sub_count'
  | 'save_dms'
  | 'created_at'
  | 'first_started_at'
  | 'retry_count'
  | 'current_try_started_at'
  | 'resuming_at'
  | 'finished_at'
  | 'key_failed_at'
  | 'is_key_invalid'
  | 'gave_up_at'
  | 'cancelled_at'
>;

export function publicImport(i: Import): PublicImport {
  return {
    id: i.id,
    service: i.service,
    priority: i.priority,
    sub_count: i.sub_count,
    save_dms: i.save_dms,
    created_at: i.created_at,
    first_started_at: i.first_started_at,
    retry_count: i.retry_count,
    current_try_started_at: i.current_try_started_at,
    resuming_at: i.resuming_at,
    finished_at: i.finished_at,
    key_failed_at: i.key_failed_at,
    is_key_invalid: i.is_key_invalid,
    gave_up_at: i.gave_up_at,
    cancelled_at: i.cancelled_at,
  };
}

/** One import, or undefined. */
export async function getImport(db: Db, id: string): Promise<Import | undefined> {
  const row = stmt<ImportRow>(db, `SELECT ${IMPORT_COLUMNS} FROM imports WHERE id = ?`).get(id);
  return row && toImport(row);
}

/** Updates an import's progress fields. */
export async function updateImport(db: Db, id: string, update: ImportUpdate): Promise<boolean> {
  const entries = Object.entries(update).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return false;
  const allowed = new Set([
    'priority',
    'sub_count',
    'first_started_at',
    'retry_count',
    'current_try_started_at',
    'resuming_at',
    'finished_at',
    'key_failed_at',
    'is_key_invalid',
    'key_id',
    'gave_up_at',
  ]);
  for (const [key] of entries) if (!allowed.has(key)) throw new Error(`Unknown import field ${key}`);
  const sets = entries.map(([key]) => `${key} = ?`).join(', ');
  const values = entries.map(([, value]) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));
  return stmt(db, `UPDATE imports SET ${sets} WHERE id = ?`).run(...values, id).changes > 0;
}

/** Appends a log line to an import. */
export async function appendImportLog(db: Db, importId: string, line: string, at: string = nowIso()): Promise<void> {
  stmt(db, 'INSERT INTO import_logs (import_id, line, at) VALUES (?, ?, ?)').run(importId, line, at);
}

/** An import's log lines, oldest first. */
export async function getImportLogs(db: Db, importId: string): Promise<string[]> {
  return stmt<{ line: string }>(db, 'SELECT line FROM import_logs WHERE import_id = ? ORDER BY id')
    .all(importId)
    .map((r) => r.line);
}

// The worker's lease ------------------------------------------------------------------------------
// Every write of a running import is fenced by its lease: a worker whose lease expired and was taken
// over writes nothing more (its UPDATEs match no row, its steps roll back).

/**
 * Claims the next import to work on (highest priority, then oldest) whose lease is free or expired and
 * whose resuming_at has passed, in one statement: of two workers claiming at once, one gets it. Sets the
 * lease, current_try_started_at, and first_started_at on the first try. @returns the claimed import
 */
export async function claimNextImport(db: Db, owner: string, leaseExpiresAt: string, now: string = nowIso()): Promise<Import | undefined> {
  return await inTransaction(db, async (db) => {
    const row = stmt<ImportRow>(
      db,
      `UPDATE imports
          SET lease_owner = ?, lease_expires_at = ?, current_try_started_at = ?, first_started_at = coalesce(first_started_at, ?)
        WHERE id = (SELECT id FROM imports
                     WHERE finished_at IS NULL AND is_key_invalid = 0
                       AND (resuming_at IS NULL OR resuming_at <= ?)
                       AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
                     ORDER BY priority DESC, created_at, id LIMIT 1)
      RETURNING ${IMPORT_COLUMNS}`,
    ).get(owner, leaseExpiresAt, now, now, now, now);
    return row && toImport(row);
  });
}

/** Extends a held lease. @returns false when the lease is no longer this owner's (taken over or ended) */
export async function renewImportLease(db: Db, id: string, owner: string, leaseExpiresAt: string): Promise<boolean> {
  return (
    stmt(db, 'UPDATE imports SET lease_expires_at = ? WHERE id = ? AND lease_owner = ? AND finished_at IS NULL').run(
      leaseExpiresAt,
      id,
      owner,
    ).changes > 0
  );
}

/** Whether the owner still holds the import's lease (checked inside a step's transaction). */
export async function holdsImportLease(db: Db, id: string, owner: string): Promise<boolean> {
  return stmt(db, 'SELECT 1 FROM imports WHERE id = ? AND lease_owner = ? AND finished_at IS NULL').get(id, owner) !== undefined;
}

/** Gives the lease back (graceful stop, or a retry scheduled with resuming_at). */
export async function releaseImportLease(db: Db, id: string, owner: string, update: ImportUpdate = {}): Promise<boolean> {
  return await inTransaction(db, async (db) => {
    if (!(await holdsImportLease(db, id, owner))) return false;
    await updateImport(db, id, update);
    stmt(db, 'UPDATE imports SET lease_owner = NULL, lease_expires_at = NULL WHERE id = ?').run(id);
    return true;
  });
}

/**
 * Ends an import held by owner: sets the given fields (finished_at, key_failed_at...), frees the lease
 * and wipes the sealed key and the cursor, which are only needed while it runs.
 */
export async function endImport(db: Db, id: string, owner: string, update: ImportUpdate): Promise<boolean> {
  return await inTransaction(db, async (db) => {
    if (!(await holdsImportLease(db, id, owner))) return false;
    await updateImport(db, id, update);
    stmt(db, 'UPDATE imports SET lease_owner = NULL, lease_expires_at = NULL, work_key = NULL, cursor = NULL WHERE id = ?').run(id);
    return true;
  });
}

/** The import's resume position (JSON), or undefined before its first committed step. */
export async function getImportCursor(db: Db, id: string): Promise<unknown> {
  const text = stmt<{ cursor: string | null }>(db, 'SELECT cursor FROM imports WHERE id = ?').get(id)?.cursor;
  return text == null ? undefined : JSON.parse(text);
}

/** Saves the resume position; call inside the step's transaction. */
export async function setImportCursor(db: Db, id: string, cursor: unknown): Promise<void> {
  stmt(db, 'UPDATE imports SET cursor = ? WHERE id = ?').run(cursor === undefined ? null : JSON.stringify(cursor), id);
}

/** The import's key sealed with the working key, or undefined once wiped. */
export async function getImportWorkKey(db: Db, id: string): Promise<Buffer | undefined> {
  return stmt<{ work_key: Buffer | null }>(db, 'SELECT work_key FROM imports WHERE id = ?').get(id)?.work_key ?? undefined;
}

/**
 * Replaces the sealed key of an import still running (a paysite renewed the session mid-import and the
 * old tokens no longer work), so a resume uses the new one. Nothing once the import ended and its key was wiped.
 */
export async function replaceImportWorkKey(db: Db, id: string, sealed: Buffer): Promise<boolean> {
  return (
    stmt(db, 'UPDATE imports SET work_key = ? WHERE id = ? AND finished_at IS NULL AND work_key IS NOT NULL').run(sealed, id).changes > 0
  );
}

// Giving up, retrying and cancelling -----------------------------------------------------------------

/**
 * Ends an import held by owner after its last retry: finished and gave_up_at, lease freed, but the sealed
 * key and the cursor are kept so that an administrator can retry it (wipeExpiredRetryKeys ends that).
 */
export async function giveUpImport(db: Db, id: string, owner: string, retryCount: number, now: string = nowIso()): Promise<boolean> {
  return await releaseImportLease(db, id, owner, { finished_at: now, gave_up_at: now, retry_count: retryCount });
}

/** Wipes the sealed key and cursor of imports that gave up before `before`. @returns how many */
export async function wipeExpiredRetryKeys(db: Db, before: string): Promise<number> {
  return stmt(
    db,
    `UPDATE imports SET work_key = NULL, cursor = NULL
      WHERE gave_up_at IS NOT NULL AND gave_up_at <= ? AND (work_key IS NOT NULL OR cursor IS NOT NULL)`,
  ).run(before).changes;
}

/** Whether an import still has its sealed key (not the key itself). */
export async function hasImportWorkKey(db: Db, id: string): Promise<boolean> {
  return stmt(db, 'SELECT 1 FROM imports WHERE id = ? AND work_key IS NOT NULL').get(id) !== undefined;
}

/**
 * Ends an import that has not ended (queued, waiting or running) as cancelled: finished, lease freed
 * (a running worker's next step or heartbeat finds it gone), sealed key and cursor wiped.
 * @returns false when it had already ended
 */
export async function cancelImportRow(db: Db, id: string, by: number | null, now: string = nowIso()): Promise<boolean> {
  return (
    stmt(
      db,
      `UPDATE imports SET finished_at = ?, cancelled_at = ?, cancelled_by = ?, lease_owner = NULL, lease_expires_at = NULL,
              work_key = NULL, cursor = NULL
        WHERE id = ? AND finished_at IS NULL`,
    ).run(now, now, by, id).changes > 0
  );
}

/**
 * Puts an import that gave up (key not refused, sealed key still kept) back in the queue with no
 * retries counted; it resumes from its cursor. @returns false when it is not such an import
 */
export async function requeueGaveUpImport(db: Db, id: string): Promise<boolean> {
  return (
    stmt(
      db,
      `UPDATE imports SET finished_at = NULL, gave_up_at = NULL, resuming_at = NULL, retry_count = 0
        WHERE id = ? AND gave_up_at IS NOT NULL AND is_key_invalid = 0 AND cancelled_at IS NULL AND work_key IS NOT NULL`,
    ).run(id).changes > 0
  );
}
