/**
 * File records (content addressed by sha256) and hash search (the file with the posts and Discord
 * messages that carry it). The bytes themselves are written by api/media/store.ts; this module keeps
 * the rows. Archive listings are in archive-files.ts.
 */
import { sql } from 'kysely';
import { recordChange } from './changes.ts';
import type { Store } from './store.ts';
import { hashPath, inTransaction, nowIso } from './util.ts';
import { mimeForExt } from '@shared/mime.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { listPostsWithFile } from './post-files.ts';
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

function toFile(row: FileRow): FileRecord {
  return { ...row, path: hashPath(row.hash, row.ext) };
}

/**
 * Records a stored file (by sha256). An existing record is kept as it is.
 * Records a 'file' change when the record is new.
 */
export async function registerFile(db: Store, input: FileInput): Promise<FileRecord> {
  return await inTransaction(db, async (db) => {
    const hash = input.hash.toLowerCase();
    const existing = await getFileByHash(db, hash);
    if (existing) return existing;
    const ext = normalizeExt(input.ext);
    const row: FileRow = await db.k
      .insertInto('files')
      .values({ hash, mime: input.mime ?? mimeForExt(ext), size: input.size, ext, added: input.added ?? nowIso() })
      .returning(['id', 'hash', 'mime', 'size', 'ext', 'added'])
      .executeTakeFirstOrThrow();
    await recordChange(db, { kind: 'file', action: 'upsert', ref: hash });
    return toFile(row);
  });
}

/** The file record of a sha256, or undefined. */
export async function getFileByHash(db: Store, hash: string): Promise<FileRecord | undefined> {
  const { rows } = await sql<FileRow>`SELECT id, hash, mime, size, ext, added FROM files WHERE hash = ${hash.toLowerCase()}`.execute(db.k);
  return rows[0] && toFile(rows[0]);
}

/** Number of file records. */
export async function countFiles(db: Store): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM files`.execute(db.k);
  return Number(rows[0].n);
}

/**
 * Hash search: the file record with the posts (summaries) and Discord messages that carry the file.
 * Undefined when the hash is unknown (no file record and no link).
 */
export async function searchHash(
  db: Store,
  hash: string,
  options: { offset?: number; limit?: number } = {},
): Promise<HashSearchResult | undefined> {
  const sha = hash.toLowerCase();
  const file = await getFileByHash(db, sha);
  const posts = await listPostsWithFile(db, sha, options.offset ?? 0, options.limit ?? PAGE_SIZE);
  const discord = await listDiscordMessagesWithFile(db, sha, options.limit ?? PAGE_SIZE);
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
