/** "New from your favourites": the page's and the API's `since` and `o`. */
import { z } from 'zod';
import { rule, trimmed } from './rules.ts';
import { offset } from './params.ts';

export const SINCE_MESSAGE = 'Invalid since: expected a date as YYYY-MM-DD.';

const SINCE_FORMAT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?$/;

/**
 * A calendar date (YYYY-MM-DD, midnight UTC) or a stored timestamp (YYYY-MM-DDTHH:MM:SS, UTC, as the
 * page's own paging links carry the last visit). Missing is undefined: "since the last visit". The
 * answer is the stored form, comparable with the posts' `added`.
 */
export const since = rule(
  (raw, fail): string | undefined => {
    const value = trimmed(raw);
    if (value === undefined) return undefined;
    const parts = SINCE_FORMAT.exec(value);
    if (!parts) return fail(SINCE_MESSAGE);
    const stored = parts[4] === undefined ? `${value}T00:00:00` : value;
    const date = new Date(`${stored}Z`);
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 19) !== stored) {
      return fail(`Invalid since: ${value} is not a date of the calendar.`);
    }
    return stored;
  },
  { type: 'string', example: '2026-01-31', description: 'YYYY-MM-DD (UTC); the last visit when absent' },
);

export const favoritesNewsQuerySchema = z.object({ since, o: offset });
