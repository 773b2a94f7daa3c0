/**
 * Similar creators' SQL (tables of migration 013): what the similarity job reads (favouriters, each
 * creator's tag counts and stored tag profile) and writes (profiles and lists), and the list the API and
 * the creator page read. The scores themselves are computed in api/similar/.
 *
 * A creator is named by its key, `${service}\u0000${id}` (creatorKey / splitCreatorKey).
 */
import { stmt, type Db } from './db.ts';
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

export async function creatorExists(db: Db, key: CreatorKey): Promise<boolean> {
  const { service, id } = splitCreatorKey(key);
  return stmt(db, 'SELECT 1 FROM creators WHERE service = ? AND id = ?').get(service, id) !== undefined;
}

/** The accounts favouriting the creator, newest favourite first, at most `limit`. */
export async function creatorFavouriters(db: Db, key: CreatorKey, limit: number): Promise<number[]> {
  const { service, id } = splitCreatorKey(key);
  return stmt<{ account_id: number }>(
    db,
    'SELECT account_id FROM favorite_creators WHERE service = ? AND creator_id = ? ORDER BY faved_seq DESC LIMIT ?',
  )
    .all(service, id, limit)
    .map((row) => row.account_id);
}

/** The creators an account favourites, newest first, at most `limit`. */
export async function accountFavouriteKeys(db: Db, accountId: number, limit: number): Promise<CreatorKey[]> {
  return stmt<{ service: string; creator_id: string }>(
    db,
    'SELECT service, creator_id FROM favorite_creators WHERE account_id = ? ORDER BY faved_seq DESC LIMIT ?',
  )
    .all(accountId, limit)
    .map((row) => creatorKey(row.service, row.creator_id));
}

/** Every creator favourite, by account, newest first within each (the full recompute's input). */
export async function* iterateAllFavourites(db: Db): AsyncGenerator<{ account_id: number; key: CreatorKey; faved_seq: number }> {
  const rows = stmt<{ account_id: number; service: string; creator_id: string; faved_seq: number }>(
    db,
    'SELECT account_id, service, creator_id, faved_seq FROM favorite_creators ORDER BY account_id, faved_seq DESC',
  ).iterate();
  for (const row of rows) yield { account_id: row.account_id, key: creatorKey(row.service, row.creator_id), faved_seq: row.faved_seq };
}

/** How many of the creator's posts carry each tag. */
export async function creatorTagCounts(db: Db, key: CreatorKey): Promise<{ tag: string; n: number }[]> {
  const { service, id } = splitCreatorKey(key);
  return stmt<{ tag: string; n: number }>(db, 'SELECT tag, count(*) AS n FROM post_tags WHERE service = ? AND "user" = ? GROUP BY tag').all(
    service,
    id,
  );
}

/** Every (creator, tag, posts) triple, grouped by creator (the full recompute's input). */
export async function* iterateAllCreatorTagCounts(db: Db): AsyncGenerator<{ key: CreatorKey; tag: string; n: number }> {
  const rows = stmt<{ service: string; user: string; tag: string; n: number }>(
    db,
    'SELECT service, "user", tag, count(*) AS n FROM post_tags GROUP BY service, "user", tag',
  ).iterate();
  for (const row of rows) yield { key: creatorKey(row.service, row.user), tag: row.tag, n: row.n };
}

/** Posts per tag (kept by triggers), for the tags' inverse document frequency. */
export async function tagPostCount(db: Db, tag: string): Promise<number> {
  return stmt<{ post_count: number }>(db, 'SELECT post_count FROM tag_counts WHERE tag = ?').get(tag)?.post_count ?? 0;
}

export async function allTagPostCounts(db: Db): Promise<Map<string, number>> {
  const rows = stmt<{ tag: string; post_count: number }>(db, 'SELECT tag, post_count FROM tag_counts').all();
  return new Map(rows.map((row) => [row.tag, row.post_count]));
}

/** The creator's stored top tags with their weights. */
export async function readTagProfile(db: Db, key: CreatorKey): Promise<Map<string, number>> {
  const { service, id } = splitCreatorKey(key);
  const rows = stmt<{ tag: string; weight: number }>(
    db,
    'SELECT tag, weight FROM similar_tag_profiles WHERE service = ? AND creator_id = ?',
  ).all(service, id);
  return new Map(rows.map((row) => [row.tag, row.weight]));
}

