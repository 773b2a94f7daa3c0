/**
 * A post's place in its creator's listing, newest first: `published DESC, id DESC`
 * (posts_creator_published, scanned backwards), posts without a published date last. Each query reads
 * dated or undated posts only, so the engines' different NULL ordering never matters. `next` is the
 * next OLDER post of that listing, `prev` the next NEWER one; the position gives the listing page a
 * post is on.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Store } from './store.ts';

export interface OrderKey {
  id: string;
  published: string | null;
}

/** The id of the first row, or null. */
async function firstId(db: Store, query: RawBuilder<{ id: string }>): Promise<string | null> {
  const { rows } = await query.execute(db.k);
  return rows[0]?.id ?? null;
}

/** The next OLDER post after `at` in the creator's listing (published DESC, id DESC; undated last), or null. */
export async function olderThan(db: Store, service: string, user: string, at: OrderKey): Promise<string | null> {
  if (at.published !== null) {
    const same = await firstId(
      db,
      sql`SELECT id FROM posts WHERE service = ${service} AND "user" = ${user} AND published = ${at.published} AND id < ${at.id}
        ORDER BY id DESC LIMIT 1`,
    );
    if (same !== null) return same;
    const older = await firstId(
      db,
      sql`SELECT id FROM posts WHERE service = ${service} AND "user" = ${user} AND published < ${at.published}
        ORDER BY published DESC, id DESC LIMIT 1`,
    );
    if (older !== null) return older;
    return await firstId(
      db,
      sql`SELECT id FROM posts WHERE service = ${service} AND "user" = ${user} AND published IS NULL ORDER BY id DESC LIMIT 1`,
    );
  }
  return await firstId(
    db,
    sql`SELECT id FROM posts WHERE service = ${service} AND "user" = ${user} AND published IS NULL AND id < ${at.id}
      ORDER BY id DESC LIMIT 1`,
  );
}

/** The next NEWER post before `at` in the creator's listing, or null. */
export async function newerThan(db: Store, service: string, user: string, at: OrderKey): Promise<string | null> {
  if (at.published === null) {
    const same = await firstId(
      db,
      sql`SELECT id FROM posts WHERE service = ${service} AND "user" = ${user} AND published IS NULL AND id > ${at.id}
        ORDER BY id LIMIT 1`,
    );
    if (same !== null) return same;
    return await firstId(
      db,
      sql`SELECT id FROM posts WHERE service = ${service} AND "user" = ${user} AND published IS NOT NULL
        ORDER BY published, id LIMIT 1`,
    );
  }
  const same = await firstId(
    db,
    sql`SELECT id FROM posts WHERE service = ${service} AND "user" = ${user} AND published = ${at.published} AND id > ${at.id}
      ORDER BY id LIMIT 1`,
  );
  if (same !== null) return same;
  return await firstId(
    db,
    sql`SELECT id FROM posts WHERE service = ${service} AND "user" = ${user} AND published > ${at.published}
      ORDER BY published, id LIMIT 1`,
  );
}

async function orderKey(db: Store, service: string, creatorId: string, postId: string): Promise<OrderKey | undefined> {
  const { rows } = await sql<OrderKey>`SELECT id, published FROM posts
    WHERE service = ${service} AND "user" = ${creatorId} AND id = ${postId}`.execute(db.k);
  return rows[0];
}

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
): Promise<{ prev: string | null; next: string | null } | undefined> {
  const row = await orderKey(db, service, creatorId, postId);
  if (!row) return undefined;
  return { prev: await newerThan(db, service, creatorId, row), next: await olderThan(db, service, creatorId, row) };
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
