/**
 * Loader of the archive file page (/file/{hash}, docs/product.md#archive-file-page). Rendered on demand, never
 * stored: the page changes when someone finds the password. Server side only.
 */
import type { SiteDeps } from './deps.ts';
import { ARCHIVE_DEFAULTS, ArchiveBusyError, isUnsafeEntryName } from '@api/media/archives.ts';
import { ARCHIVE_STATUS_MESSAGES, hasList, loadArchiveFile } from '@api/media/archives-info.ts';
import { listPostsWithFile } from '@api/data/post-files.ts';
import { dataPaths } from '@api/config.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { sha256Hash } from '@shared/validation/files.ts';
import { hashSearchUrl, postUrl } from '@shared/urls.ts';

export interface ArchiveFilePage {
  /** The answer's status: 200, or 400/404/422/503 with `message`. */
  status: number;
  hash: string;
  message?: string;
  /** Where Go Back leads without browser history: the first post carrying the file, else hash search. */
  backUrl: string;
  findPostsUrl: string;
  /** Present when the archive could be listed. */
  archive?: {
    names: { name: string; unsafe: boolean }[];
    truncated: boolean;
    /** Absent: none needed; '': needed but unknown; else the password. */
    password?: string;
    maxNames: number;
  };
}

export const FILE_HASH_REQUIRED = 'File hash is required.';
export const ARCHIVE_NOT_FOUND = 'Archive file not found.';

export async function loadArchiveFilePage(deps: SiteDeps, rawHash: string | undefined): Promise<ArchiveFilePage> {
  const trimmed = (rawHash ?? '').trim();
  const base = { hash: trimmed, backUrl: '/', findPostsUrl: hashSearchUrl() };
  if (trimmed === '') return { ...base, status: 400, message: FILE_HASH_REQUIRED };
  const parsed = sha256Hash.safeParse(trimmed);
  if (!parsed.success) return { ...base, status: 400, message: firstIssueMessage(parsed.error) };
  const hash = parsed.data;
  const db = deps.db;
  const [post] = await listPostsWithFile(db, hash, 0, 1);
  const page = {
    hash,
    findPostsUrl: hashSearchUrl(hash),
    backUrl: post ? postUrl(post.service, post.user, post.id) : hashSearchUrl(hash),
  };
  let lookup: Awaited<ReturnType<typeof loadArchiveFile>>;
  try {
    lookup = await loadArchiveFile(db, dataPaths(deps.config.dataDir).files, hash);
  } catch (error) {
    if (error instanceof ArchiveBusyError) return { ...page, status: 503, message: error.message };
    throw error;
  }
  if (lookup.kind === 'not-found') return { ...page, status: 404, message: ARCHIVE_NOT_FOUND };
  if (!hasList(lookup.status)) return { ...page, status: 422, message: ARCHIVE_STATUS_MESSAGES[lookup.status] };
  return {
    ...page,
    status: 200,
    archive: {
      names: lookup.info.file_list.map((name) => ({ name, unsafe: isUnsafeEntryName(name) })),
      truncated: lookup.status === 'truncated',
      password: lookup.info.password,
      maxNames: ARCHIVE_DEFAULTS.maxEntries,
    },
  };
}
