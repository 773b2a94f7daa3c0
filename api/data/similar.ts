/**
 * Similar creators' SQL (tables of migration 013): what the similarity job reads (favouriters, each
 * creator's tag counts and stored tag profile) and writes (profiles and lists), and the list the API and
 * the creator page read. The scores themselves are computed in api/similar/.
 *
 * A creator is named by its key, `${service}\u0000${id}` (creatorKey / splitCreatorKey).
 */
import { sql } from 'kysely';
import { eachRow, type Store } from './store.ts';
import { epochToIso } from '@shared/format.ts';
import type { CreatorFields } from '@shared/shapes/creators.ts';

export type CreatorKey = string;

export function creatorKey(service: string, id: string): CreatorKey {
  return `${service}\u0000${id}`;
}

export function splitCreatorKey(key: CreatorKey): { service: string; id: string } {
  const at = key.indexOf('\u0000');
  return { service: key.slice(0, at), id: key.slice(at + 1) };
}

/** One row of a creator's list as stored. */
export interface SimilarEntry {
  key: CreatorKey;
  score: number;
}

/** GET /v1/{service}/user/{id}/recommended: a creator (ISO dates) and its score. */
export interface SimilarCreator extends CreatorFields<string> {
  score: number;
}

export async function creatorExists(db: Store, key: CreatorKey): Promise<boolean> {
  const { service, id } = splitCreatorKey(key);
  const { rows } = await sql`SELECT 1 AS found FROM creators WHERE service = ${service} AND id = ${id}`.execute(db.k);
  return rows.length > 0;
}

/** The accounts favouriting the creator, newest favourite first, at most `limit`. */
export async function creatorFavouriters(db: Store, key: CreatorKey, limit: number): Promise<number[]> {
  const { service, id } = splitCreatorKey(key);
  const { rows } = await sql<{ account_id: number }>`SELECT account_id FROM favorite_creators
    WHERE service = ${service} AND creator_id = ${id} ORDER BY faved_seq DESC LIMIT ${limit}`.execute(db.k);
  return rows.map((row) => row.account_id);
}

/** The creators an account favourites, newest first, at most `limit`. */
export async function accountFavouriteKeys(db: Store, accountId: number, limit: number): Promise<CreatorKey[]> {
  const { rows } = await sql<{ service: string; creator_id: string }>`SELECT service, creator_id FROM favorite_creators
    WHERE account_id = ${accountId} ORDER BY faved_seq DESC LIMIT ${limit}`.execute(db.k);
  return rows.map((row) => creatorKey(row.service, row.creator_id));
}

/** Every creator favourite, by account, newest first within each (the full recompute's input). */
export async function* iterateAllFavourites(db: Store): AsyncGenerator<{ account_id: number; key: CreatorKey; faved_seq: number }> {
  const query = sql<{ account_id: number; service: string; creator_id: string; faved_seq: number }>`SELECT account_id, service,
    creator_id, faved_seq FROM favorite_creators ORDER BY account_id, faved_seq DESC`;
  for await (const row of eachRow(db, query))
    yield { account_id: row.account_id, key: creatorKey(row.service, row.creator_id), faved_seq: row.faved_seq };
}

/** How many of the creator's posts carry each tag. */
export async function creatorTagCounts(db: Store, key: CreatorKey): Promise<{ tag: string; n: number }[]> {
  const { service, id } = splitCreatorKey(key);
  const { rows } = await sql<{ tag: string; n: number }>`SELECT tag, count(*) AS n FROM post_tags
    WHERE service = ${service} AND "user" = ${id} GROUP BY tag`.execute(db.k);
  return rows;
}

/**
 * Every (creator, tag, posts) triple, grouped by creator (the full recompute's input). Ordered: SQLite
 * happens to group in key order, PostgreSQL's hash aggregate does not.
 */
export async function* iterateAllCreatorTagCounts(db: Store): AsyncGenerator<{ key: CreatorKey; tag: string; n: number }> {
  const query = sql<{ service: string; user: string; tag: string; n: number }>`SELECT service, "user", tag, count(*) AS n
    FROM post_tags GROUP BY service, "user", tag ORDER BY service, "user", tag`;
  for await (const row of eachRow(db, query)) yield { key: creatorKey(row.service, row.user), tag: row.tag, n: row.n };
}

/** Posts per tag (kept by triggers), for the tags' inverse document frequency. */
export async function tagPostCount(db: Store, tag: string): Promise<number> {
  const { rows } = await sql<{ post_count: number }>`SELECT post_count FROM tag_counts WHERE tag = ${tag}`.execute(db.k);
  return rows[0]?.post_count ?? 0;
}

export async function allTagPostCounts(db: Store): Promise<Map<string, number>> {
  const { rows } = await sql<{ tag: string; post_count: number }>`SELECT tag, post_count FROM tag_counts`.execute(db.k);
  return new Map(rows.map((row) => [row.tag, row.post_count]));
}

/** The creator's stored top tags with their weights. */
export async function readTagProfile(db: Store, key: CreatorKey): Promise<Map<string, number>> {
  const { service, id } = splitCreatorKey(key);
  const { rows } = await sql<{ tag: string; weight: number }>`SELECT tag, weight FROM similar_tag_profiles
    WHERE service = ${service} AND creator_id = ${id}`.execute(db.k);
  return new Map(rows.map((row) => [row.tag, row.weight]));
}

