/**
 * The audit log: who (a moderator or administrator) did what, to what, when and why. Append-only: the
 * table's triggers refuse UPDATE and DELETE (migration 010), and this module offers no way to change a
 * line. Callers record inside the transaction of the action itself, so an action and its line land
 * together or not at all.
 */
import { stmt, type Db } from './db.ts';
import { nowIso, parseJson } from './util.ts';

/** Every action the log records; the administrator's page filters by these. */
export const AUDIT_ACTIONS = [
  'role_change',
  'link_approve',
  'link_reject',
  'link_remove',
  'takedown_creator',
  'takedown_post',
  'do_not_post_lift',
  'auto_import_round',
  'import_retry',
  'import_cancel',
  'flag_dismiss',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  id: number;
  at: string;
  actor_id: number | null;
  /** The actor's username when the action was taken. */
  actor_name: string | null;
  action: AuditAction;
  /** What was acted on, readable: 'patreon/12345', 'patreon/12345/post/678', 'account 7', 'import 0a1b…'. */
  target: string;
  reason: string | null;
  /** Anything else worth keeping (old and new role, counts removed), as an object. */
  details: Record<string, unknown> | null;
}

export interface AuditInput {
  actor: { id: number; username: string } | null;
  action: AuditAction;
  target: string;
  reason?: string | null;
  details?: Record<string, unknown> | null;
  at?: string;
}

export async function recordAudit(db: Db, input: AuditInput): Promise<number> {
  const result = stmt(
    db,
    'INSERT INTO audit_log (at, actor_id, actor_name, action, target, reason, details) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(
    input.at ?? nowIso(),
    input.actor?.id ?? null,
    input.actor?.username ?? null,
    input.action,
    input.target,
    input.reason ?? null,
    input.details ? JSON.stringify(input.details) : null,
  );
  return Number(result.lastInsertRowid);
}

export interface AuditFilter {
  actorId?: number | null;
  action?: AuditAction | null;
}

function where(filter: AuditFilter): { sql: string; args: unknown[] } {
  const parts: string[] = [];
  const args: unknown[] = [];
  if (filter.actorId != null) {
    parts.push('actor_id = ?');
    args.push(filter.actorId);
  }
  if (filter.action) {
    parts.push('action = ?');
    args.push(filter.action);
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', args };
}

type AuditRow = Omit<AuditEntry, 'details'> & { details: string | null };

/** Newest first. */
export async function listAudit(db: Db, filter: AuditFilter, page: { offset: number; limit: number }): Promise<AuditEntry[]> {
  const w = where(filter);
  return stmt<AuditRow>(
    db,
    `SELECT id, at, actor_id, actor_name, action, target, reason, details FROM audit_log ${w.sql} ORDER BY id DESC LIMIT ? OFFSET ?`,
  )
    .all(...w.args, page.limit, page.offset)
    .map((row) => ({ ...row, details: parseJson<Record<string, unknown> | null>(row.details, null) }));
}

export async function countAudit(db: Db, filter: AuditFilter): Promise<number> {
  const w = where(filter);
  return stmt<{ n: number }>(db, `SELECT count(*) AS n FROM audit_log ${w.sql}`).get(...w.args)?.n ?? 0;
}

/** The accounts that appear as actors, for the page's filter. */
export async function listAuditActors(db: Db): Promise<Array<{ id: number; username: string }>> {
  return stmt<{ id: number; username: string }>(
    db,
    `SELECT actor_id AS id, max(actor_name) AS username FROM audit_log WHERE actor_id IS NOT NULL GROUP BY actor_id ORDER BY username`,
  ).all();
}
