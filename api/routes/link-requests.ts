/**
 * Creator link requests, their review by moderators, and link removal
 * (docs/product.md#moderation-and-administration-api), the checks done by api/moderation/link-requests.ts.
 * Choices of our own are in docs/decisions.md:
 *   GET /v1/{service}/user/{id}/links/new         what the link request form needs (signed in, as the page)
 *   POST /v1/{service}/user/{id}/links/new        {message}; 404 unknown creators, 400 itself,
 *                                                  409 already linked or already requested
 *   POST .../creator_link_requests/{id}/approve   404 unknown request, 409 already reviewed
 *   DELETE /v1/{service}/user/{id}/links          administrators take the creator out of its group
 * The moderator routes answer on v1 and v2 (v2 enveloped). Documented with account administration
 * (api/routes/accounts-admin.ts) under 'moderation'.
 */
import { z } from 'zod';
import { defineRoutes, route } from '../http/route.ts';
import { ValidationError } from '../http/errors.ts';
import { getCreatorProfile } from '../data/creators.ts';
import { listPendingLinkRequests } from '../data/links.ts';
import { LINK_MESSAGES, removeCreatorLinks, requestLink, requireLinkCreator, reviewLinkRequest } from '../moderation/link-requests.ts';
import { LINK_CANDIDATES_MAX, LINK_REASON_MAX } from '@shared/constants.ts';
import { PAYSITES } from '@shared/paysites/index.ts';
import { firstIssueMessage, scalarText } from '@shared/validation/rules.ts';
import { linkReason, linkRequestSchema, linkTarget } from '@shared/validation/links.ts';
import { creatorParams, creatorProfile } from './creator-common.ts';

const message = z.object({ message: z.string() });
const linkCreator = z.object({ service: z.string(), id: z.string(), name: z.string() });
const linkRequest = z.object({
  id: z.number().int(),
  from_creator: linkCreator,
  to_creator: linkCreator,
  reason: z.string().nullable(),
  requester: z.object({ username: z.string().nullable(), role: z.string().nullable() }),
  created_at: z.string(),
});

const text = (description: string) => z.unknown().optional().meta({ type: 'string', description });

/**
 * kemono's body is {service, artist_id, reason}; the form may instead send its one value `creator`
 * ("service/id", docs/product.md#link-request-rules), which has its own messages. Nothing at all is 'Input data
 * is required.'
 */
const linkRequestBody = z.object({
  service: text('Paysite of the creator to link.'),
  artist_id: text('Id of the creator to link.'),
  creator: text('Alternative to service and artist_id: "service/id".'),
  reason: linkReason,
});
const creatorValue = z.object({ creator: linkTarget, reason: linkReason });

function readLinkTarget(body: z.output<typeof linkRequestBody>): { service: string; artist_id: string; reason?: string } {
  const hasPair = scalarText(body.service)?.trim() || scalarText(body.artist_id)?.trim();
  if (hasPair) {
    const parsed = linkRequestSchema.safeParse(body);
    if (!parsed.success) throw new ValidationError(firstIssueMessage(parsed.error));
    return parsed.data;
  }
  const parsed = creatorValue.safeParse(body);
  if (!parsed.success) throw new ValidationError(firstIssueMessage(parsed.error));
  return { ...parsed.data.creator, reason: parsed.data.reason };
}

const requestIdParams = z.object({
  id: z
    .unknown()
    .optional()
    .transform((raw, ctx) => {
      const value = scalarText(raw)?.trim() ?? '';
      const n = Number(value);
      if (/^\d{1,15}$/.test(value) && n > 0) return n;
      ctx.addIssue({ code: 'custom', message: 'Request ID must be positive.', input: raw });
      return z.NEVER;
    })
    .meta({ type: 'integer', minimum: 1 }),
});

