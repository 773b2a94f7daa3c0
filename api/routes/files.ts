/**
 * Files: hash search and archive files (the names inside a .zip, .rar or .7z attachment, and testing
 * its password). Shapes per docs/product.md#files-api.
 */
import { z } from 'zod';
import { defineRoutes, route, type AppContext } from '../http/route.ts';
import { NotFoundError, UnprocessableError, ValidationError } from '../http/errors.ts';
import { searchHash } from '../data/files.ts';
import type { ArchiveFileInfo, ArchiveListStatus } from '../data/archive-files.ts';
import { ARCHIVE_STATUS_MESSAGES, hasList, loadArchiveFile, testArchivePassword } from '../media/archives-info.ts';
import { dataPaths } from '../config.ts';
import { postSummary } from '@shared/shapes/posts.ts';
import { archivePassword, sha256Hash } from '@shared/validation/files.ts';
import { fileHashParam } from '@shared/validation/params.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';

const discordHit = z.object({
  id: z.string(),
  server: z.string(),
  server_name: z.string().nullable(),
  channel: z.string(),
  channel_name: z.string().nullable(),
  published: z.string(),
  author: z.unknown(),
  content: z.string(),
});

const hashSearchAnswer = z.object({
  id: z.number().int(),
  hash: z.string(),
  mime: z.string().nullable(),
  ext: z.string(),
  size: z.number(),
  added: z.string(),
  posts: z.array(postSummary),
  discord_posts: z.array(discordHit),
});

const ARCHIVE_NOT_FOUND = 'Archive file not found.';
const FILE_HASH_REQUIRED = 'File hash is required.';
/** 'File hash is required.' when empty (the params rule), then 'Invalid hash!' unless 64 hex characters. */
function archiveHash(raw: string): string {
  const parsed = sha256Hash.safeParse(raw);
  if (!parsed.success) throw new ValidationError(firstIssueMessage(parsed.error));
  return parsed.data;
}

const archiveAnswer = z.object({
  file: z.object({
    id: z.number().int(),
    hash: z.string(),
    mime: z.string().nullable(),
    size: z.number(),
    ext: z.string(),
    added: z.string(),
    path: z.string(),
  }),
  file_list: z.array(z.string()),
  password: z.string().optional().meta({ description: "Absent when the archive needs none, '' when it needs one that is not known." }),
  file_list_truncated: z.literal(true).optional().meta({ description: 'Present when file_list holds only the first names.' }),
});

type ArchiveAnswer = z.input<typeof archiveAnswer>;

function answer(info: ArchiveFileInfo, status: ArchiveListStatus | null): ArchiveAnswer {
  if (!hasList(status)) throw new UnprocessableError(ARCHIVE_STATUS_MESSAGES[status]);
  return status === 'truncated' ? { ...info, file_list_truncated: true } : info;
}

function filesDir(deps: AppContext): string {
  return dataPaths(deps.config.dataDir).files;
}

/**
 * Tests `password` on the archive `rawHash`: the archive answer, or the 400/404/422 errors (a full
 * archive queue throws ArchiveBusyError: a 503 the client may retry).
 */
async function tryPassword(deps: AppContext, rawHash: string, password: string): Promise<ArchiveAnswer> {
  const hash = archiveHash(rawHash);
  const result = await testArchivePassword(deps.db, filesDir(deps), hash, password);
  switch (result.kind) {
    case 'not-found':
      throw new NotFoundError(ARCHIVE_NOT_FOUND);
    case 'wrong':
      throw new UnprocessableError('Invalid password.');
    case 'unavailable':
      throw new UnprocessableError(ARCHIVE_STATUS_MESSAGES[result.status === 'truncated' ? 'unreadable' : result.status]);
    default:
      return answer(result.info, result.status);
  }
}

/**
 * The v1 PATCH body: kemono's site sends the password alone in a JSON array (`["secret"]`). An object
 * `{password}` (the v2 call's data) is taken too; anything else is a missing password.
 */
const v1PasswordBody = z
  .unknown()
  .optional()
  .transform((raw) => (Array.isArray(raw) ? raw[0] : raw && typeof raw === 'object' ? (raw as { password?: unknown }).password : undefined))
  .pipe(archivePassword)
  .meta({ type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 1, description: 'The password alone: ["secret"].' });

const PASSWORD_ERRORS = "'Please enter a password.' when empty, 'Invalid password.' (422) when wrong.";

export default defineRoutes(
  'files',
  [
    route({
      method: 'get',
      version: 1,
      path: '/search_hash/{hash}',
      summary: 'The file record of a SHA-256 hash with the posts and Discord messages that carry it.',
      params: z.object({ hash: sha256Hash }),
      response: hashSearchAnswer,
      errors: [404],
      handler: async ({ params, deps }) => {
        const found = await searchHash(deps.db, params.hash);
        if (!found) throw new NotFoundError('File not found.');
        return found;
      },
    }),
    route({
      method: 'get',
      version: [1, 2],
      path: '/file/{hash}',
      summary: 'An archive file (.zip, .rar, .7z): the names inside and its password.',
      description:
        'The first request for an archive attachment lists it (without extracting) and stores the result. ' +
        "`password` is absent when none is needed and '' when one is needed but not known. An archive that " +
        'cannot be listed (not an archive, too large, too slow) answers 422 with the reason.',
      params: z.object({ hash: fileHashParam }),
      response: archiveAnswer,
      errors: [404, 422, 503],
      handler: async ({ params, deps }) => {
        const hash = archiveHash(params.hash);
        const lookup = await loadArchiveFile(deps.db, filesDir(deps), hash);
        if (lookup.kind === 'not-found') throw new NotFoundError(ARCHIVE_NOT_FOUND);
        return answer(lookup.info, lookup.status);
      },
    }),
    route({
      method: 'patch',
      version: 2,
      path: '/file/{hash}',
      summary: "Tests an archive's password; a correct one is stored and the archive answered.",
      description: `Body {type, data: {password}}. ${PASSWORD_ERRORS}`,
      params: z.object({ hash: fileHashParam }),
      body: z.object({ password: archivePassword }),
      response: archiveAnswer,
      errors: [404, 422, 503],
      handler: ({ params, body, deps }) => tryPassword(deps, params.hash, body.password),
    }),
    route({
      method: 'patch',
      version: 1,
      path: '/file/{hash}',
      summary: "Tests an archive's password (the v1 form of the call); a correct one is stored and the archive answered.",
      description: `Body: a JSON array holding the password, ["secret"]. ${PASSWORD_ERRORS}`,
      params: z.object({ hash: fileHashParam }),
      body: v1PasswordBody,
      response: archiveAnswer,
      errors: [404, 422, 503],
      handler: ({ params, body, deps }) => tryPassword(deps, params.hash, body),
    }),
    route({
      method: 'get',
      version: [1, 2],
      path: '/file',
      summary: 'Without a hash: 400 "File hash is required."',
      // Never answered with success; documented as the archive answer it stands in for.
      response: archiveAnswer,
      handler: () => {
        throw new ValidationError(FILE_HASH_REQUIRED);
      },
    }),
  ],
  'Hash search and archive files.',
);
