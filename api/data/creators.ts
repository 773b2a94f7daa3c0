/**
 * Creators (artists): rows, listings, the creators.txt list, profiles and linked profiles.
 * creators.indexed / updated / last_imported are stored as epoch seconds; the profile and link
 * answers turn them into ISO dates (docs/product.md#api-conventions).
 */
import { sql, type RawBuilder } from 'kysely';
import type { Store } from './store.ts';
import { recordChange } from './changes.ts';
import { nowEpoch } from './util.ts';
import { creatorListedQuery, isCreatorListed } from './do-not-post.ts';
import { creatorDmCountQuery } from './dms.ts';
import { creatorShareCountQuery } from './shares.ts';
import { epochToIso } from '@shared/format.ts';
import type { CreatorFields, Creator } from '@shared/shapes/creators.ts';
export type { CreatorFields, Creator };

/** An item of GET /v1/creators.txt (exactly these keys). */
export interface CreatorListItem extends CreatorFields {
  favorited: number;
  has_chats: boolean;
}

/** GET /v1/{service}/user/{id}/profile (exactly these keys, dates as ISO strings). */
export interface CreatorProfile extends CreatorFields<string> {
  post_count: number;
  dm_count: number;
  share_count: number;
  chat_count: number;
  has_chats: boolean;
}

/** A linked profile: creator fields with indexed/updated as ISO dates. */
export interface LinkedCreator extends CreatorFields<string> {
  has_chats: boolean;
}

/** Input of upsertCreator. Dates are epoch seconds; omitted ones keep their value (or default to now). */
export interface CreatorInput {
  service: string;
  id: string;
  name: string;
  public_id?: string | null;
  indexed?: number;
  updated?: number;
  last_imported?: number | null;
  has_chats?: boolean;
  relation_id?: number | null;
}

interface CreatorRow extends Omit<Creator, 'has_chats'> {
  has_chats: number;
}

const CREATOR_COLUMNS = sql.raw('id, name, service, indexed, updated, public_id, relation_id, has_chats, last_imported');

function toCreator(row: CreatorRow): Creator {
  return { ...row, has_chats: row.has_chats === 1 };
}

/** indexed/updated (epoch seconds) as ISO dates; the other keys stay as they are, in place. */
export function withIsoDates<T extends CreatorFields>(creator: T): Omit<T, 'indexed' | 'updated'> & CreatorFields<string> {
  return { ...creator, indexed: epochToIso(creator.indexed), updated: epochToIso(creator.updated) };
}

/** One creator by (service, id), or undefined. */
export async function getCreator(db: Store, service: string, id: string): Promise<Creator | undefined> {
  const { rows } = await sql<CreatorRow>`SELECT ${CREATOR_COLUMNS} FROM creators WHERE service = ${service} AND id = ${id}`.execute(db.k);
  return rows[0] && toCreator(rows[0]);
}

/**
 * What a creator's pages look up first, in one statement: whether the creator is on the do-not-post list
 * (its pages answer 410 then, row or not), and its row (undefined when unknown).
 */
export async function getCreatorUnlessListed(
  db: Store,
  service: string,
  id: string,
): Promise<{ listed: boolean; creator: Creator | undefined }> {
  // The one-row table keeps the row when the creator is unknown; the columns are the creator's alone.
  const { rows } = await sql<CreatorRow & { listed: number }>`SELECT ${creatorListedQuery(service, id)} AS listed, ${CREATOR_COLUMNS}
    FROM (SELECT 1 AS one) one LEFT JOIN creators ON service = ${service} AND id = ${id}`.execute(db.k);
  const { listed, ...row } = rows[0];
  return { listed: Number(listed) > 0, creator: row.id === null ? undefined : toCreator(row) };
}

/** One creator by its public id (e.g. a fanbox creator's pixiv handle), or undefined. */
export async function getCreatorByPublicId(db: Store, service: string, publicId: string): Promise<Creator | undefined> {
  const { rows } =
    await sql<CreatorRow>`SELECT ${CREATOR_COLUMNS} FROM creators WHERE service = ${service} AND public_id = ${publicId} ORDER BY id LIMIT 1`.execute(
      db.k,
    );
  return rows[0] && toCreator(rows[0]);
}

/** Creators by id or, failing that, public id (the profile route accepts both). */
export async function findCreator(db: Store, service: string, idOrPublicId: string): Promise<Creator | undefined> {
  return (await getCreator(db, service, idOrPublicId)) ?? (await getCreatorByPublicId(db, service, idOrPublicId));
}

/** Recently updated creators, newest `updated` first (the /artists/updated listing). */
export async function listCreatorsUpdated(db: Store, offset: number, limit: number): Promise<Creator[]> {
  const { rows } =
    await sql<CreatorRow>`SELECT ${CREATOR_COLUMNS} FROM creators ORDER BY updated DESC, service DESC, id DESC LIMIT ${limit} OFFSET ${offset}`.execute(
      db.k,
    );
  return rows.map(toCreator);
}

