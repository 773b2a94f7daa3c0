/**
 * The audit log: who (a moderator or administrator) did what, to what, when and why. Append-only: the
 * table's triggers refuse UPDATE and DELETE (migration 010), and this module offers no way to change a
 * line. Callers record inside the transaction of the action itself, so an action and its line land
 * together or not at all.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
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

/** Appends a line. @returns its id */
export async function recordAudit(db: Store, input: AuditInput): Promise<number> {
  const row = await db.k
    .insertInto('audit_log')
    .values({
      at: input.at ?? nowIso(),
      actor_id: input.actor?.id ?? null,
      actor_name: input.actor?.username ?? null,
      action: input.action,
      target: input.target,
      reason: input.reason ?? null,
      details: input.details ? JSON.stringify(input.details) : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export interface AuditFilter {
  actorId?: number | null;
  action?: AuditAction | null;
}

/** The query of the lines a filter keeps (the where clause varies: one statement text per combination). */
function filtered(db: Store, filter: AuditFilter) {
  let query = db.k.selectFrom('audit_log');
  if (filter.actorId != null) query = query.where('actor_id', '=', filter.actorId);
  if (filter.action) query = query.where('action', '=', filter.action);
  return query;
}

/** Newest first. */
export async function listAudit(db: Store, filter: AuditFilter, page: { offset: number; limit: number }): Promise<AuditEntry[]> {
  const rows = await filtered(db, filter)
    .select(['id', 'at', 'actor_id', 'actor_name', 'action', 'target', 'reason', 'details'])
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((row) => ({
    ...row,
    action: row.action as AuditAction,
    details: parseJson<Record<string, unknown> | null>(row.details, null),
  }));
}

export async function countAudit(db: Store, filter: AuditFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The accounts that appear as actors, for the page's filter, by name (an actor with no name first, as
 * SQLite orders NULLs; equal names by id).
 */
export async function listAuditActors(db: Store): Promise<Array<{ id: number; username: string }>> {
  const { rows } = await sql<{ id: number; username: string }>`SELECT actor_id AS id, max(actor_name) AS username FROM audit_log
      WHERE actor_id IS NOT NULL GROUP BY actor_id ORDER BY username NULLS FIRST, actor_id`.execute(db.k);
  return rows;
}
