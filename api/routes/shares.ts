/**
 * Shares ('Filehaus'): the global list, one share, a creator's uploads, and the upload itself.
 *
 * Listing answers (our shape where SPEC.md names only the field the site reads; docs/decisions.md):
 *   GET /v1/shares                       {props: {currentPage: "shares", count, limit}, shares: [share]}
 *   GET /v1/{service}/user/{id}/shares   {props: {currentPage: "shares", id, service, name, share_count,
 *                                         limit, artist: profile}, shares: [share]}
 * Like the other listings, an offset past the end answers 200 with an empty list.
 *   GET /v1/account/posts/upload         what the upload page needs (signed in, as its form):
 *                                        {props: {currentPage: "posts", service, user, artist, services, limits}}
 */
import fsp from 'node:fs/promises';
import { z } from 'zod';
import { defineRoutes, route } from '../http/route.ts';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../http/errors.ts';
import { findCreator } from '../data/creators.ts';
import { countShares, createUploadedShare, getShare, listCreatorShares, listShares } from '../data/shares.ts';
import { getFileByHash } from '../data/files.ts';
import { FileTooLargeError, storeLocation, storeStream, type StoredFile } from '../media/store.ts';
import { receiveUpload, uploadMessages, type UploadLimits } from '../media/upload.ts';
import { PAGE_SIZE, SHARE_UPLOAD_LIMITS } from '@shared/constants.ts';
import { dataPaths } from '../config.ts';
import { offset, shareIdParam } from '@shared/validation/params.ts';
import { shareUploadFields } from '@shared/validation/shares.ts';
import { firstIssueMessage, scalarText } from '@shared/validation/rules.ts';
import { PAYSITES, isPaysite } from '@shared/paysites.ts';
import { CREATOR_NOT_FOUND, creatorParams, creatorProfile, requireCreatorProfile } from './creator-common.ts';
import { extensionOf } from '../data/util.ts';

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

// --------------------------------------------------------------------------------------------- upload

/** The stored file name: no control characters, at most filenameMax characters, keeping the extension. */
export function cleanFilename(raw: string): string {
  // eslint-disable-next-line no-control-regex
  const name = raw.replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'file';
  const chars = [...name];
  if (chars.length <= SHARE_UPLOAD_LIMITS.filenameMax) return name;
  const ext = extensionOf(name);
  const keep = ext.length < 20 ? ext : '';
  return chars.slice(0, SHARE_UPLOAD_LIMITS.filenameMax - [...keep].length).join('') + keep;
}

/** The extension files are stored under: the name's, when it is one the store accepts. */
function storeExt(filename: string): string {
  const ext = extensionOf(filename);
  return /^\.[a-z0-9]{1,16}$/.test(ext) ? ext : '';
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
    handler: async ({ req, deps, account }) => {
      const filesDir = dataPaths(deps.config.dataDir).files;
      // Bytes this upload added to the store that no record points at once it failed.
      const undo = async (stored: StoredFile[]) => {
        const orphans = stored.filter((file) => file.written && !getFileByHash(deps.db, file.sha256));
        await Promise.all(orphans.map((file) => fsp.rm(storeLocation(filesDir, file.path), { force: true })));
      };
      const readFields = (raw: Record<string, string>) => {
        const parsed = shareUploadFields.safeParse(raw);
        if (!parsed.success) throw new ValidationError(firstIssueMessage(parsed.error));
        const creator = findCreator(deps.db, parsed.data.service, parsed.data.user);
        if (!creator) throw new ValidationError(CREATOR_NOT_FOUND);
        return { ...parsed.data, creator };
      };
      const upload = await receiveUpload(req, limits, {
        // Browsers send the fields before the files: refuse bad ones before storing anything.
        beforeFirstFile: (raw) => {
          if ('name' in raw || 'service' in raw || 'user' in raw) readFields(raw);
        },
        store: async (part, stream) => {
          try {
            return await storeStream(filesDir, stream, storeExt(cleanFilename(part.filename)), { maxBytes: limits.maxFileBytes });
          } catch (error) {
            if (error instanceof FileTooLargeError) throw new PayloadTooLargeError(uploadMessages.fileTooLarge(part.filename, limits));
            throw error;
          }
        },
        undo,
      });
      const stored = upload.files.map((file) => file.result);
      try {
        const fields = readFields(upload.fields);
        if (upload.files.length === 0) throw new ValidationError(uploadMessages.noFiles);
        const id = createUploadedShare(deps.db, {
          name: fields.name,
          description: fields.description,
          uploader_id: account?.id ?? null,
          files: upload.files.map((file) => {
            const filename = cleanFilename(file.filename);
            return { filename, hash: file.result.sha256, size: file.result.size, ext: storeExt(filename) };
          }),
          creators: [{ service: fields.creator.service, creator_id: fields.creator.id }],
        });
        return { share_id: id };
      } catch (error) {
        await undo(stored);
        throw error;
      }
    },
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
      handler: ({ deps, query }) => ({
        props: { currentPage: 'shares' as const, count: countShares(deps.db), limit: PAGE_SIZE },
        shares: listShares(deps.db, query.o, PAGE_SIZE),
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
      handler: ({ deps, params }) => {
        const id = shareId(params.id);
        const found = id === undefined ? undefined : getShare(deps.db, id);
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
      handler: ({ deps, params, query }) => {
        // The creator may be named by its public id too; the profile carries the share count.
        const creator = findCreator(deps.db, params.service, params.id);
        if (!creator) throw new NotFoundError(CREATOR_NOT_FOUND);
        const artist = requireCreatorProfile(deps.db, creator.service, creator.id);
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
          shares: listCreatorShares(deps.db, artist.service, artist.id, query.o, PAGE_SIZE),
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
      handler: ({ deps, query }) => {
        const service = isPaysite(query.service) ? query.service : '';
        const creator = service && query.user ? findCreator(deps.db, service, query.user) : undefined;
        const artist = creator ? requireCreatorProfile(deps.db, creator.service, creator.id) : null;
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