/** Number of creators. */
export async function countCreators(db: Store): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM creators`.execute(db.k);
  return Number(rows[0].n);
}

/** Every creator in the creators.txt shape, ordered by (service, id). */
export async function listAllCreators(db: Store): Promise<CreatorListItem[]> {
  const { rows } = await sql<
    Omit<CreatorListItem, 'has_chats'> & { has_chats: number }
  >`SELECT c.id, c.name, c.service, c.indexed, c.updated, coalesce(f.n, 0) AS favorited,
            c.public_id, c.relation_id, c.has_chats
       FROM creators c
       LEFT JOIN (SELECT service, creator_id, count(*) AS n FROM favorite_creators GROUP BY service, creator_id) f
         ON f.service = c.service AND f.creator_id = c.id
      ORDER BY c.service, c.id`.execute(db.k);
  return rows.map((row) => ({ ...row, favorited: Number(row.favorited), has_chats: row.has_chats === 1 }));
}

/** The profile answer (exactly the keys of docs/product.md#creators-api, with counts), or undefined when unknown. */
export async function getCreatorProfile(db: Store, service: string, id: string): Promise<CreatorProfile | undefined> {
  const creator = await getCreator(db, service, id);
  if (!creator) return undefined;
  const { rows } = await sql<{ post_count: number; dm_count: number; share_count: number; chat_count: number }>`SELECT
       (SELECT count(*) FROM posts WHERE service = ${service} AND "user" = ${id}) AS post_count,
       ${creatorDmCountQuery(service, id)} AS dm_count,
       ${creatorShareCountQuery(service, id)} AS share_count,
       (SELECT count(*) FROM community_channels WHERE service = ${service} AND creator_id = ${id})
         + (SELECT count(*) FROM discord_channels WHERE ${service} = 'discord' AND server_id = ${id}) AS chat_count`.execute(db.k);
  const counts = rows[0];
  return {
    id: creator.id,
    name: creator.name,
    service: creator.service,
    indexed: epochToIso(creator.indexed),
    updated: epochToIso(creator.updated),
    public_id: creator.public_id,
    relation_id: creator.relation_id,
    post_count: Number(counts.post_count),
    dm_count: Number(counts.dm_count),
    share_count: Number(counts.share_count),
    chat_count: Number(counts.chat_count),
    has_chats: creator.has_chats,
  };
}

/** 1 when the creator belongs to a link group with another creator, else 0 (a subquery). */
function hasLinksQuery(service: string, id: string): RawBuilder<number> {
  return sql<number>`(SELECT count(*) FROM (SELECT 1 FROM creators c JOIN creators o ON o.relation_id = c.relation_id
      WHERE c.service = ${service} AND c.id = ${id} AND c.relation_id IS NOT NULL
        AND NOT (o.service = c.service AND o.id = c.id) LIMIT 1) linked)`;
}

/** Whether the creator belongs to a link group with another creator (the Linked Accounts tick). */
export async function hasLinkedCreators(db: Store, service: string, id: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`SELECT ${hasLinksQuery(service, id)} AS n`.execute(db.k);
  return Number(rows[0].n) > 0;
}

/** What the creator header's tabs need from the archive, in one statement (a listing page is rendered often). */
export async function creatorTabCounts(
  db: Store,
  service: string,
  id: string,
): Promise<{ hasLinks: boolean; dmCount: number; shareCount: number }> {
  const { rows } = await sql<{ has_links: number; dm_count: number; share_count: number }>`SELECT
      ${hasLinksQuery(service, id)} AS has_links,
      ${creatorDmCountQuery(service, id)} AS dm_count,
      ${creatorShareCountQuery(service, id)} AS share_count`.execute(db.k);
  const row = rows[0];
  return { hasLinks: Number(row.has_links) > 0, dmCount: Number(row.dm_count), shareCount: Number(row.share_count) };
}

/** Other creators of the same link group (relation_id), ordered by service and name. */
export async function linkedCreators(db: Store, service: string, id: string): Promise<LinkedCreator[]> {
  const { rows } = await sql<
    Omit<CreatorRow, 'last_imported'>
  >`SELECT o.id, o.name, o.service, o.indexed, o.updated, o.public_id, o.relation_id, o.has_chats
       FROM creators c JOIN creators o ON o.relation_id = c.relation_id
      WHERE c.service = ${service} AND c.id = ${id} AND c.relation_id IS NOT NULL
        AND NOT (o.service = c.service AND o.id = c.id)
      ORDER BY o.service, o.name, o.id`.execute(db.k);
  return rows.map((row) => ({ ...withIsoDates(row), has_chats: row.has_chats === 1 }));
}

/** A uniformly random creator key, or undefined when there are none. */
export async function randomCreator(db: Store, random: () => number = Math.random): Promise<{ service: string; id: string } | undefined> {
  const count = await countCreators(db);
  if (count === 0) return undefined;
  const { rows } = await sql<{
    service: string;
    id: string;
  }>`SELECT service, id FROM creators ORDER BY service, id LIMIT 1 OFFSET ${Math.floor(random() * count)}`.execute(db.k);
  return rows[0];
}

/**
 * Inserts or updates a creator and records a 'creator' change when anything differs.
 * Omitted optional fields keep the stored value (indexed/updated default to now for a new creator).
 * A creator on the do-not-post list is never written: 'unchanged'.
 * @returns what happened
 */
export async function upsertCreator(db: Store, input: CreatorInput): Promise<'inserted' | 'updated' | 'unchanged'> {
  if (await isCreatorListed(db, input.service, input.id)) return 'unchanged';
  const existing = await getCreator(db, input.service, input.id);
  const now = nowEpoch();
  const next = {
    service: input.service,
    id: input.id,
    name: input.name,
    public_id: input.public_id !== undefined ? input.public_id : (existing?.public_id ?? null),
    indexed: input.indexed ?? existing?.indexed ?? now,
    updated: input.updated ?? existing?.updated ?? now,
    last_imported: input.last_imported !== undefined ? input.last_imported : (existing?.last_imported ?? null),
    has_chats: (input.has_chats ?? existing?.has_chats ?? false) ? 1 : 0,
    relation_id: input.relation_id !== undefined ? input.relation_id : (existing?.relation_id ?? null),
  };
  if (
    existing &&
    existing.name === next.name &&
    existing.public_id === next.public_id &&
    existing.indexed === next.indexed &&
    existing.updated === next.updated &&
    existing.last_imported === next.last_imported &&
    (existing.has_chats ? 1 : 0) === next.has_chats &&
    existing.relation_id === next.relation_id
  ) {
    return 'unchanged';
  }
  await sql`INSERT INTO creators (service, id, name, public_id, indexed, updated, last_imported, has_chats, relation_id)
     VALUES (${next.service}, ${next.id}, ${next.name}, ${next.public_id}, ${next.indexed}, ${next.updated}, ${next.last_imported},
       ${next.has_chats}, ${next.relation_id})
     ON CONFLICT (service, id) DO UPDATE SET
       name = excluded.name, public_id = excluded.public_id, indexed = excluded.indexed,
       updated = excluded.updated, last_imported = excluded.last_imported,
       has_chats = excluded.has_chats, relation_id = excluded.relation_id`.execute(db.k);
  const renamed = existing !== undefined && existing.name !== next.name;
  await recordChange(db, {
    kind: 'creator',
    action: 'upsert',
    service: input.service,
    creator_id: input.id,
    ref: renamed ? 'renamed' : undefined,
  });
  if (existing && existing.relation_id !== next.relation_id) {
    await recordLinkGroupChanges(db, existing.relation_id);
    await recordLinkGroupChanges(db, next.relation_id);
  }
  return existing ? 'updated' : 'inserted';
}

/** Records a 'link' change for every creator of a link group. */
export async function recordLinkGroupChanges(db: Store, relationId: number | null): Promise<void> {
  if (relationId == null) return;
  const { rows: members } = await sql<{
    service: string;
    id: string;
  }>`SELECT service, id FROM creators WHERE relation_id = ${relationId} ORDER BY service, id`.execute(db.k);
  for (const member of members) {
    await recordChange(db, { kind: 'link', action: 'upsert', service: member.service, creator_id: member.id });
  }
}

/**
 * Sets the `updated` time (epoch seconds) of a creator when it is newer than the stored one, e.g.
 * after importing posts. Records a 'creator' change when it moves.
 */
export async function touchCreatorUpdated(db: Store, service: string, id: string, updated: number): Promise<boolean> {
  const result =
    await sql`UPDATE creators SET updated = ${updated} WHERE service = ${service} AND id = ${id} AND updated < ${updated}`.execute(db.k);
  const moved = Number(result.numAffectedRows ?? 0) > 0;
  if (moved) await recordChange(db, { kind: 'creator', action: 'upsert', service, creator_id: id });
  return moved;
}

/**
 * Sets when a creator was last imported (epoch seconds) without recording a change: no page shows it,
 * so an import that found nothing new leaves the rebuild nothing to do.
 */
export async function setCreatorLastImported(db: Store, service: string, id: string, at: number): Promise<boolean> {
  const result = await sql`UPDATE creators SET last_imported = ${at} WHERE service = ${service} AND id = ${id}`.execute(db.k);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/**
 * All creator keys in (service, id) order, fetched in batches by keyset pagination so it stays cheap
 * on large tables and does not hold a statement open between batches.
 */
export async function* iterateCreatorKeys(db: Store, batch = 5_000): AsyncGenerator<{ service: string; id: string }> {
  let last: { service: string; id: string } | undefined;
  for (;;) {
    const { rows } = last
      ? await sql<{
          service: string;
          id: string;
        }>`SELECT service, id FROM creators WHERE (service, id) > (${last.service}, ${last.id}) ORDER BY service, id LIMIT ${batch}`.execute(
          db.k,
        )
      : await sql<{ service: string; id: string }>`SELECT service, id FROM creators ORDER BY service, id LIMIT ${batch}`.execute(db.k);
    for (const row of rows) yield row;
    if (rows.length < batch) return;
    last = rows[rows.length - 1];
  }
}
