/**
 * Shares ('Filehaus' uploads): a named set of files, optionally linked to creators.
 */
import { stmt, type Db } from './db.ts';
import { recordChange } from './changes.ts';
import { registerFile, type FileInput } from './files.ts';
import { extensionOf, hashPath, inTransaction, nowIso } from './util.ts';
import { PAGE_SIZE } from '@shared/constants.ts';

export interface Share {
  id: number;
  name: string;
  description: string;
  added: string;
}

export interface ShareFile {
  hash: string | null;
  ext: string;
  filename: string;
  upload_url: string | null;
  /** '/ab/cd/<sha256>.<ext>' when the file is stored, else null. */
  path: string | null;
}

export interface ShareInput {
  name: string;
  description?: string;
  uploader_id?: number | null;
  added?: string | null;
  files: { filename: string; hash?: string | null; upload_url?: string | null }[];
  creators?: { service: string; creator_id: string }[];
}

async function recordShare(db: Db, shareId: number, action: 'upsert' | 'delete'): Promise<void> {
  const creators = stmt<{ service: string; creator_id: string }>(
    db,
    'SELECT service, creator_id FROM share_creators WHERE share_id = ? ORDER BY service, creator_id',
  ).all(shareId);
  if (creators.length === 0) await recordChange(db, { kind: 'share', action, ref: String(shareId) });
  for (const creator of creators) {
    await recordChange(db, { kind: 'share', action, service: creator.service, creator_id: creator.creator_id, ref: String(shareId) });
  }
}

/** Creates a share with its files and creator links. Records 'share' changes. @returns the share id */
export async function createShare(db: Db, input: ShareInput): Promise<number> {
  return await inTransaction(db, async (db) => {
    const id = Number(
      stmt(db, 'INSERT INTO shares (name, description, uploader_id, added) VALUES (?, ?, ?, ?)').run(
        input.name,
        input.description ?? '',
        input.uploader_id ?? null,
        input.added ?? nowIso(),
      ).lastInsertRowid,
    );
    const insertFile = stmt(db, 'INSERT INTO share_files (share_id, idx, filename, hash, upload_url) VALUES (?, ?, ?, ?, ?)');
    input.files.forEach((file, idx) => {
      insertFile.run(id, idx, file.filename, file.hash ?? null, file.upload_url ?? null);
    });
    const link = stmt(db, 'INSERT OR IGNORE INTO share_creators (share_id, service, creator_id) VALUES (?, ?, ?)');
    for (const creator of input.creators ?? []) link.run(id, creator.service, creator.creator_id);
    await recordShare(db, id, 'upsert');
    return id;
  });
}

/** Deletes a share. Records 'share' delete changes. */
export async function deleteShare(db: Db, id: number): Promise<boolean> {
  return await inTransaction(db, async (db) => {
    if (!stmt(db, 'SELECT 1 FROM shares WHERE id = ?').get(id)) return false;
    await recordShare(db, id, 'delete');
    stmt(db, 'DELETE FROM shares WHERE id = ?').run(id);
    return true;
  });
}

/** GET /v1/share/{id}: the share and its files, or undefined. */
export async function getShare(db: Db, id: number): Promise<{ share: Share; share_files: ShareFile[] } | undefined> {
  const share = stmt<Share>(db, 'SELECT id, name, description, added FROM shares WHERE id = ?').get(id);
  if (!share) return undefined;
  const rows = stmt<{ hash: string | null; filename: string; upload_url: string | null; ext: string | null }>(
    db,
    `SELECT sf.hash, sf.filename, sf.upload_url, f.ext FROM share_files sf LEFT JOIN files f ON f.hash = sf.hash
      WHERE sf.share_id = ? ORDER BY sf.idx`,
  ).all(id);
  return {
    share,
    share_files: rows.map((row) => {
      const ext = row.ext ?? extensionOf(row.filename);
      return {
        hash: row.hash,
        ext,
        filename: row.filename,
        upload_url: row.upload_url,
        path: row.hash ? hashPath(row.hash, ext) : null,
      };
    }),
  };
}

/** All shares, newest first. */
export async function listShares(db: Db, offset = 0, limit = PAGE_SIZE): Promise<Share[]> {
  return stmt<Share>(db, 'SELECT id, name, description, added FROM shares ORDER BY added DESC, id DESC LIMIT ? OFFSET ?').all(
    limit,
    offset,
  );
}

/** Number of shares. */
export async function countShares(db: Db): Promise<number> {
  return stmt<{ n: number }>(db, 'SELECT count(*) AS n FROM shares').get()!.n;
}

/** A creator's shares, newest first. */
export async function listCreatorShares(db: Db, service: string, creatorId: string, offset = 0, limit = PAGE_SIZE): Promise<Share[]> {
  return stmt<Share>(
    db,
    `SELECT s.id, s.name, s.description, s.added FROM share_creators sc JOIN shares s ON s.id = sc.share_id
      WHERE sc.service = ? AND sc.creator_id = ? ORDER BY sc.share_id DESC LIMIT ? OFFSET ?`,
  ).all(service, creatorId, limit, offset);
}

/** Number of a creator's shares. */
export async function countCreatorShares(db: Db, service: string, creatorId: string): Promise<number> {
  return stmt<{ n: number }>(db, 'SELECT count(*) AS n FROM share_creators WHERE service = ? AND creator_id = ?').get(service, creatorId)!
    .n;
}

/**
 * An upload: registers its stored files and creates the share linked to them, in one transaction, so
 * a failure leaves neither file records nor a share behind. @returns the share id
 */
export async function createUploadedShare(
  db: Db,
  input: Omit<ShareInput, 'files'> & { files: (FileInput & { filename: string })[] },
): Promise<number> {
  return await inTransaction(db, async (db) => {
    const files: { filename: string; hash: string }[] = [];
    for (const file of input.files) files.push({ filename: file.filename, hash: (await registerFile(db, file)).hash });
    return await createShare(db, { ...input, files });
  });
}

/** Every share id, oldest first, read lazily (a full page rebuild renders each share page). */
export async function* iterateShareIds(db: Db): AsyncGenerator<number> {
  for (const row of stmt<{ id: number }>(db, 'SELECT id FROM shares ORDER BY id').iterate()) yield row.id;
}
