/** Fanbox creators' fancards (the Fancards tab): a file of the archive with the plan's price. */
import { stmt, type Db } from './db.ts';
import { recordChange } from './changes.ts';
import { hashPath, inTransaction, nowIso } from './util.ts';

export interface Fancard {
  id: number;
  user_id: string;
  file_id: number;
  hash: string;
  path: string;
  server: string;
  price: string | null;
  mime: string | null;
  ext: string;
  size: number;
  added: string;
}

/** Adds (or replaces, when id is given) a fancard of a creator; the file row must exist. Records a 'fancard' change. @returns its id */
export async function upsertFancard(
  db: Db,
  input: { id?: number; service?: string; user_id: string; file_id: number; price?: string | null; added?: string | null },
): Promise<number> {
  const service = input.service ?? 'fanbox';
  return await inTransaction(db, async (db) => {
    const { id } = stmt<{ id: number }>(
      db,
      `INSERT INTO fancards (id, service, user_id, file_id, price, added) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET service = excluded.service, user_id = excluded.user_id,
         file_id = excluded.file_id, price = excluded.price, added = excluded.added
       RETURNING id`,
    ).get(input.id ?? null, service, input.user_id, input.file_id, input.price ?? null, input.added ?? nowIso())!;
    await recordChange(db, { kind: 'fancard', action: 'upsert', service, creator_id: input.user_id, ref: String(id) });
    return id;
  });
}

/** The id of a creator's fancard showing a file, if any: importers find a card they saved before by it. */
export async function findFancardId(db: Db, service: string, creatorId: string, fileId: number): Promise<number | undefined> {
  return stmt<{ id: number }>(db, 'SELECT id FROM fancards WHERE service = ? AND user_id = ? AND file_id = ? ORDER BY id LIMIT 1').get(
    service,
    creatorId,
    fileId,
  )?.id;
}

/** A creator's fancards (GET /v1/fanbox/user/{id}/fancards), newest first, `server` filled in. */
export async function listFancards(db: Db, service: string, creatorId: string, server = ''): Promise<Fancard[]> {
  return stmt<Omit<Fancard, 'path' | 'server'>>(
    db,
    `SELECT fc.id, fc.user_id, fc.file_id, f.hash, fc.price, f.mime, f.ext, f.size, fc.added
       FROM fancards fc JOIN files f ON f.id = fc.file_id
      WHERE fc.service = ? AND fc.user_id = ? ORDER BY fc.added DESC, fc.id DESC`,
  )
    .all(service, creatorId)
    .map((row) => ({ ...row, path: hashPath(row.hash, row.ext), server }));
}
