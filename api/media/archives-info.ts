/**
 * The archive file record of a hash (GET /v1/file/{hash}, the /file/{hash} page) and the password
 * test (PATCH /v2/file/{hash}). An archive attachment on disk without stored metadata is listed once
 * and the result stored, whatever it is (a broken or hostile archive is not read again on the next
 * visit); concurrent first visits share one listing.
 */
import fs from 'node:fs';
import type { Store } from '../data/store.ts';
import { getArchiveRecord, setArchiveInfo, type ArchiveFileInfo, type ArchiveListStatus } from '../data/archive-files.ts';
import { getFileByHash, type FileRecord } from '../data/files.ts';
import { archiveTypeOf, sharedArchiveLister, type ArchiveLister, type ArchiveListing } from './archives.ts';
import { storeLocation } from './store.ts';

export type ArchiveLookup = { kind: 'found'; info: ArchiveFileInfo; status: ArchiveListStatus | null } | { kind: 'not-found' };

export type PasswordTest =
  | { kind: 'correct'; info: ArchiveFileInfo; status: ArchiveListStatus | null }
  | { kind: 'wrong' }
  /** The archive could not be listed (status says why): there is nothing to test the password on. */
  | { kind: 'unavailable'; status: ArchiveListStatus }
  | { kind: 'not-found' };

/** The messages of the statuses that leave no list to show (API answers 422 with these). */
export const ARCHIVE_STATUS_MESSAGES: Record<Exclude<ArchiveListStatus, 'truncated'>, string> = {
  unreadable: 'This file could not be read as an archive.',
  'too-big': 'This archive is too large to list.',
  'timed-out': 'This archive took too long to list.',
};

/** Whether a stored status still has a list to show. */
export function hasList(status: ArchiveListStatus | null): status is 'truncated' | null {
  return status === null || status === 'truncated';
}

interface Located {
  file: FileRecord;
  location: string;
  type: NonNullable<ReturnType<typeof archiveTypeOf>>;
}

/** The archive on disk of a file record, when it is an archive type and present. */
function locate(filesDir: string, file: FileRecord | undefined): Located | undefined {
  const type = file && archiveTypeOf(file.ext);
  if (!file || !type) return undefined;
  const location = storeLocation(filesDir, file.path);
  return fs.existsSync(location) ? { file, location, type } : undefined;
}

function statusOf(listing: ArchiveListing): ArchiveListStatus | null {
  switch (listing.kind) {
    case 'listed':
    case 'password-required':
      return listing.truncated ? 'truncated' : null;
    case 'too-big':
      return listing.reason === 'time' ? 'timed-out' : 'too-big';
    default:
      return 'unreadable';
  }
}

function namesOf(listing: ArchiveListing): string[] {
  return listing.kind === 'listed' || listing.kind === 'password-required' ? listing.entries.map((entry) => entry.name) : [];
}

const inFlight = new Map<string, Promise<ArchiveLookup>>();

/**
 * The stored record, or (first visit of an archive attachment present on disk) its listing, stored.
 * Throws ArchiveBusyError when the lister's queue is full.
 */
export async function loadArchiveFile(
  db: Store,
  filesDir: string,
  hash: string,
  lister: ArchiveLister = sharedArchiveLister(),
): Promise<ArchiveLookup> {
  const sha = hash.toLowerCase();
  const stored = await getArchiveRecord(db, sha);
  if (stored) return Promise.resolve({ kind: 'found', ...stored });
  let pending = inFlight.get(sha);
  if (!pending) {
    pending = listAndStore(db, filesDir, sha, lister).finally(() => inFlight.delete(sha));
    inFlight.set(sha, pending);
  }
  return pending;
}

async function listAndStore(db: Store, filesDir: string, sha: string, lister: ArchiveLister): Promise<ArchiveLookup> {
  const found = locate(filesDir, await getFileByHash(db, sha));
  if (!found) return { kind: 'not-found' };
  const listing = await lister.list(found.location, found.type);
  await setArchiveInfo(db, {
    hash: sha,
    file_list: namesOf(listing),
    password: null,
    password_required: listing.kind === 'password-required',
    list_status: statusOf(listing),
  });
  const stored = await getArchiveRecord(db, sha);
  return stored ? { kind: 'found', ...stored } : { kind: 'not-found' };
}

/**
 * Tests a password. A correct one is stored with the list it opens (an archive whose headers are
 * encrypted shows its names only then). An archive that needs no password answers its record.
 */
export async function testArchivePassword(
  db: Store,
  filesDir: string,
  hash: string,
  password: string,
  lister: ArchiveLister = sharedArchiveLister(),
): Promise<PasswordTest> {
  const lookup = await loadArchiveFile(db, filesDir, hash, lister);
  if (lookup.kind === 'not-found') return lookup;
  if (!hasList(lookup.status)) return { kind: 'unavailable', status: lookup.status };
  const known = lookup.info.password;
  if (known === undefined || known === password) return { kind: 'correct', info: lookup.info, status: lookup.status };
  // An archive has one password: once one is known correct, any other is wrong.
  if (known !== '') return { kind: 'wrong' };
  const found = locate(filesDir, lookup.info.file);
  if (!found) return { kind: 'not-found' };
  const listing = await lister.list(found.location, found.type, password);
  if (listing.kind === 'wrong-password' || listing.kind === 'password-required') return { kind: 'wrong' };
  if (listing.kind !== 'listed') return { kind: 'unavailable', status: statusOf(listing) ?? 'unreadable' };
  await setArchiveInfo(db, {
    hash: found.file.hash,
    file_list: namesOf(listing),
    password,
    password_required: true,
    list_status: statusOf(listing),
  });
  const stored = await getArchiveRecord(db, found.file.hash);
  return stored ? { kind: 'correct', ...stored } : { kind: 'not-found' };
}
