/**
 * Popular posts of a period, in the answer shape of GET /v1/posts/popular (API-NOTES.md); the popular
 * page renders the same object. The period rules live in shared/popular.ts.
 */
import type { Db } from './db.ts';
import { listPopularPosts, popularityDateRange } from './posts.ts';
import { popularRange, popularReferenceDate } from '@shared/popular.ts';
import type { PopularPeriod } from '@shared/validation/popular.ts';

export function popularPosts(db: Db, query: { date?: string; period: PopularPeriod; offset: number; limit: number }, today: string) {
  const data = popularityDateRange(db);
  const range = popularRange(query.period, popularReferenceDate(query.date, today, data.max_day));
  const found = listPopularPosts(db, { from: range.from, to: range.to, offset: query.offset, limit: query.limit });
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
