/** DMs: the global listing's query and the signed-in account's review of the DMs it imported. */
import { z } from 'zod';
import { booleanish, list, rule, scalarText, trimmed } from './rules.ts';
import { offset } from './params.ts';
import { searchQuery } from './listings.ts';
import { SEARCH_MIN_DMS } from '../constants.ts';

export const dmsSearchQuery = searchQuery(SEARCH_MIN_DMS);
export const dmsQuerySchema = z.object({ o: offset, q: dmsSearchQuery });

export const DM_REVIEW_STATUSES = ['pending', 'ignored'] as const;
export type DmReviewStatus = (typeof DM_REVIEW_STATUSES)[number];

/** Review DMs view; missing means pending. */
export const dmReviewStatus = rule(
  (raw, fail): DmReviewStatus => {
    const value = trimmed(raw);
    if (value === undefined) return 'pending';
    if (!(DM_REVIEW_STATUSES as readonly string[]).includes(value)) fail(`Unknown status "${value}".`);
    return value as DmReviewStatus;
  },
  { type: 'string', enum: [...DM_REVIEW_STATUSES], default: 'pending' },
);

/**
 * POST /account/review_dms. At least one approved DM, unless the user only asks to delete the
 * ignored DMs (the 'Delete ignored DMs' checkbox on the ignored view).
 */
export const dmReviewSchema = z
  .object({
    approved_hashes: rule(
      (raw) =>
        list(raw)
          .map((v) => scalarText(v)?.trim())
          .filter((v): v is string => !!v),
      { type: 'array', items: { type: 'string' } },
    ),
    delete_ignored: rule((raw) => booleanish(raw), { type: 'boolean', default: false }),
  })
  .superRefine((value, ctx) => {
    if (value.approved_hashes.length === 0 && !value.delete_ignored) {
      ctx.addIssue({
        code: 'custom',
        message: 'At least one DM must be provided for approval.',
        path: ['approved_hashes'],
      });
    }
  });
