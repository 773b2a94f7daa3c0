/**
 * Export and import of an account's favourites (docs/product.md#export-and-import-of-favourites): the
 * list answers with the date each favourite was added, and a merge of references that adds only what the
 * archive has and the account lacks. Adding goes through addFavoriteCreator/addFavoritePost, so the
 * change log and faved_seq work as for a favourite button.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import {
  addFavoriteCreator,
  addFavoritePost,
  listFavoriteCreators,
  listFavoritePosts,
  type FavoriteCreator,
  type FavoritePost,
} from './favorites.ts';
import { inTransaction, nowIso } from './util.ts';
import { postExists } from './posts.ts';
import { creatorRefKey, postRefKey, type CreatorRef, type FavoriteRefs, type FavoritesImportReport } from '@shared/favorites-transfer.ts';

export interface FavoritesExport {
  artists: (FavoriteCreator & { faved_at: string | null })[];
  posts: (FavoritePost & { faved_at: string | null })[];
}

/** Both lists of GET /v1/account/favorites (newest favourite first), each item with faved_at. */
export async function exportFavorites(db: Store, accountId: number): Promise<FavoritesExport> {
  const creators = await sql<{ service: string; creator_id: string; created_at: string }>`
    SELECT service, creator_id, created_at FROM favorite_creators WHERE account_id = ${accountId}`.execute(db.k);
  const creatorDates = new Map(creators.rows.map((row) => [creatorRefKey({ service: row.service, id: row.creator_id }), row.created_at]));
  const posts = await sql<{ service: string; user: string; post_id: string; created_at: string }>`
    SELECT service, "user", post_id, created_at FROM favorite_posts WHERE account_id = ${accountId}`.execute(db.k);
  const postDates = new Map(
    posts.rows.map((row) => [postRefKey({ service: row.service, user: row.user, id: row.post_id }), row.created_at]),
  );
  return {
    artists: (await listFavoriteCreators(db, accountId)).map((c) => ({ ...c, faved_at: creatorDates.get(creatorRefKey(c)) ?? null })),
    posts: (await listFavoritePosts(db, accountId)).map((p) => ({ ...p, faved_at: postDates.get(postRefKey(p)) ?? null })),
  };
}

/**
 * The order to add a file's favourites in, so the newest ends with the highest faved_seq: files list
 * the newest first (as kemono answers and our export do), so the list is reversed; when every entry is
 * dated, the dates decide.
 */
function oldestFirst<T extends { faved_at?: string }>(refs: readonly T[]): T[] {
  const reversed = [...refs].reverse();
  if (!reversed.every((ref) => ref.faved_at)) return reversed;
  return reversed.sort((a, b) => ((a.faved_at ?? '') < (b.faved_at ?? '') ? -1 : (a.faved_at ?? '') > (b.faved_at ?? '') ? 1 : 0));
}

const creatorExists = async (db: Store, ref: CreatorRef) =>
  (await sql`SELECT 1 AS one FROM creators WHERE service = ${ref.service} AND id = ${ref.id}`.execute(db.k)).rows.length > 0;

/** Merges references into an account's favourites in one transaction; importing the same refs again adds nothing. */
export async function importFavoriteRefs(db: Store, accountId: number, refs: FavoriteRefs): Promise<FavoritesImportReport> {
  const report: FavoritesImportReport = { added: { artists: 0, posts: 0 }, unchanged: 0, not_found: [], skipped: refs.skipped };
  const now = nowIso();
  return await inTransaction(db, async (db) => {
    const missing = new Set<string>();
    for (const ref of oldestFirst(refs.artists)) {
      if (!(await creatorExists(db, ref))) missing.add(creatorRefKey(ref));
      else if (await addFavoriteCreator(db, accountId, ref.service, ref.id, ref.faved_at ?? now)) report.added.artists++;
      else report.unchanged++;
    }
    for (const ref of oldestFirst(refs.posts)) {
      if (!(await postExists(db, ref.service, ref.user, ref.id))) missing.add(postRefKey(ref));
      else if (await addFavoritePost(db, accountId, ref.service, ref.user, ref.id, ref.faved_at ?? now)) report.added.posts++;
      else report.unchanged++;
    }
    // In the file's order, not the order of adding.
    report.not_found = [...refs.artists.map(creatorRefKey), ...refs.posts.map(postRefKey)].filter((key) => missing.has(key));
    return report;
  });
}
