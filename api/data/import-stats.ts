/**
 * Import counts for the metrics endpoint (GET /metrics), read at scrape time, by the dashboard's state
 * rule (stateSql, imports-admin.ts): the queue by state (queued, running, waiting) and the ended imports
 * by service and outcome (finished, failed, cancelled).
 */
import { sql } from 'kysely';
import { stateSql } from './imports-admin.ts';
import type { Store } from './store.ts';
import { nowIso } from './util.ts';

export type ImportQueueState = 'queued' | 'running' | 'waiting';
export type ImportOutcome = 'finished' | 'failed' | 'cancelled';

const QUEUE_STATES: readonly ImportQueueState[] = ['queued', 'running', 'waiting'];

async function countsByState(db: Store, now: string): Promise<Array<{ service: string; state: string; count: number }>> {
  const { rows } = await sql<{ service: string; state: string; count: number }>`SELECT service, state, count(*) AS count
      FROM (SELECT i.service, ${stateSql(now)} AS state FROM imports i) AS states
     GROUP BY service, state ORDER BY service, state`.execute(db.k);
  return rows;
}

function isQueueState(state: string): state is ImportQueueState {
  return (QUEUE_STATES as readonly string[]).includes(state);
}

export async function importQueueCounts(db: Store, now: string = nowIso()): Promise<Record<ImportQueueState, number>> {
  const counts: Record<ImportQueueState, number> = { queued: 0, running: 0, waiting: 0 };
  for (const { state, count } of await countsByState(db, now)) if (isQueueState(state)) counts[state] += count;
  return counts;
}

export async function importOutcomeCounts(
  db: Store,
  now: string = nowIso(),
): Promise<Array<{ service: string; outcome: ImportOutcome; count: number }>> {
  return (await countsByState(db, now))
    .filter(({ state }) => !isQueueState(state))
    .map(({ service, state, count }) => ({ service, outcome: state as ImportOutcome, count }));
}
