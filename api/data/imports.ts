/**
 * The import queue: imports (a submitted session key being processed), the worker's lease on one, its
 * resume cursor and its log lines. The kept keys are in auto-import-keys.ts. Not archive data: no
 * change-log rows (the import's own writes of creators, posts and DMs record theirs).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Store } from './store.ts';
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

const IMPORT_COLUMNS = sql.raw(`id, service, account_id, key_id, priority, sub_count, save_dms, save_session_key, auto_import,
  channel_ids, created_at, first_started_at, retry_count, current_try_started_at, resuming_at, finished_at, key_failed_at,
  is_key_invalid, gave_up_at, cancelled_at, cancelled_by`);

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
export async function createImport(db: Store, input: ImportInput): Promise<string> {
  const id = input.id ?? randomBytes(8).toString('hex');
  await db.k
    .insertInto('imports')
    .values({
      id,
      service: input.service,
      account_id: input.account_id ?? null,
      key_id: input.key_id ?? null,
      priority: input.priority ?? 0,
      sub_count: input.sub_count ?? null,
      save_dms: input.save_dms ? 1 : 0,
      save_session_key: input.save_session_key ? 1 : 0,
      auto_import: input.auto_import ? 1 : 0,
      channel_ids: input.channel_ids ?? null,
      created_at: input.created_at ?? nowIso(),
      key_fingerprint: input.key_fingerprint ?? null,
      work_key: input.work_key ?? null,
    })
    .execute();
  return id;
}

/** The id of the queued or running (not finished, key not refused) import of a key fingerprint, if any. */
export async function findPendingImportByFingerprint(db: Store, fingerprint: string): Promise<string | undefined> {
  const { rows } = await sql<{ id: string }>`SELECT id FROM imports
      WHERE key_fingerprint = ${fingerprint} AND finished_at IS NULL AND is_key_invalid = 0
      ORDER BY created_at DESC LIMIT 1`.execute(db.k);
  return rows[0]?.id;
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
export async function getImport(db: Store, id: string): Promise<Import | undefined> {
  const { rows } = await sql<ImportRow>`SELECT ${IMPORT_COLUMNS} FROM imports WHERE id = ${id}`.execute(db.k);
  return rows[0] && toImport(rows[0]);
}

const UPDATABLE = new Set([
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

/** Updates an import's progress fields. */
export async function updateImport(db: Store, id: string, update: ImportUpdate): Promise<boolean> {
  const entries = Object.entries(update).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return false;
  for (const [key] of entries) if (!UPDATABLE.has(key)) throw new Error(`Unknown import field ${key}`);
  const values = Object.fromEntries(entries.map(([key, value]) => [key, typeof value === 'boolean' ? (value ? 1 : 0) : value]));
  const result = await db.k.updateTable('imports').set(values).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Appends a log line to an import. */
export async function appendImportLog(db: Store, importId: string, line: string, at: string = nowIso()): Promise<void> {
  await sql`INSERT INTO import_logs (import_id, line, at) VALUES (${importId}, ${line}, ${at})`.execute(db.k);
}

/** An import's log lines, oldest first. */
export async function getImportLogs(db: Store, importId: string): Promise<string[]> {
  const { rows } = await sql<{ line: string }>`SELECT line FROM import_logs WHERE import_id = ${importId} ORDER BY id`.execute(db.k);
  return rows.map((r) => r.line);
}

// The worker's lease ------------------------------------------------------------------------------
// Every write of a running import is fenced by its lease: a worker whose lease expired and was taken
// over writes nothing more (its UPDATEs match no row, its steps roll back).
//
// Several workers, on several machines when they share one PostgreSQL database, claim from one queue.
// SQLite serialises them (BEGIN IMMEDIATE: one writer at a time). PostgreSQL runs them at once: the claim
// locks the import it picks FOR UPDATE SKIP LOCKED, so two claimers never pick the same one and neither
// waits for the other (a row another claimer is taking is skipped; a row whose lease a claimer has just
// taken is re-checked against its committed lease and skipped too); and a step holding the lease locks
// its row (holdsImportLease) until it commits, so that no claimer takes an expired lease over halfway.

/** The claim's choice: the next claimable import, highest priority then oldest; `now` twice. */
const CLAIMABLE = (now: string) => sql`SELECT id FROM imports
   WHERE finished_at IS NULL AND is_key_invalid = 0
     AND (resuming_at IS NULL OR resuming_at <= ${now})
     AND (lease_expires_at IS NULL OR lease_expires_at <= ${now})
   ORDER BY priority DESC, created_at, id LIMIT 1`;

/**
 * Claims the next import to work on (highest priority, then oldest) whose lease is free or expired and
 * whose resuming_at has passed, in one statement: of two workers claiming at once, one gets it. Sets the
 * lease, current_try_started_at, and first_started_at on the first try. @returns the claimed import
 */
export async function claimNextImport(
  db: Store,
  owner: string,
  leaseExpiresAt: string,
  now: string = nowIso(),
): Promise<Import | undefined> {
  return await inTransaction(db, async (db) => {
    const pick = db.engine === 'postgres' ? sql`${CLAIMABLE(now)} FOR UPDATE SKIP LOCKED` : CLAIMABLE(now);
    const { rows } = await sql<ImportRow>`UPDATE imports
          SET lease_owner = ${owner}, lease_expires_at = ${leaseExpiresAt}, current_try_started_at = ${now},
              first_started_at = coalesce(first_started_at, ${now})
        WHERE id = (${pick})
      RETURNING ${IMPORT_COLUMNS}`.execute(db.k);
    return rows[0] && toImport(rows[0]);
  });
}

/** Extends a held lease. @returns false when the lease is no longer this owner's (taken over or ended) */
export async function renewImportLease(db: Store, id: string, owner: string, leaseExpiresAt: string): Promise<boolean> {
  const result = await sql`UPDATE imports SET lease_expires_at = ${leaseExpiresAt}
    WHERE id = ${id} AND lease_owner = ${owner} AND finished_at IS NULL`.execute(db.k);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/**
 * Whether the owner still holds the import's lease (checked inside a step's transaction). Inside a
 * PostgreSQL transaction the row stays locked until it ends (FOR NO KEY UPDATE: claimers skip it; the
 * heartbeat's renewal and a cancel wait for the commit, as SQLite's single writer makes them; a log line's
 * foreign key check does not wait).
 */
export async function holdsImportLease(db: Store, id: string, owner: string): Promise<boolean> {
  const lock = db.engine === 'postgres' && db.k.isTransaction ? sql` FOR NO KEY UPDATE` : sql``;
  const { rows } =
    await sql`SELECT 1 AS held FROM imports WHERE id = ${id} AND lease_owner = ${owner} AND finished_at IS NULL${lock}`.execute(db.k);
  return rows.length > 0;
}

/** Gives the lease back (graceful stop, or a retry scheduled with resuming_at). */
export async function releaseImportLease(db: Store, id: string, owner: string, update: ImportUpdate = {}): Promise<boolean> {
  return await inTransaction(db, async (db) => {
    if (!(await holdsImportLease(db, id, owner))) return false;
    await updateImport(db, id, update);
    await sql`UPDATE imports SET lease_owner = NULL, lease_expires_at = NULL WHERE id = ${id}`.execute(db.k);
    return true;
  });
}

/**
 * Ends an import held by owner: sets the given fields (finished_at, key_failed_at...), frees the lease
 * and wipes the sealed key and the cursor, which are only needed while it runs.
 */
export async function endImport(db: Store, id: string, owner: string, update: ImportUpdate): Promise<boolean> {
  return await inTransaction(db, async (db) => {
    if (!(await holdsImportLease(db, id, owner))) return false;
    await updateImport(db, id, update);
    await sql`UPDATE imports SET lease_owner = NULL, lease_expires_at = NULL, work_key = NULL, cursor = NULL WHERE id = ${id}`.execute(
      db.k,
    );
    return true;
  });
}

/** The import's resume position (JSON), or undefined before its first committed step. */
export async function getImportCursor(db: Store, id: string): Promise<unknown> {
  const { rows } = await sql<{ cursor: string | null }>`SELECT cursor FROM imports WHERE id = ${id}`.execute(db.k);
  const text = rows[0]?.cursor;
  return text == null ? undefined : JSON.parse(text);
}

/** Saves the resume position; call inside the step's transaction. */
export async function setImportCursor(db: Store, id: string, cursor: unknown): Promise<void> {
  const text = cursor === undefined ? null : JSON.stringify(cursor);
  await sql`UPDATE imports SET cursor = ${text} WHERE id = ${id}`.execute(db.k);
}

/** The import's key sealed with the working key, or undefined once wiped. */
export async function getImportWorkKey(db: Store, id: string): Promise<Buffer | undefined> {
  const { rows } = await sql<{ work_key: Buffer | null }>`SELECT work_key FROM imports WHERE id = ${id}`.execute(db.k);
  return rows[0]?.work_key ?? undefined;
}

/**
 * Replaces the sealed key of an import still running (a paysite renewed the session mid-import and the
 * old tokens no longer work), so a resume uses the new one. Nothing once the import ended and its key was wiped.
 */
export async function replaceImportWorkKey(db: Store, id: string, sealed: Buffer): Promise<boolean> {
  const result = await sql`UPDATE imports SET work_key = ${sealed}
    WHERE id = ${id} AND finished_at IS NULL AND work_key IS NOT NULL`.execute(db.k);
  return Number(result.numAffectedRows ?? 0) > 0;
}

// Giving up, retrying and cancelling -----------------------------------------------------------------

/**
 * Ends an import held by owner after its last retry: finished and gave_up_at, lease freed, but the sealed
 * key and the cursor are kept so that an administrator can retry it (wipeExpiredRetryKeys ends that).
 */
export async function giveUpImport(db: Store, id: string, owner: string, retryCount: number, now: string = nowIso()): Promise<boolean> {
  return await releaseImportLease(db, id, owner, { finished_at: now, gave_up_at: now, retry_count: retryCount });
}

/** Wipes the sealed key and cursor of imports that gave up before `before`. @returns how many */
export async function wipeExpiredRetryKeys(db: Store, before: string): Promise<number> {
  const result = await sql`UPDATE imports SET work_key = NULL, cursor = NULL
      WHERE gave_up_at IS NOT NULL AND gave_up_at <= ${before} AND (work_key IS NOT NULL OR cursor IS NOT NULL)`.execute(db.k);
  return Number(result.numAffectedRows ?? 0);
}

/** Whether an import still has its sealed key (not the key itself). */
export async function hasImportWorkKey(db: Store, id: string): Promise<boolean> {
  const { rows } = await sql`SELECT 1 AS kept FROM imports WHERE id = ${id} AND work_key IS NOT NULL`.execute(db.k);
  return rows.length > 0;
}

/**
 * Ends an import that has not ended (queued, waiting or running) as cancelled: finished, lease freed
 * (a running worker's next step or heartbeat finds it gone), sealed key and cursor wiped.
 * @returns false when it had already ended
 */
export async function cancelImportRow(db: Store, id: string, by: number | null, now: string = nowIso()): Promise<boolean> {
  const result = await sql`UPDATE imports SET finished_at = ${now}, cancelled_at = ${now}, cancelled_by = ${by},
          lease_owner = NULL, lease_expires_at = NULL, work_key = NULL, cursor = NULL
    WHERE id = ${id} AND finished_at IS NULL`.execute(db.k);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/**
 * Puts an import that gave up (key not refused, sealed key still kept) back in the queue with no
 * retries counted; it resumes from its cursor. @returns false when it is not such an import
 */
export async function requeueGaveUpImport(db: Store, id: string): Promise<boolean> {
  const result = await sql`UPDATE imports SET finished_at = NULL, gave_up_at = NULL, resuming_at = NULL, retry_count = 0
    WHERE id = ${id} AND gave_up_at IS NOT NULL AND is_key_invalid = 0 AND cancelled_at IS NULL AND work_key IS NOT NULL`.execute(db.k);
  return Number(result.numAffectedRows ?? 0) > 0;
}
