/**
 * Popular posts: which days a period covers and the previous/next dates per scale. Shared by the API
 * (GET /v1/posts/popular) and the popular page. Dates are 'YYYY-MM-DD' in UTC.
 *
 * Not shown in the spec, decided here (docs/decisions.md): weeks start on Monday; 'recent' is the seven
 * days ending at the reference date; with no date the reference is today, or the last day with
 * popularity data when that is earlier (so an archive that stopped importing still shows something).
 */
import type { PopularPeriod } from './validation/popular.ts';

export const RECENT_DAYS = 7;
const DAY_MS = 86_400_000;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export type PopularScale = 'day' | 'week' | 'month';

export interface PopularRange {
  from: string;
  to: string;
  /** The date the range was built around. */
  date: string;
  scale: PopularPeriod;
  range_desc: string;
  /** [previous, next, current] per scale, each the first day of that scale's range. */
  navigation_dates: Record<PopularScale, [string, string, string]>;
}

function toDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function parseDay(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

function addDays(day: string, days: number): string {
  return toDay(parseDay(day) + days * DAY_MS);
}

function weekStart(day: string): string {
  const weekday = (new Date(parseDay(day)).getUTCDay() + 6) % 7; // Monday = 0
  return addDays(day, -weekday);
}

function monthStart(day: string, monthsAhead = 0): string {
  const date = new Date(parseDay(day));
  return toDay(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + monthsAhead, 1));
}

/** The first day of the `scale` period that holds `day`. */
export function periodStart(scale: PopularScale, day: string): string {
  if (scale === 'month') return monthStart(day);
  return scale === 'week' ? weekStart(day) : day;
}

function monthEnd(day: string): string {
  return addDays(monthStart(day, 1), -1);
}

/** The reference date of a request: the given one, else today capped at the last day with data. */
export function popularReferenceDate(given: string | undefined, today: string, lastDataDay: string | null): string {
  if (given) return given;
  return lastDataDay && lastDataDay < today ? lastDataDay : today;
}

export function popularRange(period: PopularPeriod, date: string): PopularRange {
  const navigation_dates: PopularRange['navigation_dates'] = {
    day: [addDays(date, -1), addDays(date, 1), date],
    week: [addDays(weekStart(date), -7), addDays(weekStart(date), 7), weekStart(date)],
    month: [monthStart(date, -1), monthStart(date, 1), monthStart(date)],
  };
  const base = { date, scale: period, navigation_dates };
  switch (period) {
    case 'day':
      return { ...base, from: date, to: date, range_desc: `Popular posts of ${date}` };
    case 'week': {
      const from = weekStart(date);
      const to = addDays(from, 6);
      return { ...base, from, to, range_desc: `Popular posts of the week ${from} to ${to}` };
    }
    case 'month': {
      const month = new Date(parseDay(date));
      return {
        ...base,
        from: monthStart(date),
        to: monthEnd(date),
        range_desc: `Popular posts of ${MONTHS[month.getUTCMonth()]} ${month.getUTCFullYear()}`,
      };
    }
    default:
      return { ...base, from: addDays(date, -(RECENT_DAYS - 1)), to: date, range_desc: `Popular posts of the last ${RECENT_DAYS} days` };
  }
}

/** Today's date in UTC, the calendar popular periods use. */
export function todayUtc(): string {
  return toDay(Date.now());
}
