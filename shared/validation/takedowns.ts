/**
 * Takedowns: the reason an administrator gives for removing a creator or a post (the form and
 * POST /api/v1/admin/takedown/... check the same rule), and the do-not-post list's paging.
 */
import { z } from 'zod';
import { rule, trimmed } from './rules.ts';
import { offset } from './params.ts';

export const TAKEDOWN_REASON_MAX = 1000;

export const TAKEDOWN_REASON_MESSAGES = {
  reasonRequired: 'A reason is required.',
  reasonTooLong: `The reason must be at most ${TAKEDOWN_REASON_MAX} characters long.`,
} as const;

/** 1 to 1000 characters after trimming (counted as characters, not UTF-16 units). */
export const takedownReason = rule(
  (raw, fail) => {
    const value = trimmed(raw);
    if (value === undefined) fail(TAKEDOWN_REASON_MESSAGES.reasonRequired);
    if ([...value!].length > TAKEDOWN_REASON_MAX) fail(TAKEDOWN_REASON_MESSAGES.reasonTooLong);
    return value!;
  },
  { type: 'string', minLength: 1, maxLength: TAKEDOWN_REASON_MAX },
);

/** POST /admin/takedown/{service}/user/{id}[/post/{post}] body. */
export const takedownSchema = z.object({ reason: takedownReason });

/** GET /admin/do_not_post query: `o`, a multiple of 50. */
export const doNotPostQuery = z.object({ o: offset });

/** The do-not-post entry id in DELETE /admin/do_not_post/{entry}. */
export const doNotPostEntryId = rule(
  (raw, fail) => {
    const value = trimmed(raw);
    if (value === undefined || !/^[1-9]\d{0,14}$/.test(value)) fail('Entry ID must be a positive whole number.');
    return Number(value);
  },
  { type: 'integer', minimum: 1 },
);
