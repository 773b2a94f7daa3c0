/**
 * Creator links: link requests, and the link groups (creators.relation_id) that approving one joins.
 * Changing a group records a 'link' change for every member (their Linked Accounts tab changes); the
 * linked profiles themselves are read with the creator (creators.ts).
 */
import { stmt, type Db } from './db.ts';
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
  db: Db,
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
  return Number(
    stmt(
      db,
      `INSERT INTO link_requests (from_service, from_id, to_service, to_id, reason, requester_id, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?)`,
    ).run(
      input.from_service,
      input.from_id,
      input.to_service,
      input.to_id,
      input.reason ?? null,
      input.requester_id,
      input.created_at ?? nowIso(),
    ).lastInsertRowid,
  );
}

const REQUEST_SELECT = `SELECT r.id, r.reason, r.status, r.created_at,
    r.requester_id, a.username AS requester_username, a.role AS requester_role,
    r.from_service, r.from_id, cf.name AS from_name, r.to_service, r.to_id, ct.name AS to_name
  FROM link_requests r
  LEFT JOIN accounts a ON a.id = r.requester_id
  LEFT JOIN creators cf ON cf.service = r.from_service AND cf.id = r.from_id
  LEFT JOIN creators ct ON ct.service = r.to_service AND ct.id = r.to_id`;

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

/** Pending link requests, oldest first. */
export async function listPendingLinkRequests(db: Db): Promise<LinkRequest[]> {
  return stmt<RequestRow>(db, `${REQUEST_SELECT} WHERE r.status = 'pending' ORDER BY r.id`).all().map(toRequest);
}

/** One link request, or undefined. */
export async function getLinkRequest(db: Db, id: number): Promise<LinkRequest | undefined> {
  const row = stmt<RequestRow>(db, `${REQUEST_SELECT} WHERE r.id = ?`).get(id);
  return row && toRequest(row);
}

/**
 * Puts two creators in the same link group (merging their groups when both have one). Records a
 * 'link' change for every member of the resulting group. @returns the group's relation_id
 */
export async function linkCreators(db: Db, a: { service: string; id: string }, b: { service: string; id: string }): Promise<number> {
  return await inTransaction(db, async (db) => {
    const get = stmt<{ relation_id: number | null }>(db, 'SELECT relation_id FROM creators WHERE service = ? AND id = ?');
    const ra = get.get(a.service, a.id);
    const rb = get.get(b.service, b.id);
    if (!ra || !rb) throw new Error('Both creators must exist to be linked.');
    const target = ra.relation_id ?? rb.relation_id ?? (await nextSequence(db, 'relation'));
    const setGroup = stmt(db, 'UPDATE creators SET relation_id = ? WHERE service = ? AND id = ?');
    if (rb.relation_id !== null && rb.relation_id !== target) {
      stmt(db, 'UPDATE creators SET relation_id = ? WHERE relation_id = ?').run(target, rb.relation_id);
    }
    if (ra.relation_id !== null && ra.relation_id !== target) {
      stmt(db, 'UPDATE creators SET relation_id = ? WHERE relation_id = ?').run(target, ra.relation_id);
    }
    setGroup.run(target, a.service, a.id);
    setGroup.run(target, b.service, b.id);
    await recordLinkGroupChanges(db, target);
    return target;
  });
}

/** Removes a creator from its link group. Records 'link' changes for the old group and the creator. */
export async function unlinkCreator(db: Db, service: string, id: string): Promise<boolean> {
  return await inTransaction(db, async (db) => {
    const row = stmt<{ relation_id: number | null }>(db, 'SELECT relation_id FROM creators WHERE service = ? AND id = ?').get(service, id);
    if (!row || row.relation_id === null) return false;
    stmt(db, 'UPDATE creators SET relation_id = NULL WHERE service = ? AND id = ?').run(service, id);
    await recordLinkGroupChanges(db, row.relation_id);
    await recordChange(db, { kind: 'link', action: 'upsert', service, creator_id: id });
    return true;
  });
}

/** Approves a pending link request and links the creators. @returns false when not pending */
export async function approveLinkRequest(db: Db, id: number, reviewerId: number | null): Promise<boolean> {
  return await inTransaction(db, async (db) => {
    const request = stmt<{ from_service: string; from_id: string; to_service: string; to_id: string }>(
      db,
      `SELECT from_service, from_id, to_service, to_id FROM link_requests WHERE id = ? AND status = 'pending'`,
    ).get(id);
    if (!request) return false;
    stmt(db, `UPDATE link_requests SET status = 'approved', reviewed_by = ?, reviewed_at = ? WHERE id = ?`).run(reviewerId, nowIso(), id);
    await linkCreators(db, { service: request.from_service, id: request.from_id }, { service: request.to_service, id: request.to_id });
    return true;
  });
}

/** Rejects a pending link request. @returns false when not pending */
export async function rejectLinkRequest(db: Db, id: number, reviewerId: number | null): Promise<boolean> {
  return (
    stmt(db, `UPDATE link_requests SET status = 'rejected', reviewed_by = ?, reviewed_at = ? WHERE id = ? AND status = 'pending'`).run(
      reviewerId,
      nowIso(),
      id,
    ).changes > 0
  );
}

/** Whether two creators already belong to the same link group. */
export async function inSameLinkGroup(db: Db, a: { service: string; id: string }, b: { service: string; id: string }): Promise<boolean> {
  return !!stmt(
    db,
    `SELECT 1 FROM creators x JOIN creators y ON y.relation_id = x.relation_id
      WHERE x.service = ? AND x.id = ? AND y.service = ? AND y.id = ? AND x.relation_id IS NOT NULL`,
  ).get(a.service, a.id, b.service, b.id);
}

/** Whether a pending request already asks to link these two creators (in either direction). */
export async function hasPendingLinkRequest(
  db: Db,
  a: { service: string; id: string },
  b: { service: string; id: string },
): Promise<boolean> {
  return !!stmt(
    db,
    `SELECT 1 FROM link_requests WHERE status = 'pending' AND (
       (from_service = ? AND from_id = ? AND to_service = ? AND to_id = ?) OR
       (from_service = ? AND from_id = ? AND to_service = ? AND to_id = ?)) LIMIT 1`,
  ).get(a.service, a.id, b.service, b.id, b.service, b.id, a.service, a.id);
}
