/**
 * Shares ('Filehaus' uploads): a named set of files, optionally linked to creators.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Store } from './store.ts';
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

async function recordShare(db: Store, shareId: number, action: 'upsert' | 'delete'): Promise<void> {
  const { rows: creators } = await sql<{
    service: string;
    creator_id: string;
  }>`SELECT service, creator_id FROM share_creators WHERE share_id = ${shareId} ORDER BY service, creator_id`.execute(db.k);
  if (creators.length === 0) await recordChange(db, { kind: 'share', action, ref: String(shareId) });
  for (const creator of creators) {
    await recordChange(db, { kind: 'share', action, service: creator.service, creator_id: creator.creator_id, ref: String(shareId) });
  }
}

/** Rows per INSERT: one statement for a share's files, bounded so no engine's parameter limit is reached. */
const ROWS_PER_INSERT = 500;

/** Creates a share with its files and creator links. Records 'share' changes. @returns the share id */
export async function createShare(db: Store, input: ShareInput): Promise<number> {
  return await inTransaction(db, async (db) => {
    const row = await db.k
      .insertInto('shares')
      .values({
        name: input.name,
        description: input.description ?? '',
        uploader_id: input.uploader_id ?? null,
        added: input.added ?? nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    const files = input.files.map((file, idx) => ({
      share_id: id,
      idx,
      filename: file.filename,
      hash: file.hash ?? null,
      upload_url: file.upload_url ?? null,
    }));
    for (let start = 0; start < files.length; start += ROWS_PER_INSERT) {
      await db.k
        .insertInto('share_files')
        .values(files.slice(start, start + ROWS_PER_INSERT))
        .execute();
    }
    const creators = (input.creators ?? []).map((creator) => ({ share_id: id, service: creator.service, creator_id: creator.creator_id }));
    for (let start = 0; start < creators.length; start += ROWS_PER_INSERT) {
      // A creator named twice is linked once.
      await db.k
        .insertInto('share_creators')
        .values(creators.slice(start, start + ROWS_PER_INSERT))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    await recordShare(db, id, 'upsert');
    return id;
  });
}

/** Deletes a share. Records 'share' delete changes. */
export async function deleteShare(db: Store, id: number): Promise<boolean> {
  return await inTransaction(db, async (db) => {
    const { rows } = await sql`SELECT 1 AS one FROM shares WHERE id = ${id}`.execute(db.k);
    if (rows.length === 0) return false;
    await recordShare(db, id, 'delete');
    await sql`DELETE FROM shares WHERE id = ${id}`.execute(db.k);
    return true;
  });
}

/** GET /v1/share/{id}: the share and its files, or undefined. */
export async function getShare(db: Store, id: number): Promise<{ share: Share; share_files: ShareFile[] } | undefined> {
  const { rows: shares } = await sql<Share>`SELECT id, name, description, added FROM shares WHERE id = ${id}`.execute(db.k);
  const share = shares[0];
  if (!share) return undefined;
  const { rows } = await sql<{
    hash: string | null;
    filename: string;
    upload_url: string | null;
    ext: string | null;
  }>`SELECT sf.hash, sf.filename, sf.upload_url, f.ext FROM share_files sf LEFT JOIN files f ON f.hash = sf.hash
      WHERE sf.share_id = ${id} ORDER BY sf.idx`.execute(db.k);
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
export async function listShares(db: Store, offset = 0, limit = PAGE_SIZE): Promise<Share[]> {
  const { rows } =
    await sql<Share>`SELECT id, name, description, added FROM shares ORDER BY added DESC, id DESC LIMIT ${limit} OFFSET ${offset}`.execute(
      db.k,
    );
  return rows;
}

/** Number of shares. */
export async function countShares(db: Store): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM shares`.execute(db.k);
  return Number(rows[0].n);
}

/** A creator's shares, newest first. */
export async function listCreatorShares(db: Store, service: string, creatorId: string, offset = 0, limit = PAGE_SIZE): Promise<Share[]> {
  const { rows } = await sql<Share>`SELECT s.id, s.name, s.description, s.added FROM share_creators sc JOIN shares s ON s.id = sc.share_id
      WHERE sc.service = ${service} AND sc.creator_id = ${creatorId} ORDER BY sc.share_id DESC LIMIT ${limit} OFFSET ${offset}`.execute(
    db.k,
  );
  return rows;
}

/** The number of a creator's shares, as a subquery for a statement that reads other counts beside it. */
export function creatorShareCountQuery(service: string, creatorId: string): RawBuilder<number> {
  return sql<number>`(SELECT count(*) FROM share_creators WHERE service = ${service} AND creator_id = ${creatorId})`;
}

/** Number of a creator's shares. */
export async function countCreatorShares(db: Store, service: string, creatorId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT ${creatorShareCountQuery(service, creatorId)} AS n`.execute(db.k);
  return Number(rows[0].n);
}

/**
 * An upload: registers its stored files and creates the share linked to them, in one transaction, so
 * a failure leaves neither file records nor a share behind. @returns the share id
 */
export async function createUploadedShare(
  db: Store,
  input: Omit<ShareInput, 'files'> & { files: (FileInput & { filename: string })[] },
): Promise<number> {
  return await inTransaction(db, async (db) => {
    const files: { filename: string; hash: string }[] = [];
    for (const file of input.files) files.push({ filename: file.filename, hash: (await registerFile(db, file)).hash });
    return await createShare(db, { ...input, files });
  });
}

/** Share ids per read of iterateShareIds. */
const SHARE_ID_BATCH = 1000;

/** The names of every share (the seed adds its demo shares once). */
export async function listShareNames(db: Store): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM shares`.execute(db.k);
  return rows.map((row) => row.name);
}

/**
 * Every share id, oldest first, read lazily (a full page rebuild renders each share page). Read by
 * batches after the last id seen, not through one open cursor: the caller queries the store between
 * ids, which an open cursor would keep waiting for its connection.
 */
export async function* iterateShareIds(db: Store): AsyncGenerator<number> {
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ id: number }>`SELECT id FROM shares WHERE id > ${after} ORDER BY id LIMIT ${SHARE_ID_BATCH}`.execute(db.k);
    for (const row of rows) yield row.id;
    if (rows.length < SHARE_ID_BATCH) return;
    after = rows[rows.length - 1].id;
  }
}
