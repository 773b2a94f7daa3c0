/**
 * Auto-import rounds and the kept keys a round may queue (api/importer/auto-import.ts). Rounds are
 * requested by an administrator or fall due every AUTO_IMPORT_INTERVAL_HOURS; whichever process holds
 * the operator's private key claims them. Never returns a key in clear: the server cannot open them.
 * Each round leaves audit lines (action 'auto_import_round', target 'round N'), written in the
 * transaction that changes it: the administrator's request (details {requested: true}), then, by the
 * system (no actor), its start (details {started: true, scheduled}) and its end (details {finished:
 * true, queued, skipped, failed}).
 */
import { recordAudit } from './audit-log.ts';
import { stmt, type Db } from './db.ts';
import { inTransaction } from './util.ts';

export interface AutoImportRound {
  id: number;
  requested_at: string;
  /** The administrator who asked for it; null for a round that fell due by itself. */
  requested_by: number | null;
  started_at: string | null;
  finished_at: string | null;
  queued: number | null;
  skipped: number | null;
  failed: number | null;
}

export interface RoundCounts {
  queued: number;
  skipped: number;
  failed: number;
}

const ROUND_COLUMNS = 'id, requested_at, requested_by, started_at, finished_at, queued, skipped, failed';

const roundTarget = (id: number) => `round ${id}`;

/**
 * Records an administrator's request for a round (`by` null: the operator's script). A request already
 * waiting to start is answered instead of queueing a second one (both would do the same work), and
 * leaves no second audit line.
 */
export async function requestAutoImportRound(db: Db, by: { id: number; username: string } | null, now: string): Promise<AutoImportRound> {
  return await inTransaction(db, async (db) => {
    const waiting = stmt<AutoImportRound>(
      db,
      `SELECT ${ROUND_COLUMNS} FROM auto_import_rounds WHERE started_at IS NULL ORDER BY id LIMIT 1`,
    ).get();
    if (waiting) return waiting;
    const round = stmt<AutoImportRound>(
      db,
      `INSERT INTO auto_import_rounds (requested_at, requested_by) VALUES (?, ?) RETURNING ${ROUND_COLUMNS}`,
    ).get(now, by?.id ?? null)!;
    if (by)
      await recordAudit(db, {
        actor: by,
        action: 'auto_import_round',
        target: roundTarget(round.id),
        details: { requested: true },
        at: now,
      });
    return round;
  });
}

async function recordRoundStart(db: Db, id: number, scheduled: boolean, now: string): Promise<number> {
  await recordAudit(db, {
    actor: null,
    action: 'auto_import_round',
    target: roundTarget(id),
    details: { started: true, scheduled },
    at: now,
  });
  return id;
}

/**
 * Starts the round to run now, if any: the oldest requested one, else a new scheduled one when no
 * round started after `dueBefore`. One statement per case inside one write transaction, so of two
 * schedulers on one database only one gets it. @returns the round's id
 */
export async function claimAutoImportRound(db: Db, now: string, dueBefore: string): Promise<number | undefined> {
  return await inTransaction(db, async (db) => {
    const requested = stmt<{ id: number }>(
      db,
      `UPDATE auto_import_rounds SET started_at = ?
        WHERE id = (SELECT id FROM auto_import_rounds WHERE started_at IS NULL ORDER BY id LIMIT 1)
      RETURNING id`,
    ).get(now);
    if (requested) return await recordRoundStart(db, requested.id, false, now);
    const last = stmt<{ at: string | null }>(db, 'SELECT max(started_at) AS at FROM auto_import_rounds').get()?.at;
    if (last && last > dueBefore) return undefined;
    const scheduled = stmt<{ id: number }>(db, 'INSERT INTO auto_import_rounds (requested_at, started_at) VALUES (?, ?) RETURNING id').get(
      now,
      now,
    )!.id;
    return await recordRoundStart(db, scheduled, true, now);
  });
}

export async function finishAutoImportRound(db: Db, id: number, counts: RoundCounts, now: string): Promise<void> {
  await inTransaction(db, async (db) => {
    stmt(db, 'UPDATE auto_import_rounds SET finished_at = ?, queued = ?, skipped = ?, failed = ? WHERE id = ?').run(
      now,
      counts.queued,
      counts.skipped,
      counts.failed,
      id,
    );
    await recordAudit(db, {
      actor: null,
      action: 'auto_import_round',
      target: roundTarget(id),
      details: { finished: true, queued: counts.queued, skipped: counts.skipped, failed: counts.failed },
      at: now,
    });
  });
}

/** The most recent rounds, newest first. */
export async function listAutoImportRounds(db: Db, limit = 20): Promise<AutoImportRound[]> {
  return stmt<AutoImportRound>(db, `SELECT ${ROUND_COLUMNS} FROM auto_import_rounds ORDER BY id DESC LIMIT ?`).all(limit);
}

export interface AutoImportCandidate {
  id: number;
  service: string;
  encrypted_key: Buffer;
  account_id: number | null;
  fingerprint: string | null;
  /** When the key's latest import (submitted or auto) was queued; null when it never was. */
  last_import_at: string | null;
  /** Whether an import of this key is queued or running now. */
  pending: boolean;
  /** The channels of the key's latest import (Discord imports need them again). */
  channel_ids: string | null;
}

const CANDIDATE_SQL = `
  SELECT k.id, k.service, k.encrypted_key, k.account_id, k.fingerprint,
         (SELECT max(created_at) FROM imports WHERE key_id = k.id) AS last_import_at,
         (SELECT channel_ids FROM imports WHERE key_id = k.id ORDER BY created_at DESC, rowid DESC LIMIT 1) AS channel_ids,
         EXISTS (SELECT 1 FROM imports i
                  WHERE i.finished_at IS NULL AND i.is_key_invalid = 0
                    AND (i.key_id = k.id OR (k.fingerprint IS NOT NULL AND i.key_fingerprint = k.fingerprint))) AS pending
    FROM auto_import_keys k
   WHERE k.dead = 0 AND k.auto_import = 1`;

type CandidateRow = Omit<AutoImportCandidate, 'pending'> & { pending: number };
const toCandidate = (row: CandidateRow): AutoImportCandidate => ({ ...row, pending: row.pending === 1 });

/** Alive keys kept for auto-import, with what a round needs to decide whether each is due. */
export async function listAutoImportCandidates(db: Db): Promise<AutoImportCandidate[]> {
  return stmt<CandidateRow>(db, `${CANDIDATE_SQL} ORDER BY k.id`).all().map(toCandidate);
}

/** One candidate again (re-checked inside the transaction that queues it), or undefined once revoked, dead or opted out. */
export async function getAutoImportCandidate(db: Db, keyId: number): Promise<AutoImportCandidate | undefined> {
  const row = stmt<CandidateRow>(db, `${CANDIDATE_SQL} AND k.id = ?`).get(keyId);
  return row && toCandidate(row);
}