function reviewRoute(action: 'approve' | 'reject') {
  return route({
    method: 'post',
    version: [1, 2],
    path: `/account/moderator/creator_link_requests/{id}/${action}`,
    access: 'moderator',
    summary:
      action === 'approve'
        ? 'Approves a pending link request: the two creators become linked both ways.'
        : 'Rejects a pending link request.',
    params: requestIdParams,
    response: message,
    errors: [401, 403, 404, 409],
    handler: async ({ params, deps, account }) => {
      await reviewLinkRequest(deps.db, params.id, action, account!);
      return { message: action === 'approve' ? LINK_MESSAGES.approved : LINK_MESSAGES.rejected };
    },
  });
}

/** What the link request page shows: the creator, the paysites of its filter, and the form's limits. */
const linkForm = z.object({
  props: z.object({
    currentPage: z.literal('artists'),
    id: z.string(),
    service: z.string(),
    name: z.string(),
    artist: creatorProfile,
    services: z.array(z.string()).meta({ description: 'The paysites the service filter offers.' }),
    reason_max: z.number().int().meta({ description: 'Longest reason, in characters.' }),
    candidates_max: z.number().int().meta({ description: 'How many matching creators the form lists at most.' }),
  }),
});

export default defineRoutes(
  'link-requests',
  [
    route({
      method: 'get',
      version: 1,
      path: '/{service}/user/{id}/links/new',
      access: 'account',
      summary: 'What the link request form needs: the creator, the paysites to filter by and the limits.',
      description:
        'Candidates are the creators of /v1/creators.txt whose name matches (at most candidates_max, the creator ' +
        'itself left out); a request is then posted to this path.',
      params: creatorParams,
      response: linkForm,
      errors: [401, 404],
      handler: async ({ params, deps }) => {
        const creator = await requireLinkCreator(deps.db, params.service, params.id);
        const profile = (await getCreatorProfile(deps.db, creator.service, creator.id))!;
        return {
          props: {
            currentPage: 'artists' as const,
            id: profile.id,
            service: profile.service,
            name: profile.name,
            artist: profile,
            services: [...PAYSITES],
            reason_max: LINK_REASON_MAX,
            candidates_max: LINK_CANDIDATES_MAX,
          },
        };
      },
    }),
    route({
      method: 'post',
      version: 1,
      path: '/{service}/user/{id}/links/new',
      access: 'account',
      form: true,
      summary: 'Asks moderators to link another creator to this one.',
      description: `Body: service and artist_id of the other creator (or creator: "service/id"), and an optional reason of at most 140 characters.`,
      params: creatorParams,
      body: linkRequestBody,
      response: message,
      errors: [401, 404, 409],
      handler: async ({ params, body, deps, account }) => {
        await requestLink(deps.db, params, readLinkTarget(body), account!.id);
        return { message: LINK_MESSAGES.requested };
      },
    }),
    route({
      method: 'delete',
      version: 1,
      path: '/{service}/user/{id}/links',
      access: 'administrator',
      summary: 'Removes a creator from its linked accounts (the others stay linked to each other).',
      params: creatorParams,
      response: message,
      errors: [401, 403, 404],
      handler: async ({ params, deps, account }) => {
        await removeCreatorLinks(deps.db, params.service, params.id, account!);
        return { message: LINK_MESSAGES.unlinked };
      },
    }),
    route({
      method: 'get',
      version: [1, 2],
      path: '/account/moderator/tasks/creator_links',
      access: 'moderator',
      summary: 'Pending creator link requests, oldest first.',
      response: z.array(linkRequest),
      errors: [401, 403],
      handler: async ({ deps }) =>
        (await listPendingLinkRequests(deps.db)).map((request) => ({
          id: request.id,
          from_creator: request.from_creator,
          to_creator: request.to_creator,
          reason: request.reason,
          requester: { username: request.requester.username, role: request.requester.role },
          created_at: request.created_at,
        })),
    }),
    reviewRoute('approve'),
    reviewRoute('reject'),
  ],
  {
    section: 'moderation',
    description: 'Creator link requests and their review, link removal, and account administration.',
  },
);
