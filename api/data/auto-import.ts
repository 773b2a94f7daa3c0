/**
 * Auto-import rounds and the kept keys a round may queue (api/importer/auto-import.ts). Rounds are
 * requested by an administrator or fall due every AUTO_IMPORT_INTERVAL_HOURS; whichever process holds
 * the operator's private key claims them. Never returns a key in clear: the server cannot open them.
 * Each round leaves audit lines (action 'auto_import_round', target 'round N'), written in the
 * transaction that changes it: the administrator's request (details {requested: true}), then, by the
 * system (no actor), its start (details {started: true, scheduled}) and its end (details {finished:
 * true, queued, skipped, failed}).
 */
import { sql } from 'kysely';
import { recordAudit } from './audit-log.ts';
import type { Store } from './store.ts';
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

const ROUND_COLUMNS = sql.raw('id, requested_at, requested_by, started_at, finished_at, queued, skipped, failed');

const roundTarget = (id: number) => `round ${id}`;

/**
 * Makes the rounds' writers take turns, as SQLite's BEGIN IMMEDIATE already does: on PostgreSQL two
 * transactions could otherwise both find no waiting round and both add one. Plain reads are not blocked.
 */
async function lockRounds(db: Store): Promise<void> {
  if (db.engine === 'postgres') await sql`LOCK TABLE auto_import_rounds IN SHARE ROW EXCLUSIVE MODE`.execute(db.k);
}

/**
 * Records an administrator's request for a round (`by` null: the operator's script). A request already
 * waiting to start is answered instead of queueing a second one (both would do the same work), and
 * leaves no second audit line.
 */
export async function requestAutoImportRound(
  db: Store,
  by: { id: number; username: string } | null,
  now: string,
): Promise<AutoImportRound> {
  return await inTransaction(db, async (db) => {
    await lockRounds(db);
    const { rows: waiting } =
      await sql<AutoImportRound>`SELECT ${ROUND_COLUMNS} FROM auto_import_rounds WHERE started_at IS NULL ORDER BY id LIMIT 1`.execute(
        db.k,
      );
    if (waiting[0]) return waiting[0];
    const { rows } =
      await sql<AutoImportRound>`INSERT INTO auto_import_rounds (requested_at, requested_by) VALUES (${now}, ${by?.id ?? null}) RETURNING ${ROUND_COLUMNS}`.execute(
        db.k,
      );
    const round = rows[0];
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

async function recordRoundStart(db: Store, id: number, scheduled: boolean, now: string): Promise<number> {
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
 * round started after `dueBefore`. One statement per case inside one write transaction (on PostgreSQL
 * holding the rounds' lock), so of two schedulers on one database only one gets it. @returns the round's id
 */
export async function claimAutoImportRound(db: Store, now: string, dueBefore: string): Promise<number | undefined> {
  return await inTransaction(db, async (db) => {
    await lockRounds(db);
    const { rows: requested } = await sql<{ id: number }>`UPDATE auto_import_rounds SET started_at = ${now}
        WHERE id = (SELECT id FROM auto_import_rounds WHERE started_at IS NULL ORDER BY id LIMIT 1)
      RETURNING id`.execute(db.k);
    if (requested[0]) return await recordRoundStart(db, requested[0].id, false, now);
    const { rows: last } = await sql<{ at: string | null }>`SELECT max(started_at) AS at FROM auto_import_rounds`.execute(db.k);
    if (last[0]?.at && last[0].at > dueBefore) return undefined;
    const { rows: scheduled } = await sql<{
      id: number;
    }>`INSERT INTO auto_import_rounds (requested_at, started_at) VALUES (${now}, ${now}) RETURNING id`.execute(db.k);
    return await recordRoundStart(db, scheduled[0].id, true, now);
  });
}

export async function finishAutoImportRound(db: Store, id: number, counts: RoundCounts, now: string): Promise<void> {
  await inTransaction(db, async (db) => {
    await db.k
      .updateTable('auto_import_rounds')
      .set({ finished_at: now, queued: counts.queued, skipped: counts.skipped, failed: counts.failed })
      .where('id', '=', id)
      .execute();
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
export async function listAutoImportRounds(db: Store, limit = 20): Promise<AutoImportRound[]> {
  const { rows } = await sql<AutoImportRound>`SELECT ${ROUND_COLUMNS} FROM auto_import_rounds ORDER BY id DESC LIMIT ${limit}`.execute(
    db.k,
  );
  return rows;
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

/**
 * The latest import of a key is the newest by created_at, equal times by id (the same on both engines:
 * PostgreSQL has no insertion order to fall back on). pending is 0/1 on both (EXISTS is a boolean on
 * PostgreSQL).
 */
const CANDIDATE_SQL = sql.raw(`
  SELECT k.id, k.service, k.encrypted_key, k.account_id, k.fingerprint,
         (SELECT max(created_at) FROM imports WHERE key_id = k.id) AS last_import_at,
         (SELECT channel_ids FROM imports WHERE key_id = k.id ORDER BY created_at DESC, id DESC LIMIT 1) AS channel_ids,
         CASE WHEN EXISTS (SELECT 1 FROM imports i
                  WHERE i.finished_at IS NULL AND i.is_key_invalid = 0
                    AND (i.key_id = k.id OR (k.fingerprint IS NOT NULL AND i.key_fingerprint = k.fingerprint))) THEN 1 ELSE 0 END AS pending
    FROM auto_import_keys k
   WHERE k.dead = 0 AND k.auto_import = 1`);

type CandidateRow = Omit<AutoImportCandidate, 'pending'> & { pending: number };
const toCandidate = (row: CandidateRow): AutoImportCandidate => ({ ...row, pending: row.pending === 1 });

/** Alive keys kept for auto-import, with what a round needs to decide whether each is due. */
export async function listAutoImportCandidates(db: Store): Promise<AutoImportCandidate[]> {
  const { rows } = await sql<CandidateRow>`${CANDIDATE_SQL} ORDER BY k.id`.execute(db.k);
  return rows.map(toCandidate);
}

/** One candidate again (re-checked inside the transaction that queues it), or undefined once revoked, dead or opted out. */
export async function getAutoImportCandidate(db: Store, keyId: number): Promise<AutoImportCandidate | undefined> {
  const { rows } = await sql<CandidateRow>`${CANDIDATE_SQL} AND k.id = ${keyId}`.execute(db.k);
  return rows[0] && toCandidate(rows[0]);
}
