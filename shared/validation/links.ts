/** Creator link requests: the other creator ("service/id" or service and artist_id) and the reason. */
import { z } from 'zod';
import { rule, trimmed } from './rules.ts';
import { artistIdParam, serviceParam } from './params.ts';
import { LINK_REASON_MAX } from '../constants.ts';
import { isPaysite, type Paysite } from '../paysites/index.ts';

/** The link form's creator value "service/id". */
export const linkTarget = rule(
  (raw, fail): { service: Paysite; artist_id: string } => {
    const value = trimmed(raw);
    if (value === undefined) fail('Input data is required.');
    const parts = value!.split('/');
    if (parts.length !== 2 || !parts[0] || !parts[1]) fail('Invalid input data length.');
    const [service, artistId] = parts as [string, string];
    if (!isPaysite(service)) fail(`"${service}" is not a valid paysite.`);
    return { service: service as Paysite, artist_id: artistId };
  },
  { type: 'string', description: 'service/id' },
);

export const linkReason = rule(
  (raw, fail) => {
    const value = trimmed(raw);
    if (value === undefined) return undefined;
    if ([...value].length > LINK_REASON_MAX) fail(`Reason must be at most ${LINK_REASON_MAX} characters long.`);
    return value;
  },
  { type: 'string', maxLength: LINK_REASON_MAX },
);

/** POST /{service}/user/{id}/links/new body. */
export const linkRequestSchema = z.object({
  service: serviceParam,
  artist_id: artistIdParam,
  reason: linkReason,
});
