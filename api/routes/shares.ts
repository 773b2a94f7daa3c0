/**
 * Shares ('Filehaus'): the global list, one share, a creator's uploads, and the upload itself (received
 * and recorded by api/media/share-upload.ts).
 *
 * Listing answers (our shape where docs/product.md#creators-api names only the field the site reads;
 * docs/decisions.md):
 *   GET /v1/shares                       {props: {currentPage: "shares", count, limit}, shares: [share]}
 *   GET /v1/{service}/user/{id}/shares   {props: {currentPage: "shares", id, service, name, share_count,
 *                                         limit, artist: profile}, shares: [share]}
 * Like the other listings, an offset past the end answers 200 with an empty list.
 *   GET /v1/account/posts/upload         what the upload page needs (signed in, as its form):
 *                                        {props: {currentPage: "posts", service, user, artist, services, limits}}
 */
import { z } from 'zod';
import { defineRoutes, route } from '../http/route.ts';
import { CREATOR_NOT_FOUND, NotFoundError } from '../http/errors.ts';
import { findCreator } from '../data/creators.ts';
import { countShares, getShare, listCreatorShares, listShares } from '../data/shares.ts';
import { uploadShare } from '../media/share-upload.ts';
import type { UploadLimits } from '../media/upload.ts';
import { PAGE_SIZE, SHARE_UPLOAD_LIMITS } from '@shared/constants.ts';
import { offset, shareIdParam } from '@shared/validation/params.ts';
import { scalarText } from '@shared/validation/rules.ts';
import { PAYSITES, isPaysite } from '@shared/paysites/index.ts';
import { creatorParams, creatorProfile, requireCreatorProfile } from './creator-common.ts';

const share = z.object({ id: z.number().int(), name: z.string(), description: z.string(), added: z.string() });

const shareFile = z.object({
  hash: z.string().nullable(),
  ext: z.string(),
  filename: z.string(),
  upload_url: z.string().nullable(),
  path: z.string().nullable().meta({ description: "'/ab/cd/<sha256>.<ext>'; download it from /data{path}?f={filename}." }),
});

