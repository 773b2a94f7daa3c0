/**
 * The rules most routes share: offsets and page numbers, the paysite, and the path parameters that
 * name a creator, post, share, revision, import or file ('X is required.' when blank).
 */
import { requiredText, rule, scalarText, trimmed } from './rules.ts';
import { PAGE_SIZE } from '../constants.ts';
import { PAYSITES, isPaysite, type Paysite } from '../paysites/index.ts';

/** Offsets ('o'): a non-negative whole number, a multiple of the page size; missing or empty is 0. */
export function offsetSchema(step: number = PAGE_SIZE) {
  return rule(
    (raw, fail) => {
      const value = scalarText(raw)?.trim();
      if (value === undefined || value === '') return 0;
      if (!/^[+-]?\d+$/.test(value)) fail(`Offset "${value}" is not a whole number.`);
      const n = Number(value);
      if (n < 0) fail(`Offset ${n} must not be negative.`);
      if (!Number.isSafeInteger(n)) fail(`Offset ${value} is too large.`);
      if (n % step !== 0) fail(`Offset ${n} is not a multiple of ${step}.`);
      return n;
    },
    { type: 'integer', minimum: 0, multipleOf: step, default: 0, description: `Offset, a multiple of ${step}.` },
  );
}
export const offset = offsetSchema(PAGE_SIZE);

export const pageNumber = rule(
  (raw, fail) => {
    const value = scalarText(raw)?.trim();
    if (value === undefined || value === '') fail('Page number is required.');
    if (!/^[+-]?\d+$/.test(value!)) fail('Page number must be a whole number.');
    const n = Number(value);
    if (n < 1) fail('Page number must be positive.');
    if (!Number.isSafeInteger(n)) fail('Page number is too large.');
    return n;
  },
  { type: 'integer', minimum: 1, description: 'Page number, from 1.' },
);

export const paysite = rule(
  (raw, fail): Paysite => {
    const value = scalarText(raw)?.trim() ?? '';
    if (!isPaysite(value)) fail(`"${value}" is not a valid paysite.`);
    return value as Paysite;
  },
  { type: 'string', enum: [...PAYSITES] },
);

// Path parameters

/** Service path parameter: required and a supported paysite. */
export const serviceParam = rule(
  (raw, fail): Paysite => {
    const value = trimmed(raw);
    if (value === undefined) fail('Service name is required.');
    if (!isPaysite(value)) fail(`"${value}" is not a valid paysite.`);
    return value as Paysite;
  },
  { type: 'string', enum: [...PAYSITES] },
);
export const artistIdParam = requiredText('Artist ID is required.');
export const profileIdParam = requiredText('Profile ID is required.');
export const postIdParam = requiredText('Post ID is required.');
export const shareIdParam = requiredText('Share ID is required.');
export const revisionIdParam = requiredText('Revision ID is required.');
export const importIdParam = requiredText('Import ID is required.');
export const fileHashParam = requiredText('File hash is required.');
/** Fancards exist only for fanbox. */
export const fanboxServiceParam = rule(
  (raw, fail) => {
    const value = trimmed(raw);
    if (value === undefined) fail('Service name is required.');
    if (value !== 'fanbox') fail('Service must be "fanbox".');
    return 'fanbox' as const;
  },
  { type: 'string', enum: ['fanbox'] },
);
