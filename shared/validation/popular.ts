/** Popular posts: the period and the date of the listing. */
import { z } from 'zod';
import { choice, rule, trimmed } from './rules.ts';
import { offset } from './params.ts';

export const POPULAR_PERIODS = ['recent', 'day', 'week', 'month'] as const;
export type PopularPeriod = (typeof POPULAR_PERIODS)[number];
export const popularPeriod = choice(POPULAR_PERIODS, 'recent', (value) => `${value} is not a valid period`);

export const popularQuerySchema = z.object({
  date: rule(
    (raw, fail) => {
      const value = trimmed(raw);
      if (value === undefined) return undefined;
      const time = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
      const ok = !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
      if (!ok) fail(`"${value}" is not a valid date.`);
      return value;
    },
    { type: 'string', format: 'date' },
  ),
  period: popularPeriod,
  o: offset,
});
