/**
 * A post's place in its creator's listing, newest first: `published DESC, id DESC`
 * (posts_creator_published, scanned backwards), posts without a published date last. Each query reads
 * dated or undated posts only, so the engines' different NULL ordering never matters. `next` is the
 * next OLDER post of that listing, `prev` the next NEWER one; the position gives the listing page a
 * post is on.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';

/** A post's neighbours in its creator's listing: ids, null at either end. */
export interface PostNeighbours {
  prev: string | null;
  next: string | null;
}

interface OrderKey {
  id: string;
  published: string | null;
}

/**
 * Both neighbours of a post in one statement (a post page's render used to take up to five round trips):
 * each is the first non-null of the index probes in listing order, and COALESCE stops at the first that
 * finds a post on both engines. The probes meant for an undated post, or for a dated one, test the post's
 * own published date first, so the others cost nothing; comparisons with a NULL date find nothing.
 * Columns `prev` and `next` of a query over `posts p`.
 */
export const NEIGHBOUR_COLUMNS = sql.raw(`
  coalesce(
    (SELECT id FROM posts WHERE service = p.service AND "user" = p."user" AND published = p.published AND id > p.id
      ORDER BY id LIMIT 1),
    (SELECT id FROM posts WHERE service = p.service AND "user" = p."user" AND published > p.published
      ORDER BY published, id LIMIT 1),
    (SELECT id FROM posts WHERE service = p.service AND "user" = p."user" AND p.published IS NULL AND published IS NULL
      AND id > p.id ORDER BY id LIMIT 1),
    (SELECT id FROM posts WHERE service = p.service AND "user" = p."user" AND p.published IS NULL AND published IS NOT NULL
      ORDER BY published, id LIMIT 1)
  ) AS prev,
  coalesce(
    (SELECT id FROM posts WHERE service = p.service AND "user" = p."user" AND published = p.published AND id < p.id
      ORDER BY id DESC LIMIT 1),
    (SELECT id FROM posts WHERE service = p.service AND "user" = p."user" AND published < p.published
      ORDER BY published DESC, id DESC LIMIT 1),
    (SELECT id FROM posts WHERE service = p.service AND "user" = p."user" AND p.published IS NOT NULL AND published IS NULL
      ORDER BY id DESC LIMIT 1),
    (SELECT id FROM posts WHERE service = p.service AND "user" = p."user" AND p.published IS NULL AND published IS NULL
      AND id < p.id ORDER BY id DESC LIMIT 1)
  ) AS next`);

/**
 * The current neighbours of a post in its creator's newest-first listing: `next` is the next older
 * post, `prev` the next newer one (null at the ends). Undefined when the post does not exist.
 * A rebuild re-renders these when the post was added (their prev/next now point at it).
 */
export async function postPageNeighbours(
  db: Store,
  service: string,
  creatorId: string,
  postId: string,
): Promise<PostNeighbours | undefined> {
  const { rows } = await sql<PostNeighbours>`SELECT ${NEIGHBOUR_COLUMNS} FROM posts p
    WHERE p.service = ${service} AND p."user" = ${creatorId} AND p.id = ${postId}`.execute(db.k);
  return rows[0] && { prev: rows[0].prev, next: rows[0].next };
}

async function orderKey(db: Store, service: string, creatorId: string, postId: string): Promise<OrderKey | undefined> {
  const { rows } = await sql<OrderKey>`SELECT id, published FROM posts
    WHERE service = ${service} AND "user" = ${creatorId} AND id = ${postId}`.execute(db.k);
  return rows[0];
}

/**
 * Zero-based position of a post in its creator's newest-first listing (the number of posts before it),
 * or undefined when it does not exist. Its listing page offset is floor(position / PAGE_SIZE) * PAGE_SIZE;
 * a rebuild re-renders that page and every later one when a post was inserted or removed.
 */
export async function creatorPostPosition(db: Store, service: string, creatorId: string, postId: string): Promise<number | undefined> {
  const row = await orderKey(db, service, creatorId, postId);
  if (!row) return undefined;
  const position =
    row.published === null
      ? sql<{ n: number }>`SELECT
          (SELECT count(*) FROM posts WHERE service = ${service} AND "user" = ${creatorId} AND published IS NOT NULL)
          + (SELECT count(*) FROM posts WHERE service = ${service} AND "user" = ${creatorId} AND published IS NULL
             AND id > ${postId}) AS n`
      : sql<{ n: number }>`SELECT
          (SELECT count(*) FROM posts WHERE service = ${service} AND "user" = ${creatorId} AND published > ${row.published})
          + (SELECT count(*) FROM posts WHERE service = ${service} AND "user" = ${creatorId} AND published = ${row.published}
             AND id > ${postId}) AS n`;
  const { rows } = await position.execute(db.k);
  return Number(rows[0].n);
}
