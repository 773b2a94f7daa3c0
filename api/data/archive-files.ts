/**
 * Archive files (.zip, .rar, .7z): the names inside, listed once on the first visit of /file/{hash}, and
 * the password once it was tested correct (archive_files). A change records a 'file' change.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { recordChange } from './changes.ts';
import { inTransaction, nowIso, parseJson } from './util.ts';
import { getFileByHash, type FileRecord } from './files.ts';

/** GET /v1/file/{hash}: password is absent when not required, '' when required but unknown. */
export interface ArchiveFileInfo {
  file: FileRecord;
  file_list: string[];
  password?: string;
}

/**
 * Stores the listing of an archive file. password: the known password, or null; passwordRequired:
 * whether the archive is encrypted. Records a 'file' change.
 */
export async function setArchiveInfo(
  db: Store,
  input: {
    hash: string;
    file_list: string[];
    password?: string | null;
    password_required?: boolean;
    added?: string;
    /** How complete file_list is (null: the whole list); see migration 003. */
    list_status?: ArchiveListStatus | null;
  },
): Promise<void> {
  await inTransaction(db, async (db) => {
    const hash = input.hash.toLowerCase();
    await db.k
      .insertInto('archive_files')
      .values({
        file_hash: hash,
        file_list: JSON.stringify(input.file_list),
        password: input.password ?? null,
        password_required: input.password_required || input.password ? 1 : 0,
        added: input.added ?? nowIso(),
        list_status: input.list_status ?? null,
      })
      .onConflict((oc) =>
        oc.column('file_hash').doUpdateSet((eb) => ({
          file_list: eb.ref('excluded.file_list'),
          password: eb.ref('excluded.password'),
          password_required: eb.ref('excluded.password_required'),
          list_status: eb.ref('excluded.list_status'),
        })),
      )
      .execute();
    await recordChange(db, { kind: 'file', action: 'upsert', ref: hash });
  });
}

/**
 * The archive file answer: the file record, the names inside, and `password` (absent when the
 * archive needs none, '' when it needs one that is not known). Undefined when the file is unknown or
 * has no archive metadata.
 */
export async function getArchiveFile(db: Store, hash: string): Promise<ArchiveFileInfo | undefined> {
  return (await getArchiveRecord(db, hash))?.info;
}

/** How complete a stored archive listing is: null when file_list is the whole list. */
export type ArchiveListStatus = 'truncated' | 'unreadable' | 'too-big' | 'timed-out';

/** getArchiveFile's answer with the listing's status (migration 003), or undefined likewise. */
export async function getArchiveRecord(
  db: Store,
  hash: string,
): Promise<{ info: ArchiveFileInfo; status: ArchiveListStatus | null } | undefined> {
  const file = await getFileByHash(db, hash);
  if (!file) return undefined;
  const { rows } = await sql<{
    file_list: string;
    password: string | null;
    password_required: number;
    list_status: string | null;
  }>`SELECT file_list, password, password_required, list_status FROM archive_files WHERE file_hash = ${file.hash}`.execute(db.k);
  const row = rows[0];
  if (!row) return undefined;
  const info: ArchiveFileInfo = { file, file_list: parseJson<string[]>(row.file_list, []) };
  if (row.password_required === 1 || row.password !== null) info.password = row.password ?? '';
  return { info, status: (row.list_status as ArchiveListStatus | null) ?? null };
}
