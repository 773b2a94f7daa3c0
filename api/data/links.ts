/**
 * Creator links: link requests, and the link groups (creators.relation_id) that approving one joins.
 * Changing a group records a 'link' change for every member (their Linked Accounts tab changes); the
 * linked profiles themselves are read with the creator (creators.ts).
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { recordChange } from './changes.ts';
import { nextSequence } from './kv.ts';
import { recordLinkGroupChanges } from './creators.ts';
import { inTransaction, nowIso } from './util.ts';

export type LinkRequestStatus = 'pending' | 'approved' | 'rejected';

export interface LinkRequest {
  id: number;
  requester: { id: number | null; username: string | null; role: string | null };
  from_creator: { service: string; id: string; name: string };
  to_creator: { service: string; id: string; name: string };
  reason: string | null;
  status: LinkRequestStatus;
  created_at: string;
}

/**
 * Creates a pending link request between two creators (both must exist).
 * @returns the request id
 */
export async function createLinkRequest(
  db: Store,
  input: {
    from_service: string;
    from_id: string;
    to_service: string;
    to_id: string;
    reason?: string | null;
    requester_id: number | null;
    created_at?: string;
  },
): Promise<number> {
  const row = await db.k
    .insertInto('link_requests')
    .values({
      from_service: input.from_service,
      from_id: input.from_id,
      to_service: input.to_service,
      to_id: input.to_id,
      reason: input.reason ?? null,
      requester_id: input.requester_id,
      status: 'pending',
      created_at: input.created_at ?? nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

const REQUEST_SELECT = sql.raw(`SELECT r.id, r.reason, r.status, r.created_at,
    r.requester_id, a.username AS requester_username, a.role AS requester_role,
    r.from_service, r.from_id, cf.name AS from_name, r.to_service, r.to_id, ct.name AS to_name
  FROM link_requests r
  LEFT JOIN accounts a ON a.id = r.requester_id
  LEFT JOIN creators cf ON cf.service = r.from_service AND cf.id = r.from_id
  LEFT JOIN creators ct ON ct.service = r.to_service AND ct.id = r.to_id`);

interface RequestRow {
  id: number;
  reason: string | null;
  status: LinkRequestStatus;
  created_at: string;
  requester_id: number | null;
  requester_username: string | null;
  requester_role: string | null;
  from_service: string;
  from_id: string;
  from_name: string | null;
  to_service: string;
  to_id: string;
  to_name: string | null;
}

function toRequest(row: RequestRow): LinkRequest {
  return {
    id: row.id,
    requester: { id: row.requester_id, username: row.requester_username, role: row.requester_role },
    from_creator: { service: row.from_service, id: row.from_id, name: row.from_name ?? row.from_id },
    to_creator: { service: row.to_service, id: row.to_id, name: row.to_name ?? row.to_id },
    reason: row.reason,
    status: row.status,
    created_at: row.created_at,
  };
}

/** A creator's link group (null when in none), or undefined when the creator is unknown. */
async function relationOf(db: Store, service: string, id: string): Promise<{ relation_id: number | null } | undefined> {
  const { rows } = await sql<{
    relation_id: number | null;
  }>`SELECT relation_id FROM creators WHERE service = ${service} AND id = ${id}`.execute(db.k);
  return rows[0];
}

/** Pending link requests, oldest first. */
export async function listPendingLinkRequests(db: Store): Promise<LinkRequest[]> {
  const { rows } = await sql<RequestRow>`${REQUEST_SELECT} WHERE r.status = 'pending' ORDER BY r.id`.execute(db.k);
  return rows.map(toRequest);
}

/** One link request, or undefined. */
export async function getLinkRequest(db: Store, id: number): Promise<LinkRequest | undefined> {
  const { rows } = await sql<RequestRow>`${REQUEST_SELECT} WHERE r.id = ${id}`.execute(db.k);
  return rows[0] && toRequest(rows[0]);
}

/**
 * Puts two creators in the same link group (merging their groups when both have one). Records a
 * 'link' change for every member of the resulting group. @returns the group's relation_id
 */
export async function linkCreators(db: Store, a: { service: string; id: string }, b: { service: string; id: string }): Promise<number> {
  return await inTransaction(db, async (db) => {
    const ra = await relationOf(db, a.service, a.id);
    const rb = await relationOf(db, b.service, b.id);
    if (!ra || !rb) throw new Error('Both creators must exist to be linked.');
    const target = ra.relation_id ?? rb.relation_id ?? (await nextSequence(db, 'relation'));
    for (const group of [rb.relation_id, ra.relation_id]) {
      if (group !== null && group !== target) {
        await sql`UPDATE creators SET relation_id = ${target} WHERE relation_id = ${group}`.execute(db.k);
      }
    }
    for (const creator of [a, b]) {
      await sql`UPDATE creators SET relation_id = ${target} WHERE service = ${creator.service} AND id = ${creator.id}`.execute(db.k);
    }
    await recordLinkGroupChanges(db, target);
    return target;
  });
}

/** Removes a creator from its link group. Records 'link' changes for the old group and the creator. */
export async function unlinkCreator(db: Store, service: string, id: string): Promise<boolean> {
  return await inTransaction(db, async (db) => {
    const row = await relationOf(db, service, id);
    if (!row || row.relation_id === null) return false;
    await sql`UPDATE creators SET relation_id = NULL WHERE service = ${service} AND id = ${id}`.execute(db.k);
    await recordLinkGroupChanges(db, row.relation_id);
    await recordChange(db, { kind: 'link', action: 'upsert', service, creator_id: id });
    return true;
  });
}

/** Approves a pending link request and links the creators. @returns false when not pending */
export async function approveLinkRequest(db: Store, id: number, reviewerId: number | null): Promise<boolean> {
  return await inTransaction(db, async (db) => {
    const { rows } = await sql<{
      from_service: string;
      from_id: string;
      to_service: string;
      to_id: string;
    }>`SELECT from_service, from_id, to_service, to_id FROM link_requests WHERE id = ${id} AND status = 'pending'`.execute(db.k);
    const request = rows[0];
    if (!request) return false;
    await sql`UPDATE link_requests SET status = 'approved', reviewed_by = ${reviewerId}, reviewed_at = ${nowIso()} WHERE id = ${id}`.execute(
      db.k,
    );
    await linkCreators(db, { service: request.from_service, id: request.from_id }, { service: request.to_service, id: request.to_id });
    return true;
  });
}

/** Rejects a pending link request. @returns false when not pending */
export async function rejectLinkRequest(db: Store, id: number, reviewerId: number | null): Promise<boolean> {
  const result = await sql`UPDATE link_requests SET status = 'rejected', reviewed_by = ${reviewerId}, reviewed_at = ${nowIso()}
      WHERE id = ${id} AND status = 'pending'`.execute(db.k);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** Whether two creators already belong to the same link group. */
export async function inSameLinkGroup(db: Store, a: { service: string; id: string }, b: { service: string; id: string }): Promise<boolean> {
  const { rows } = await sql`SELECT 1 AS one FROM creators x JOIN creators y ON y.relation_id = x.relation_id
      WHERE x.service = ${a.service} AND x.id = ${a.id} AND y.service = ${b.service} AND y.id = ${b.id} AND x.relation_id IS NOT NULL`.execute(
    db.k,
  );
  return rows.length > 0;
}

/** Whether a pending request already asks to link these two creators (in either direction). */
export async function hasPendingLinkRequest(
  db: Store,
  a: { service: string; id: string },
  b: { service: string; id: string },
): Promise<boolean> {
  const { rows } = await sql`SELECT 1 AS one FROM link_requests WHERE status = 'pending' AND (
       (from_service = ${a.service} AND from_id = ${a.id} AND to_service = ${b.service} AND to_id = ${b.id}) OR
       (from_service = ${b.service} AND from_id = ${b.id} AND to_service = ${a.service} AND to_id = ${a.id})) LIMIT 1`.execute(db.k);
  return rows.length > 0;
}
