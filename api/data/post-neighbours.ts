/**
 * A post's place in its creator's listing, newest first: `published DESC, id DESC`
 * (posts_creator_published, scanned backwards), posts without a published date last (SQLite sorts NULL
 * last in DESC; a PostgreSQL port says NULLS LAST). `next` is the next OLDER post of that listing,
 * `prev` the next NEWER one; the position gives the listing page a post is on.
 */
import { stmt, type Db } from './db.ts';

export interface OrderKey {
  id: string;
  published: string | null;
}

/** The next OLDER post after `at` in the creator's listing (published DESC, id DESC; undated last), or null. */
export async function olderThan(db: Db, service: string, user: string, at: OrderKey): Promise<string | null> {
  if (at.published !== null) {
    const same = stmt<{ id: string }>(
      db,
      `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published = ? AND id < ? ORDER BY id DESC LIMIT 1`,
    ).get(service, user, at.published, at.id);
    if (same) return same.id;
    const older = stmt<{ id: string }>(
      db,
      `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published < ? ORDER BY published DESC, id DESC LIMIT 1`,
    ).get(service, user, at.published);
    if (older) return older.id;
    const undated = stmt<{ id: string }>(
      db,
      `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published IS NULL ORDER BY id DESC LIMIT 1`,
    ).get(service, user);
    return undated?.id ?? null;
  }
  const next = stmt<{ id: string }>(
    db,
    `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published IS NULL AND id < ? ORDER BY id DESC LIMIT 1`,
  ).get(service, user, at.id);
  return next?.id ?? null;
}

/** The next NEWER post before `at` in the creator's listing, or null. */
export async function newerThan(db: Db, service: string, user: string, at: OrderKey): Promise<string | null> {
  if (at.published === null) {
    const same = stmt<{ id: string }>(
      db,
      `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published IS NULL AND id > ? ORDER BY id LIMIT 1`,
    ).get(service, user, at.id);
    if (same) return same.id;
    const dated = stmt<{ id: string }>(
      db,
      `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published IS NOT NULL ORDER BY published, id LIMIT 1`,
    ).get(service, user);
    return dated?.id ?? null;
  }
  const same = stmt<{ id: string }>(
    db,
    `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published = ? AND id > ? ORDER BY id LIMIT 1`,
  ).get(service, user, at.published, at.id);
  if (same) return same.id;
  const newer = stmt<{ id: string }>(
    db,
    `SELECT id FROM posts WHERE service = ? AND "user" = ? AND published > ? ORDER BY published, id LIMIT 1`,
  ).get(service, user, at.published);
  return newer?.id ?? null;
}

/**
 * The current neighbours of a post in its creator's newest-first listing: `next` is the next older
 * post, `prev` the next newer one (null at the ends). Undefined when the post does not exist.
 * A rebuild re-renders these when the post was added (their prev/next now point at it).
 */
export async function postPageNeighbours(
  db: Db,
  service: string,
  creatorId: string,
  postId: string,
): Promise<{ prev: string | null; next: string | null } | undefined> {
  const row = stmt<OrderKey>(db, 'SELECT id, published FROM posts WHERE service = ? AND "user" = ? AND id = ?').get(
    service,
    creatorId,
    postId,
  );
  if (!row) return undefined;
  return { prev: await newerThan(db, service, creatorId, row), next: await olderThan(db, service, creatorId, row) };
}

/**
 * Zero-based position of a post in its creator's newest-first listing (the number of posts before it),
 * or undefined when it does not exist. Its listing page offset is floor(position / PAGE_SIZE) * PAGE_SIZE;
 * a rebuild re-renders that page and every later one when a post was inserted or removed.
 */
export async function creatorPostPosition(db: Db, service: string, creatorId: string, postId: string): Promise<number | undefined> {
  const row = stmt<OrderKey>(db, 'SELECT id, published FROM posts WHERE service = ? AND "user" = ? AND id = ?').get(
    service,
    creatorId,
    postId,
  );
  if (!row) return undefined;
  if (row.published === null) {
    return stmt<{ n: number }>(
      db,
      `SELECT (SELECT count(*) FROM posts WHERE service = :s AND "user" = :u AND published IS NOT NULL)
            + (SELECT count(*) FROM posts WHERE service = :s AND "user" = :u AND published IS NULL AND id > :id) AS n`,
    ).get({ s: service, u: creatorId, id: postId })!.n;
  }
  return stmt<{ n: number }>(
    db,
    `SELECT (SELECT count(*) FROM posts WHERE service = :s AND "user" = :u AND published > :p)
          + (SELECT count(*) FROM posts WHERE service = :s AND "user" = :u AND published = :p AND id > :id) AS n`,
  ).get({ s: service, u: creatorId, p: row.published, id: postId })!.n;
}
