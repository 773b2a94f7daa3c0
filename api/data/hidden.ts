/**
 * Hidden creators and tags per account (migration 012, docs/product.md#hiding-creators-and-tags).
 * Adding is idempotent (INSERT OR IGNORE keeps the first date); removing what is not there is a no-op.
 * No change-log rows: nothing stored depends on these lists (pages hide them in the browser).
 */
import { stmt, type Db } from './db.ts';
import { nowIso } from './util.ts';
import { creatorKey, type HiddenList } from '@shared/hiding.ts';

export interface HiddenCreatorRow {
  service: string;
  id: string;
  name: string | null;
  added: string;
}

export interface HiddenTagRow {
  tag: string;
  added: string;
}

export async function hideCreator(db: Db, accountId: number, service: string, creatorId: string, at: string = nowIso()): Promise<void> {
  stmt(db, 'INSERT OR IGNORE INTO hidden_creators (account_id, service, creator_id, added_at) VALUES (?, ?, ?, ?)').run(
    accountId,
    service,
    creatorId,
    at,
  );
}

export async function unhideCreator(db: Db, accountId: number, service: string, creatorId: string): Promise<void> {
  stmt(db, 'DELETE FROM hidden_creators WHERE account_id = ? AND service = ? AND creator_id = ?').run(accountId, service, creatorId);
}

export async function hideTag(db: Db, accountId: number, tag: string, at: string = nowIso()): Promise<void> {
  stmt(db, 'INSERT OR IGNORE INTO hidden_tags (account_id, tag, added_at) VALUES (?, ?, ?)').run(accountId, tag, at);
}

export async function unhideTag(db: Db, accountId: number, tag: string): Promise<void> {
  stmt(db, 'DELETE FROM hidden_tags WHERE account_id = ? AND tag = ?').run(accountId, tag);
}

/** The count of an account's hidden entries of each kind (the list limit). */
export async function countHidden(db: Db, accountId: number): Promise<{ creators: number; tags: number }> {
  return stmt<{ creators: number; tags: number }>(
    db,
    `SELECT (SELECT count(*) FROM hidden_creators WHERE account_id = @account) AS creators,
            (SELECT count(*) FROM hidden_tags WHERE account_id = @account) AS tags`,
  ).get({ account: accountId })!;
}

/** An account's hidden creators (with their names when still in the archive), newest first. */
export async function listHiddenCreators(db: Db, accountId: number): Promise<HiddenCreatorRow[]> {
  return stmt<HiddenCreatorRow>(
    db,
    `SELECT h.service, h.creator_id AS id, c.name, h.added_at AS added
       FROM hidden_creators h LEFT JOIN creators c ON c.service = h.service AND c.id = h.creator_id
      WHERE h.account_id = ? ORDER BY h.added_at DESC, h.service, h.creator_id`,
  ).all(accountId);
}

/** An account's hidden tags, newest first. */
export async function listHiddenTags(db: Db, accountId: number): Promise<HiddenTagRow[]> {
  return stmt<HiddenTagRow>(db, 'SELECT tag, added_at AS added FROM hidden_tags WHERE account_id = ? ORDER BY added_at DESC, tag').all(
    accountId,
  );
}

/** The keys of an account's list ("service:id" creators, tags), for filtering answers. */
export async function hiddenList(db: Db, accountId: number): Promise<HiddenList> {
  return {
    creators: stmt<{ service: string; creator_id: string }>(db, 'SELECT service, creator_id FROM hidden_creators WHERE account_id = ?')
      .all(accountId)
      .map((row) => creatorKey(row.service, row.creator_id)),
    tags: stmt<{ tag: string }>(db, 'SELECT tag FROM hidden_tags WHERE account_id = ?')
      .all(accountId)
      .map((row) => row.tag),
  };
}

const VISIBLE_POST = `NOT EXISTS (SELECT 1 FROM hidden_creators h WHERE h.account_id = @account AND h.service = p.service AND h.creator_id = p."user")
  AND NOT EXISTS (SELECT 1 FROM post_tags t JOIN hidden_tags ht ON ht.account_id = @account AND ht.tag = t.tag
                   WHERE t.service = p.service AND t."user" = p."user" AND t.post_id = p.id)`;

/** A random post the account has not hidden (by creator or tag): the first visible one from a random seq on, wrapping round. */
export async function randomVisiblePost(
  db: Db,
  accountId: number,
  random: () => number = Math.random,
): Promise<{ service: string; user: string; id: string } | undefined> {
  const lo = stmt<{ v: number | null }>(db, 'SELECT min(seq) AS v FROM posts').get()!.v;
  const hi = stmt<{ v: number | null }>(db, 'SELECT max(seq) AS v FROM posts').get()!.v;
  if (lo === null || hi === null) return undefined;
  const pick = lo + Math.floor(random() * (hi - lo + 1));
  const from = (op: string) =>
    stmt<{ service: string; user: string; id: string }>(
      db,
      `SELECT p.service, p."user", p.id FROM posts p WHERE p.seq ${op} @pick AND ${VISIBLE_POST} ORDER BY p.seq ${op === '>=' ? 'ASC' : 'DESC'} LIMIT 1`,
    ).get({ account: accountId, pick });
  return from('>=') ?? from('<');
}

/** A random creator the account has not hidden. */
export async function randomVisibleCreator(
  db: Db,
  accountId: number,
  random: () => number = Math.random,
): Promise<{ service: string; id: string } | undefined> {
  const visible = `FROM creators c WHERE NOT EXISTS
    (SELECT 1 FROM hidden_creators h WHERE h.account_id = @account AND h.service = c.service AND h.creator_id = c.id)`;
  const count = stmt<{ n: number }>(db, `SELECT count(*) AS n ${visible}`).get({ account: accountId })!.n;
  if (count === 0) return undefined;
  return stmt<{ service: string; id: string }>(db, `SELECT c.service, c.id ${visible} ORDER BY c.service, c.id LIMIT 1 OFFSET @skip`).get({
    account: accountId,
    skip: Math.floor(random() * count),
  });
}
