/**
 * The administrators' view of the import queue (docs/product.md#imports-dashboard): every import with
 * its state, submitter, last log line and lease, newest first, filtered by state and service. Never the
 * key, its fingerprint, the sealed work key, the cursor or the channel ids: only whether a sealed key is
 * still kept (for can_retry).
 */
import { sql, type RawBuilder } from 'kysely';
import type { Store } from './store.ts';
import { nowIso } from './util.ts';
import { importState, type ImportState } from '@shared/import-state.ts';

export interface AdminImport {
  id: string;
  service: string;
  state: ImportState;
  submitter: { id: number; username: string } | null;
  created_at: string;
  first_started_at: string | null;
  finished_at: string | null;
  retry_count: number;
  resuming_at: string | null;
  last_log_line: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  can_retry: boolean;
  can_cancel: boolean;
}

export interface AdminImportsFilter {
  state?: ImportState;
  service?: string;
}

/**
 * The state rule of shared/import-state.ts (importState) in SQL over `imports i`, at `now`, for filtering
 * and the metrics' counts (import-stats.ts). tests/shared/import-state.test.ts checks that both name every
 * kind of row the same.
 */
export function stateSql(now: string): RawBuilder<ImportState> {
  return sql<ImportState>`CASE
  WHEN i.cancelled_at IS NOT NULL THEN 'cancelled'
  WHEN i.is_key_invalid = 1 OR i.gave_up_at IS NOT NULL THEN 'failed'
  WHEN i.finished_at IS NOT NULL THEN 'finished'
  WHEN i.lease_owner IS NOT NULL AND i.lease_expires_at > ${now} THEN 'running'
  WHEN i.resuming_at > ${now} THEN 'waiting'
  ELSE 'queued' END`;
}

interface Row {
  id: string;
  service: string;
  account_id: number | null;
  username: string | null;
  created_at: string;
  first_started_at: string | null;
  finished_at: string | null;
  retry_count: number;
  resuming_at: string | null;
  is_key_invalid: number;
  gave_up_at: string | null;
  cancelled_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  has_work_key: number;
  last_log_line: string | null;
  sql_state: ImportState;
}

/** The filter's WHERE clause (its text depends only on which filters are set). */
function where(filter: AdminImportsFilter, now: string): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  if (filter.state) parts.push(sql`(${stateSql(now)}) = ${filter.state}`);
  if (filter.service) parts.push(sql`i.service = ${filter.service}`);
  return parts.length ? sql`WHERE ${sql.join(parts, sql` AND `)}` : sql``;
}

function toAdminImport(row: Row, now: string): AdminImport {
  const state = importState({ ...row, is_key_invalid: row.is_key_invalid === 1 }, now);
  return {
    id: row.id,
    service: row.service,
    state,
    submitter: row.account_id != null && row.username != null ? { id: row.account_id, username: row.username } : null,
    created_at: row.created_at,
    first_started_at: row.first_started_at,
    finished_at: row.finished_at,
    retry_count: row.retry_count,
    resuming_at: row.resuming_at,
    last_log_line: row.last_log_line,
    lease_owner: state === 'running' ? row.lease_owner : null,
    lease_expires_at: state === 'running' ? row.lease_expires_at : null,
    can_retry: state === 'failed' && row.gave_up_at !== null && row.is_key_invalid === 0 && row.has_work_key === 1,
    can_cancel: state === 'queued' || state === 'running' || state === 'waiting',
  };
}

// has_work_key: a comparison is a boolean on PostgreSQL, 0/1 on SQLite; the CASE is 0/1 on both.
const select = (now: string) => sql`SELECT i.id, i.service, i.account_id, a.username, i.created_at, i.first_started_at, i.finished_at,
       i.retry_count, i.resuming_at, i.is_key_invalid, i.gave_up_at, i.cancelled_at, i.lease_owner, i.lease_expires_at,
       CASE WHEN i.work_key IS NOT NULL THEN 1 ELSE 0 END AS has_work_key,
       (SELECT line FROM import_logs l WHERE l.import_id = i.id ORDER BY l.id DESC LIMIT 1) AS last_log_line,
       ${stateSql(now)} AS sql_state
  FROM imports i LEFT JOIN accounts a ON a.id = i.account_id`;

/** Newest first (imports_created). */
export async function listAdminImports(
  db: Store,
  filter: AdminImportsFilter,
  page: { offset: number; limit: number },
  now: string = nowIso(),
): Promise<AdminImport[]> {
  const { rows } = await sql<Row>`${select(now)} ${where(filter, now)} ORDER BY i.created_at DESC, i.id DESC
    LIMIT ${page.limit} OFFSET ${page.offset}`.execute(db.k);
  return rows.map((row) => toAdminImport(row, now));
}

export async function countAdminImports(db: Store, filter: AdminImportsFilter, now: string = nowIso()): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM imports i ${where(filter, now)}`.execute(db.k);
  return rows[0]?.n ?? 0;
}

export async function getAdminImport(db: Store, id: string, now: string = nowIso()): Promise<AdminImport | undefined> {
  const { rows } = await sql<Row>`${select(now)} WHERE i.id = ${id}`.execute(db.k);
  return rows[0] && toAdminImport(rows[0], now);
}

/** Both state rules for every import (tests: the SQL filter and importState must agree). */
export async function importStatesBothWays(
  db: Store,
  now: string = nowIso(),
): Promise<Array<{ id: string; sql: ImportState; ts: ImportState }>> {
  const { rows } = await sql<Row>`${select(now)} ORDER BY i.id`.execute(db.k);
  return rows.map((row) => ({ id: row.id, sql: row.sql_state, ts: toAdminImport(row, now).state }));
}
