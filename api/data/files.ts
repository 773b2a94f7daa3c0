/**
 * File records (content addressed by sha256), archive metadata and hash search.
 * The bytes themselves are written by api/media/store.ts; this module keeps the rows.
 */
import { stmt, type Db } from './db.ts';
import { recordChange } from './changes.ts';
import { hashPath, inTransaction, nowIso, parseJson } from './util.ts';
import { mimeForExt } from '@shared/mime.ts';
import { listPostsWithFile } from './posts.ts';
import { listDiscordMessagesWithFile } from './discord.ts';
import type { HashSearchResult } from '@shared/shapes/hash-search.ts';
export type { HashSearchResult };

export interface FileRecord {
  id: number;
  hash: string;
  mime: string | null;
  size: number;
  /** With the dot, e.g. '.png'. */
  ext: string;
  added: string;
  /** '/ab/cd/<sha256>.<ext>' */
  path: string;
}

export interface FileInput {
  hash: string;
  size: number;
  ext: string;
  mime?: string | null;
  added?: string | null;
}

/** GET /v1/file/{hash}: password is absent when not required, '' when required but unknown. */
export interface ArchiveFileInfo {
  file: FileRecord;
  file_list: string[];
  password?: string;
}

function normalizeExt(ext: string): string {
  if (ext === '') return '';
  return (ext.startsWith('.') ? ext : `.${ext}`).toLowerCase();
}

interface FileRow {
  id: number;
  hash: string;
  mime: string | null;
  size: number;
  ext: string;
  added: string;
}

const FILE_COLUMNS = 'id, hash, mime, size, ext, added';

function toFile(row: FileRow): FileRecord {
  return { ...row, path: hashPath(row.hash, row.ext) };
}

/**
 * Records a stored file (by sha256). An existing record is kept as it is.
 * Records a 'file' change when the record is new.
 */
export function registerFile(db: Db, input: FileInput): FileRecord {
  return inTransaction(db, () => {
    const hash = input.hash.toLowerCase();
    const existing = getFileByHash(db, hash);
    if (existing) return existing;
    const ext = normalizeExt(input.ext);
    const row = stmt<FileRow>(db, `INSERT INTO files (hash, mime, size, ext, added) VALUES (?, ?, ?, ?, ?) RETURNING ${FILE_COLUMNS}`).get(
      hash,
      input.mime ?? mimeForExt(ext),
      input.size,
      ext,
      input.added ?? nowIso(),
    )!;
    recordChange(db, { kind: 'file', action: 'upsert', ref: hash });
    return toFile(row);
  });
}

/** The file record of a sha256, or undefined. */
export function getFileByHash(db: Db, hash: string): FileRecord | undefined {
  const row = stmt<FileRow>(db, `SELECT ${FILE_COLUMNS} FROM files WHERE hash = ?`).get(hash.toLowerCase());
  return row && toFile(row);
}

/** The file record of an id, or undefined. */
export function getFileById(db: Db, id: number): FileRecord | undefined {
  const row = stmt<FileRow>(db, `SELECT ${FILE_COLUMNS} FROM files WHERE id = ?`).get(id);
  return row && toFile(row);
}

/** Number of file records. */
export function countFiles(db: Db): number {
  return stmt<{ n: number }>(db, 'SELECT count(*) AS n FROM files').get()!.n;
}

/**
 * Stores the listing of an archive file. password: the known password, or null; passwordRequired:
 * whether the archive is encrypted. Records a 'file' change.
 */
export function setArchiveInfo(
  db: Db,
  input: {
    hash: string;
    file_list: string[];
    password?: string | null;
    password_required?: boolean;
    added?: string;
    /** How complete file_list is (null: the whole list); see migration 003. */
    list_status?: ArchiveListStatus | null;
  },
): void {
  inTransaction(db, () => {
    const hash = input.hash.toLowerCase();
    stmt(
      db,
      `INSERT INTO archive_files (file_hash, file_list, password, password_required, added, list_status) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (file_hash) DO UPDATE SET file_list = excluded.file_list, password = excluded.password,
         password_required = excluded.password_required, list_status = excluded.list_status`,
    ).run(
      hash,
      JSON.stringify(input.file_list),
      input.password ?? null,
      input.password_required || input.password ? 1 : 0,
      input.added ?? nowIso(),
      input.list_status ?? null,
    );
    recordChange(db, { kind: 'file', action: 'upsert', ref: hash });
  });
}

/** Saves the password of an archive after it was tested correct. Records a 'file' change. */
export function setArchivePassword(db: Db, hash: string, password: string): boolean {
  return inTransaction(db, () => {
    const info = stmt(db, 'UPDATE archive_files SET password = ?, password_required = 1 WHERE file_hash = ?').run(
      password,
      hash.toLowerCase(),
    );
    if (info.changes > 0) recordChange(db, { kind: 'file', action: 'upsert', ref: hash.toLowerCase() });
    return info.changes > 0;
  });
}

/**
 * The archive file answer: the file record, the names inside, and `password` (absent when the
 * archive needs none, '' when it needs one that is not known). Undefined when the file is unknown or
 * has no archive metadata.
 */
export function getArchiveFile(db: Db, hash: string): ArchiveFileInfo | undefined {
  return getArchiveRecord(db, hash)?.info;
}

/** How complete a stored archive listing is: null when file_list is the whole list. */
export type ArchiveListStatus = 'truncated' | 'unreadable' | 'too-big' | 'timed-out';

/** getArchiveFile's answer with the listing's status (migration 003), or undefined likewise. */
export function getArchiveRecord(db: Db, hash: string): { info: ArchiveFileInfo; status: ArchiveListStatus | null } | undefined {
  const file = getFileByHash(db, hash);
  if (!file) return undefined;
  const row = stmt<{ file_list: string; password: string | null; password_required: number; list_status: string | null }>(
    db,
    'SELECT file_list, password, password_required, list_status FROM archive_files WHERE file_hash = ?',
  ).get(file.hash);
  if (!row) return undefined;
  const info: ArchiveFileInfo = { file, file_list: parseJson<string[]>(row.file_list, []) };
  if (row.password_required === 1 || row.password !== null) info.password = row.password ?? '';
  return { info, status: (row.list_status as ArchiveListStatus | null) ?? null };
}

/**
 * Hash search: the file record with the posts (summaries) and Discord messages that carry the file.
 * Undefined when the hash is unknown (no file record and no link).
 */
export function searchHash(db: Db, hash: string, options: { offset?: number; limit?: number } = {}): HashSearchResult | undefined {
  const sha = hash.toLowerCase();
  const file = getFileByHash(db, sha);
  const posts = listPostsWithFile(db, sha, options.offset ?? 0, options.limit ?? 50);
  const discord = listDiscordMessagesWithFile(db, sha, options.limit ?? 50);
  if (!file && posts.length === 0 && discord.length === 0) return undefined;
  return {
    id: file?.id ?? 0,
    hash: sha,
    mime: file?.mime ?? null,
    ext: file?.ext ?? '',
    size: file?.size ?? 0,
    added: file?.added ?? '',
    posts,
    discord_posts: discord,
  };
}
