/** The popular posts page (/posts/popular): the API's answer plus the links between periods. */
import type { SiteDeps } from './deps.ts';
import { popularPosts } from '@api/data/popular.ts';
import { todayUtc } from '@shared/popular.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { paginate } from '@shared/pagination.ts';
import { POPULAR_PERIODS, popularQuerySchema } from '@shared/validation/popular.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { periodStart } from '@shared/popular.ts';
import { popularUrl } from '@shared/urls.ts';
import { badRequest, ok } from './outcome.ts';

export async function loadPopular(deps: SiteDeps, search: URLSearchParams) {
  const parsed = popularQuerySchema.safeParse(Object.fromEntries(search));
  if (!parsed.success) return badRequest(firstIssueMessage(parsed.error));
  const { date, period, o } = parsed.data;
  const answer = await popularPosts(deps.db, { date, period, offset: o, limit: PAGE_SIZE }, todayUtc());
  const { info, props } = answer;
  const scale = period === 'recent' ? undefined : period;
  const [previous, next] = scale ? info.navigation_dates[scale] : [undefined, undefined];
  const last = info.max_date && info.max_date < props.today ? info.max_date : props.today;
  return ok({
    ...answer,
    period,
    // A period that starts before the first day with data may still hold it: compare with its start.
    previousUrl:
      scale && previous && (!info.min_date || previous >= periodStart(scale, info.min_date)) ? popularUrl(scale, previous) : undefined,
    nextUrl: scale && next && next <= last ? popularUrl(scale, next) : undefined,
    // Without a date the page shows the latest periods, and so do its scale links: those pages are
    // stored; a dated page (reached by previous/next) keeps its date across scales.
    scales: POPULAR_PERIODS.map((each) => ({ period: each, url: popularUrl(each, date && info.date), current: each === period })),
    pagination: paginate(props.count, o),
    baseUrl: popularUrl(period, date && info.date),
  });
}