/** Share ids are positive integers; anything else names no share. */
function shareId(raw: string): number | undefined {
  if (!/^\d{1,15}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id > 0 ? id : undefined;
}

/** The upload route; `limits` and `path` are parameters so tests can mount it with small limits. */
export function uploadRoute(limits: UploadLimits = SHARE_UPLOAD_LIMITS, routePath = '/shares/upload') {
  return route({
    method: 'post',
    version: 1,
    path: routePath,
    access: 'account',
    summary: 'Uploads files as a new share linked to a creator (multipart/form-data).',
    description:
      `Fields: service, user (the creator's id), name (required, at most ${SHARE_UPLOAD_LIMITS.nameMax} characters), ` +
      `description (optional, at most ${SHARE_UPLOAD_LIMITS.descriptionMax}), and one or more files. ` +
      `Limits: ${limits.maxFiles} files, ${limits.maxFileBytes} bytes each, ${limits.maxTotalBytes} bytes in total ` +
      '(413 beyond them). Answers the new share id; its page is /share/{share_id}.',
    response: z.object({ share_id: z.number().int() }),
    errors: [401, 413],
    handler: async ({ req, deps, account }) => ({ share_id: await uploadShare(deps, req, account?.id ?? null, limits) }),
  });
}

const uploadLimits = z.object({
  max_file_bytes: z.number().int(),
  max_files: z.number().int(),
  max_total_bytes: z.number().int(),
  name_max: z.number().int(),
  description_max: z.number().int(),
});

function currentUploadLimits(): z.input<typeof uploadLimits> {
  return {
    max_file_bytes: SHARE_UPLOAD_LIMITS.maxFileBytes,
    max_files: SHARE_UPLOAD_LIMITS.maxFiles,
    max_total_bytes: SHARE_UPLOAD_LIMITS.maxTotalBytes,
    name_max: SHARE_UPLOAD_LIMITS.nameMax,
    description_max: SHARE_UPLOAD_LIMITS.descriptionMax,
  };
}

/** A prefill of the upload form: taken as given, '' when absent (the page ignores what it cannot use). */
const prefill = (description: string) =>
  z
    .unknown()
    .optional()
    .transform((raw) => scalarText(raw)?.trim() ?? '')
    .meta({ type: 'string', description });

export default defineRoutes(
  'shares',
  [
    route({
      method: 'get',
      version: 1,
      path: '/shares',
      summary: 'All shares (Filehaus), newest first, 50 per page.',
      query: z.object({ o: offset }),
      response: z.object({
        props: z.object({ currentPage: z.literal('shares'), count: z.number().int(), limit: z.number().int() }),
        shares: z.array(share),
      }),
      handler: async ({ deps, query }) => ({
        props: { currentPage: 'shares' as const, count: await countShares(deps.db), limit: PAGE_SIZE },
        shares: await listShares(deps.db, query.o, PAGE_SIZE),
      }),
    }),
    route({
      method: 'get',
      version: 1,
      path: '/share/{id}',
      summary: 'One share and its files.',
      params: z.object({ id: shareIdParam }),
      response: z.object({ share, share_files: z.array(shareFile) }),
      errors: [404],
      handler: async ({ deps, params }) => {
        const id = shareId(params.id);
        const found = id === undefined ? undefined : await getShare(deps.db, id);
        if (!found) throw new NotFoundError('Share not found.');
        return found;
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/{service}/user/{id}/shares',
      summary: "A creator's shares (uploads), newest first, 50 per page.",
      params: creatorParams,
      query: z.object({ o: offset }),
      response: z.object({
        props: z.object({
          currentPage: z.literal('shares'),
          id: z.string(),
          service: z.string(),
          name: z.string(),
          share_count: z.number().int(),
          limit: z.number().int(),
          artist: creatorProfile,
        }),
        shares: z.array(share),
      }),
      errors: [404],
      handler: async ({ deps, params, query }) => {
        // The creator may be named by its public id too; the profile carries the share count.
        const creator = await findCreator(deps.db, params.service, params.id);
        if (!creator) throw new NotFoundError(CREATOR_NOT_FOUND);
        const artist = await requireCreatorProfile(deps.db, creator.service, creator.id);
        return {
          props: {
            currentPage: 'shares' as const,
            id: artist.id,
            service: artist.service,
            name: artist.name,
            share_count: artist.share_count,
            limit: PAGE_SIZE,
            artist,
          },
          shares: await listCreatorShares(deps.db, artist.service, artist.id, query.o, PAGE_SIZE),
        };
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/shares/upload',
      access: 'account',
      summary: 'The upload limits; a 401 tells the upload page that the visitor must sign in first.',
      response: uploadLimits,
      errors: [401],
      handler: () => currentUploadLimits(),
    }),
    route({
      method: 'get',
      version: 1,
      path: '/account/posts/upload',
      access: 'account',
      summary: 'What the upload page (/posts/upload?service=&user=) needs: the creator to prefill, the paysites and the limits.',
      description:
        '`service` and `user` (an id or public id) prefill the form: `artist` is that creator when it exists (else null), ' +
        '`service` is kept only when it is a paysite. Files are then posted to /v1/shares/upload.',
      query: z.object({ service: prefill('Paysite to prefill.'), user: prefill('Creator id (or public id) to prefill.') }),
      response: z.object({
        props: z.object({
          currentPage: z.literal('posts'),
          service: z.string(),
          user: z.string(),
          artist: creatorProfile.nullable(),
          services: z.array(z.string()),
          limits: uploadLimits,
        }),
      }),
      errors: [401],
      handler: async ({ deps, query }) => {
        const service = isPaysite(query.service) ? query.service : '';
        const creator = service && query.user ? await findCreator(deps.db, service, query.user) : undefined;
        const artist = creator ? await requireCreatorProfile(deps.db, creator.service, creator.id) : null;
        return {
          props: {
            currentPage: 'posts' as const,
            service,
            user: artist?.id ?? query.user,
            artist,
            services: [...PAYSITES],
            limits: currentUploadLimits(),
          },
        };
      },
    }),
    uploadRoute(),
  ],
  "Shares ('Filehaus'): uploaded file sets, optionally linked to creators.",
);
