/**
 * An import's state (docs/product.md#import-states), one rule for the API, the administrators' imports
 * page and the import status page. Browser-safe: plain fields in, a name out. The administrators' list
 * filters by the same rule in SQL (api/data/imports-admin.ts); tests/shared/import-state.test.ts keeps
 * the two in step.
 */

import { nowIso } from './format.ts';

export const IMPORT_STATES = ['queued', 'running', 'waiting', 'finished', 'failed', 'cancelled'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

/** How the administrators' page names each state. */
export const IMPORT_STATE_LABELS: Record<ImportState, string> = {
  queued: 'Queued',
  running: 'Running',
  waiting: 'Waiting to retry',
  finished: 'Finished',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export interface ImportStateFields {
  finished_at: string | null;
  is_key_invalid: boolean;
  gave_up_at: string | null;
  cancelled_at: string | null;
  resuming_at: string | null;
  /** Unknown to the public status page, which then cannot tell queued from running. */
  lease_owner?: string | null;
  lease_expires_at?: string | null;
}

/**
 * cancelled (an administrator cancelled it), failed (key rejected, or gave up after its retries),
 * finished, running (a worker's lease is held and not expired), waiting (to retry or resume: resuming_at
 * in the future), otherwise queued (including an import whose worker crashed: it is claimed again).
 */
export function importState(i: ImportStateFields, now: string = nowIso()): ImportState {
  if (i.cancelled_at) return 'cancelled';
  if (i.is_key_invalid || i.gave_up_at) return 'failed';
  if (i.finished_at) return 'finished';
  if (i.lease_owner && i.lease_expires_at && i.lease_expires_at > now) return 'running';
  if (i.resuming_at && i.resuming_at > now) return 'waiting';
  return 'queued';
}

/** What the import status page says: queued, running and waiting are all 'In Progress' there. */
export function importStatusLabel(i: ImportStateFields): 'Finished' | 'Failed' | 'Cancelled' | 'In Progress' {
  const state = importState(i);
  if (state === 'cancelled') return 'Cancelled';
  if (state === 'failed') return 'Failed';
  return state === 'finished' ? 'Finished' : 'In Progress';
}
