/**
 * Post popularity: favourite and view counts of posts per day (post_popularity), and the popular posts
 * of a period in the answer shape of GET /v1/posts/popular, which the popular page renders too. The
 * period rules live in shared/popular.ts.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { recordChange } from './changes.ts';
import { inTransaction } from './util.ts';
import { postKeyChunks, SUMMARY_COLUMNS, toSummary, type SummaryRow } from './post-rows.ts';
import type { PostKey } from './posts.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { popularRange, popularReferenceDate } from '@shared/popular.ts';
import type { PostSummary } from '@shared/shapes/posts.ts';
import type { PopularPeriod } from '@shared/validation/popular.ts';

export interface PopularityInput {
  day: string;
  service: string;
  user: string;
  post_id: string;
  favorites?: number;
  views?: number;
}

/**
 * Adds favourite/view counts of posts for days (summed into existing counts). Records one
 * 'popularity' change per distinct day.
 */
export async function addPopularity(db: Store, rows: PopularityInput[]): Promise<void> {
  if (rows.length === 0) return;
  await inTransaction(db, async (db) => {
    const days = new Set<string>();
    // One statement per row (not one multi-row insert): PostgreSQL refuses to update the same row twice in
    // one statement, and rows may repeat a post's day.
    for (const row of rows) {
      await sql`INSERT INTO post_popularity (day, service, "user", post_id, favorites, views)
        VALUES (${row.day}, ${row.service}, ${row.user}, ${row.post_id}, ${row.favorites ?? 0}, ${row.views ?? 0})
        ON CONFLICT (day, service, "user", post_id) DO UPDATE SET
          favorites = post_popularity.favorites + excluded.favorites, views = post_popularity.views + excluded.views`.execute(db.k);
      days.add(row.day);
    }
    for (const day of [...days].sort()) await recordChange(db, { kind: 'popularity', action: 'upsert', ref: day });
  });
}

/** Whether any of the posts has favourites or views on some day: only such a post can be on a popular page. */
export async function anyPostPopular(db: Store, keys: readonly PostKey[]): Promise<boolean> {
  for (const chunk of postKeyChunks(keys)) {
    const { rows } = await sql`SELECT 1 AS one FROM post_popularity
      WHERE (service, "user", post_id) IN (VALUES ${chunk.values}) LIMIT 1`.execute(db.k);
    if (rows.length > 0) return true;
  }
  return false;
}

/**
 * Most favourited posts of the days from..to (inclusive, 'YYYY-MM-DD'), ties broken by views then
 * newest. Each summary carries fav_count (favourites within the period).
 */
export async function listPopularPosts(
  db: Store,
  options: { from: string; to: string; offset?: number; limit?: number },
): Promise<{ posts: (PostSummary & { fav_count: number })[]; count: number }> {
  // Only the posts that can reach the page are joined to posts: those ranking at or above the page's
  // last place by favourites and views (ties included, for the newest-first tie-break; every popularity
  // row has its post, by foreign key). A month ranks thousands of posts, and joining every one cost
  // PostgreSQL 200 ms at a million posts.
  const offset = options.offset ?? 0;
  const limit = options.limit ?? PAGE_SIZE;
  // The count comes with the page, from the same grouped rows; only a page past the end asks for it alone.
  const { rows } = await sql<SummaryRow & { fav_count: number; ranked: number }>`WITH s AS MATERIALIZED (
      SELECT service, "user", post_id, sum(favorites) AS fav_count, sum(views) AS view_count
        FROM post_popularity WHERE day >= ${options.from} AND day <= ${options.to}
       GROUP BY service, "user", post_id
    ), last_place AS (
      SELECT fav_count, view_count FROM s ORDER BY fav_count DESC, view_count DESC LIMIT 1 OFFSET ${offset + limit - 1}
    )
    SELECT ${sql.raw(SUMMARY_COLUMNS)}, s.fav_count, (SELECT count(*) FROM s) AS ranked FROM s JOIN posts p ON p.service = s.service AND p."user" = s."user" AND p.id = s.post_id
     WHERE NOT EXISTS (SELECT 1 FROM last_place)
        OR (s.fav_count, s.view_count) >= (SELECT fav_count, view_count FROM last_place)
     ORDER BY s.fav_count DESC, s.view_count DESC, p.seq DESC LIMIT ${limit} OFFSET ${offset}`.execute(db.k);
  return {
    posts: rows.map((row) => ({ ...toSummary(row), fav_count: Number(row.fav_count) })),
    count: rows.length > 0 ? Number(rows[0].ranked) : await countPopularPosts(db, options.from, options.to),
  };
}

/** How many posts have popularity rows in the days from..to. */
async function countPopularPosts(db: Store, from: string, to: string): Promise<number> {
  // PostgreSQL 15 wants the derived table named.
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM (
      SELECT DISTINCT service, "user", post_id FROM post_popularity WHERE day >= ${from} AND day <= ${to}
    ) d`.execute(db.k);
  return Number(rows[0].n);
}

/** First and last day that have popularity data ('YYYY-MM-DD'), or nulls. */
export async function popularityDateRange(db: Store): Promise<{ min_day: string | null; max_day: string | null }> {
  const { rows } = await sql<{ min_day: string | null; max_day: string | null }>`SELECT min(day) AS min_day, max(day) AS max_day
    FROM post_popularity`.execute(db.k);
  return rows[0];
}

export async function popularPosts(
  db: Store,
  query: { date?: string; period: PopularPeriod; offset: number; limit: number },
  today: string,
) {
  const data = await popularityDateRange(db);
  const range = popularRange(query.period, popularReferenceDate(query.date, today, data.max_day));
  const found = await listPopularPosts(db, { from: range.from, to: range.to, offset: query.offset, limit: query.limit });
  return {
    info: {
      date: range.date,
      min_date: data.min_day,
      max_date: data.max_day,
      navigation_dates: range.navigation_dates,
      range_desc: range.range_desc,
      scale: range.scale,
    },
    props: { count: found.count, earliest_date_for_popular: data.min_day, today },
    posts: found.posts,
  };
}