export async function writeTagProfile(db: Db, key: CreatorKey, profile: ReadonlyMap<string, number>): Promise<void> {
  const { service, id } = splitCreatorKey(key);
  stmt(db, 'DELETE FROM similar_tag_profiles WHERE service = ? AND creator_id = ?').run(service, id);
  const insert = stmt(db, 'INSERT INTO similar_tag_profiles (service, creator_id, tag, weight) VALUES (?, ?, ?, ?)');
  for (const [tag, weight] of profile) insert.run(service, id, tag, weight);
}

/** The creators with the tag among their top tags, highest weight first, at most `limit`. */
export async function creatorsWithTopTag(db: Db, tag: string, limit: number): Promise<CreatorKey[]> {
  return stmt<{ service: string; creator_id: string }>(
    db,
    'SELECT service, creator_id FROM similar_tag_profiles WHERE tag = ? ORDER BY weight DESC, service, creator_id LIMIT ?',
  )
    .all(tag, limit)
    .map((row) => creatorKey(row.service, row.creator_id));
}

/** The creator's stored list, best first. */
export async function readSimilarList(db: Db, key: CreatorKey): Promise<SimilarEntry[]> {
  const { service, id } = splitCreatorKey(key);
  return stmt<{ similar_service: string; similar_id: string; score: number }>(
    db,
    `SELECT similar_service, similar_id, score FROM similar_creators WHERE service = ? AND creator_id = ?
      ORDER BY score DESC, similar_service, similar_id`,
  )
    .all(service, id)
    .map((row) => ({ key: creatorKey(row.similar_service, row.similar_id), score: row.score }));
}

/** The creators whose lists name this one, highest score first, at most `limit`. */
export async function creatorsListing(db: Db, key: CreatorKey, limit: number): Promise<CreatorKey[]> {
  const { service, id } = splitCreatorKey(key);
  return stmt<{ service: string; creator_id: string }>(
    db,
    'SELECT service, creator_id FROM similar_creators WHERE similar_service = ? AND similar_id = ? ORDER BY score DESC LIMIT ?',
  )
    .all(service, id, limit)
    .map((row) => creatorKey(row.service, row.creator_id));
}

/** Replaces the creator's list (call inside a write transaction). */
export async function writeSimilarList(db: Db, key: CreatorKey, list: readonly SimilarEntry[]): Promise<void> {
  const { service, id } = splitCreatorKey(key);
  stmt(db, 'DELETE FROM similar_creators WHERE service = ? AND creator_id = ?').run(service, id);
  const insert = stmt(db, 'INSERT INTO similar_creators (service, creator_id, similar_service, similar_id, score) VALUES (?, ?, ?, ?, ?)');
  for (const entry of list) {
    const other = splitCreatorKey(entry.key);
    insert.run(service, id, other.service, other.id, entry.score);
  }
}

/** Removes a creator that is gone: its list, its profile and its place in other lists. */
export async function deleteCreatorSimilarity(db: Db, key: CreatorKey): Promise<void> {
  const { service, id } = splitCreatorKey(key);
  stmt(db, 'DELETE FROM similar_creators WHERE service = ? AND creator_id = ?').run(service, id);
  stmt(db, 'DELETE FROM similar_creators WHERE similar_service = ? AND similar_id = ?').run(service, id);
  stmt(db, 'DELETE FROM similar_tag_profiles WHERE service = ? AND creator_id = ?').run(service, id);
}

/** Removes the rows of creators no longer in the archive (after a full recompute). @returns rows removed */
export async function pruneGoneSimilarity(db: Db): Promise<number> {
  const gone = (table: string, service: string, id: string) =>
    stmt(
      db,
      `DELETE FROM ${table} WHERE NOT EXISTS (SELECT 1 FROM creators c WHERE c.service = ${table}.${service} AND c.id = ${table}.${id})`,
    ).run().changes;
  return (
    gone('similar_creators', 'service', 'creator_id') +
    gone('similar_creators', 'similar_service', 'similar_id') +
    gone('similar_tag_profiles', 'service', 'creator_id')
  );
}

/** The creator's similar creators as the API answers them, best first, at most `limit`. */
export async function listSimilarCreators(db: Db, service: string, id: string, limit: number): Promise<SimilarCreator[]> {
  return stmt<CreatorFields & { score: number }>(
    db,
    `SELECT c.id, c.name, c.service, c.indexed, c.updated, c.public_id, c.relation_id, s.score
       FROM similar_creators s JOIN creators c ON c.service = s.similar_service AND c.id = s.similar_id
      WHERE s.service = ? AND s.creator_id = ?
      ORDER BY s.score DESC, c.service, c.id
      LIMIT ?`,
  )
    .all(service, id, limit)
    .map((row) => ({ ...row, indexed: epochToIso(row.indexed), updated: epochToIso(row.updated) }));
}
