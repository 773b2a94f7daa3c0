/**
 * Import counts for the metrics endpoint (GET /metrics), read at scrape time:
 * - the queue by state: `running` (a worker holds an unexpired lease), `waiting` (a retry scheduled for
 *   later: resuming_at in the future), `queued` (everything else not yet ended);
 * - ended imports by service and outcome: `cancelled` (cancelled_at), `failed` (the key was refused or
 *   the worker gave up after its retries), `finished` (the rest that finished).
 */
import { stmt, type Db } from './db.ts';
import { nowIso } from './util.ts';

export type ImportQueueState = 'queued' | 'running' | 'waiting';
export type ImportOutcome = 'finished' | 'failed' | 'cancelled';

/** Still to do: not finished, not refused, not given up, not cancelled. */
const ACTIVE = 'finished_at IS NULL AND is_key_invalid = 0 AND gave_up_at IS NULL AND cancelled_at IS NULL';

export function importQueueCounts(db: Db, now: string = nowIso()): Record<ImportQueueState, number> {
  const row = stmt<{ running: number | null; waiting: number | null; queued: number | null }>(
    db,
    `SELECT sum(running) AS running, sum(waiting) AS waiting, sum(1 - running - waiting) AS queued
       FROM (SELECT (lease_expires_at IS NOT NULL AND lease_expires_at > @now) AS running,
                    (NOT (lease_expires_at IS NOT NULL AND lease_expires_at > @now) AND resuming_at IS NOT NULL AND resuming_at > @now) AS waiting
               FROM imports WHERE ${ACTIVE})`,
  ).get({ now });
  return { queued: row?.queued ?? 0, running: row?.running ?? 0, waiting: row?.waiting ?? 0 };
}

export function importOutcomeCounts(db: Db): Array<{ service: string; outcome: ImportOutcome; count: number }> {
  return stmt<{ service: string; outcome: ImportOutcome; count: number }>(
    db,
    `SELECT service, outcome, count(*) AS count
       FROM (SELECT service,
                    CASE WHEN cancelled_at IS NOT NULL THEN 'cancelled'
                         WHEN is_key_invalid = 1 OR gave_up_at IS NOT NULL THEN 'failed'
                         ELSE 'finished' END AS outcome
               FROM imports
              WHERE cancelled_at IS NOT NULL OR is_key_invalid = 1 OR gave_up_at IS NOT NULL OR finished_at IS NOT NULL)
      GROUP BY service, outcome ORDER BY service, outcome`,
  ).all();
}