export async function writeTagProfile(db: Store, key: CreatorKey, profile: ReadonlyMap<string, number>): Promise<void> {
  const { service, id } = splitCreatorKey(key);
  await sql`DELETE FROM similar_tag_profiles WHERE service = ${service} AND creator_id = ${id}`.execute(db.k);
  for (const [tag, weight] of profile)
    await sql`INSERT INTO similar_tag_profiles (service, creator_id, tag, weight)
      VALUES (${service}, ${id}, ${tag}, ${weight})`.execute(db.k);
}

/** The creators with the tag among their top tags, highest weight first, at most `limit`. */
export async function creatorsWithTopTag(db: Store, tag: string, limit: number): Promise<CreatorKey[]> {
  const { rows } = await sql<{ service: string; creator_id: string }>`SELECT service, creator_id FROM similar_tag_profiles
    WHERE tag = ${tag} ORDER BY weight DESC, service, creator_id LIMIT ${limit}`.execute(db.k);
  return rows.map((row) => creatorKey(row.service, row.creator_id));
}

/** The creator's stored list, best first. */
export async function readSimilarList(db: Store, key: CreatorKey): Promise<SimilarEntry[]> {
  const { service, id } = splitCreatorKey(key);
  const { rows } = await sql<{ similar_service: string; similar_id: string; score: number }>`SELECT similar_service, similar_id, score
    FROM similar_creators WHERE service = ${service} AND creator_id = ${id}
    ORDER BY score DESC, similar_service, similar_id`.execute(db.k);
  return rows.map((row) => ({ key: creatorKey(row.similar_service, row.similar_id), score: row.score }));
}

/** The creators whose lists name this one, highest score first (ties by key, alike on both engines), at most `limit`. */
export async function creatorsListing(db: Store, key: CreatorKey, limit: number): Promise<CreatorKey[]> {
  const { service, id } = splitCreatorKey(key);
  const { rows } = await sql<{ service: string; creator_id: string }>`SELECT service, creator_id FROM similar_creators
    WHERE similar_service = ${service} AND similar_id = ${id} ORDER BY score DESC, service, creator_id LIMIT ${limit}`.execute(db.k);
  return rows.map((row) => creatorKey(row.service, row.creator_id));
}

/** Replaces the creator's list (call inside a write transaction). */
export async function writeSimilarList(db: Store, key: CreatorKey, list: readonly SimilarEntry[]): Promise<void> {
  const { service, id } = splitCreatorKey(key);
  await sql`DELETE FROM similar_creators WHERE service = ${service} AND creator_id = ${id}`.execute(db.k);
  for (const entry of list) {
    const other = splitCreatorKey(entry.key);
    await sql`INSERT INTO similar_creators (service, creator_id, similar_service, similar_id, score)
      VALUES (${service}, ${id}, ${other.service}, ${other.id}, ${entry.score})`.execute(db.k);
  }
}

/** Removes a creator that is gone: its list, its profile and its place in other lists. */
export async function deleteCreatorSimilarity(db: Store, key: CreatorKey): Promise<void> {
  const { service, id } = splitCreatorKey(key);
  await sql`DELETE FROM similar_creators WHERE service = ${service} AND creator_id = ${id}`.execute(db.k);
  await sql`DELETE FROM similar_creators WHERE similar_service = ${service} AND similar_id = ${id}`.execute(db.k);
  await sql`DELETE FROM similar_tag_profiles WHERE service = ${service} AND creator_id = ${id}`.execute(db.k);
}

/** Removes the rows of creators no longer in the archive (after a full recompute). @returns rows removed */
export async function pruneGoneSimilarity(db: Store): Promise<number> {
  const gone = async (table: string, service: string, id: string) => {
    const result = await sql`DELETE FROM ${sql.raw(table)} WHERE NOT EXISTS (SELECT 1 FROM creators c
      WHERE c.service = ${sql.raw(`${table}.${service}`)} AND c.id = ${sql.raw(`${table}.${id}`)})`.execute(db.k);
    return Number(result.numAffectedRows ?? 0);
  };
  return (
    (await gone('similar_creators', 'service', 'creator_id')) +
    (await gone('similar_creators', 'similar_service', 'similar_id')) +
    (await gone('similar_tag_profiles', 'service', 'creator_id'))
  );
}

/** The creator's similar creators as the API answers them, best first, at most `limit`. */
export async function listSimilarCreators(db: Store, service: string, id: string, limit: number): Promise<SimilarCreator[]> {
  const { rows } = await sql<CreatorFields & { score: number }>`SELECT c.id, c.name, c.service, c.indexed, c.updated, c.public_id,
      c.relation_id, s.score
     FROM similar_creators s JOIN creators c ON c.service = s.similar_service AND c.id = s.similar_id
    WHERE s.service = ${service} AND s.creator_id = ${id}
    ORDER BY s.score DESC, c.service, c.id
    LIMIT ${limit}`.execute(db.k);
  return rows.map((row) => ({ ...row, indexed: epochToIso(row.indexed), updated: epochToIso(row.updated) }));
}
