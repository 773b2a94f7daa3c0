/**
 * Hidden creators and tags per account (migration 012, docs/product.md#hiding-creators-and-tags).
 * Adding is idempotent (ON CONFLICT DO NOTHING keeps the first date); removing what is not there is a no-op.
 * No change-log rows: nothing stored depends on these lists (pages hide them in the browser).
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
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

export async function hideCreator(db: Store, accountId: number, service: string, creatorId: string, at: string = nowIso()): Promise<void> {
  await db.k
    .insertInto('hidden_creators')
    .values({ account_id: accountId, service, creator_id: creatorId, added_at: at })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function unhideCreator(db: Store, accountId: number, service: string, creatorId: string): Promise<void> {
  await sql`DELETE FROM hidden_creators WHERE account_id = ${accountId} AND service = ${service} AND creator_id = ${creatorId}`.execute(
    db.k,
  );
}

export async function hideTag(db: Store, accountId: number, tag: string, at: string = nowIso()): Promise<void> {
  await db.k
    .insertInto('hidden_tags')
    .values({ account_id: accountId, tag, added_at: at })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function unhideTag(db: Store, accountId: number, tag: string): Promise<void> {
  await sql`DELETE FROM hidden_tags WHERE account_id = ${accountId} AND tag = ${tag}`.execute(db.k);
}

/** The count of an account's hidden entries of each kind (the list limit). */
export async function countHidden(db: Store, accountId: number): Promise<{ creators: number; tags: number }> {
  const { rows } = await sql<{ creators: number; tags: number }>`
    SELECT (SELECT count(*) FROM hidden_creators WHERE account_id = ${accountId}) AS creators,
           (SELECT count(*) FROM hidden_tags WHERE account_id = ${accountId}) AS tags`.execute(db.k);
  return { creators: Number(rows[0].creators), tags: Number(rows[0].tags) };
}

/** An account's hidden creators (with their names when still in the archive), newest first. */
export async function listHiddenCreators(db: Store, accountId: number): Promise<HiddenCreatorRow[]> {
  const { rows } = await sql<HiddenCreatorRow>`
    SELECT h.service, h.creator_id AS id, c.name, h.added_at AS added
      FROM hidden_creators h LEFT JOIN creators c ON c.service = h.service AND c.id = h.creator_id
     WHERE h.account_id = ${accountId} ORDER BY h.added_at DESC, h.service, h.creator_id`.execute(db.k);
  return rows;
}

/** An account's hidden tags, newest first. */
export async function listHiddenTags(db: Store, accountId: number): Promise<HiddenTagRow[]> {
  const { rows } =
    await sql<HiddenTagRow>`SELECT tag, added_at AS added FROM hidden_tags WHERE account_id = ${accountId} ORDER BY added_at DESC, tag`.execute(
      db.k,
    );
  return rows;
}

/** The keys of an account's list ("service:id" creators, tags), for filtering answers. */
export async function hiddenList(db: Store, accountId: number): Promise<HiddenList> {
  const creators = await sql<{
    service: string;
    creator_id: string;
  }>`SELECT service, creator_id FROM hidden_creators WHERE account_id = ${accountId}`.execute(db.k);
  const tags = await sql<{ tag: string }>`SELECT tag FROM hidden_tags WHERE account_id = ${accountId}`.execute(db.k);
  return {
    creators: creators.rows.map((row) => creatorKey(row.service, row.creator_id)),
    tags: tags.rows.map((row) => row.tag),
  };
}

/** The posts condition of randomVisiblePost: `p` is neither by a hidden creator nor carries a hidden tag. */
const visiblePost = (accountId: number) =>
  sql`NOT EXISTS (SELECT 1 FROM hidden_creators h WHERE h.account_id = ${accountId} AND h.service = p.service AND h.creator_id = p."user")
  AND NOT EXISTS (SELECT 1 FROM post_tags t JOIN hidden_tags ht ON ht.account_id = ${accountId} AND ht.tag = t.tag
                   WHERE t.service = p.service AND t."user" = p."user" AND t.post_id = p.id)`;

type PostKey = { service: string; user: string; id: string };

/** A random post the account has not hidden (by creator or tag): the first visible one from a random seq on, wrapping round. */
export async function randomVisiblePost(db: Store, accountId: number, random: () => number = Math.random): Promise<PostKey | undefined> {
  const { rows } = await sql<{ lo: number | null; hi: number | null }>`SELECT min(seq) AS lo, max(seq) AS hi FROM posts`.execute(db.k);
  const lo = rows[0]?.lo ?? null;
  const hi = rows[0]?.hi ?? null;
  if (lo === null || hi === null) return undefined;
  const pick = lo + Math.floor(random() * (hi - lo + 1));
  const after =
    await sql<PostKey>`SELECT p.service, p."user", p.id FROM posts p WHERE p.seq >= ${pick} AND ${visiblePost(accountId)} ORDER BY p.seq ASC LIMIT 1`.execute(
      db.k,
    );
  if (after.rows.length > 0) return after.rows[0];
  const before =
    await sql<PostKey>`SELECT p.service, p."user", p.id FROM posts p WHERE p.seq < ${pick} AND ${visiblePost(accountId)} ORDER BY p.seq DESC LIMIT 1`.execute(
      db.k,
    );
  return before.rows[0];
}

/** The creators condition of randomVisibleCreator: `c` is not hidden by the account. */
const visibleCreator = (accountId: number) =>
  sql`NOT EXISTS (SELECT 1 FROM hidden_creators h WHERE h.account_id = ${accountId} AND h.service = c.service AND h.creator_id = c.id)`;

/** A random creator the account has not hidden. */
export async function randomVisibleCreator(
  db: Store,
  accountId: number,
  random: () => number = Math.random,
): Promise<{ service: string; id: string } | undefined> {
  const counted = await sql<{ n: number }>`SELECT count(*) AS n FROM creators c WHERE ${visibleCreator(accountId)}`.execute(db.k);
  const count = Number(counted.rows[0]?.n ?? 0);
  if (count === 0) return undefined;
  const skip = Math.floor(random() * count);
  const { rows } = await sql<{ service: string; id: string }>`
    SELECT c.service, c.id FROM creators c WHERE ${visibleCreator(accountId)} ORDER BY c.service, c.id LIMIT 1 OFFSET ${skip}`.execute(
    db.k,
  );
  return rows[0];
}
