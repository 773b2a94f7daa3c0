/** Fanbox creators' fancards (the Fancards tab): a file of the archive with the plan's price. */
import { sql } from 'kysely';
import { recordChange } from './changes.ts';
import type { Store } from './store.ts';
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
  db: Store,
  input: { id?: number; service?: string; user_id: string; file_id: number; price?: string | null; added?: string | null },
): Promise<number> {
  const service = input.service ?? 'fanbox';
  return await inTransaction(db, async (db) => {
    // No id: the column numbers the card (an explicit NULL would be refused by PostgreSQL's identity column).
    const { id } = await db.k
      .insertInto('fancards')
      .values({
        ...(input.id == null ? {} : { id: input.id }),
        service,
        user_id: input.user_id,
        file_id: input.file_id,
        price: input.price ?? null,
        added: input.added ?? nowIso(),
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          service: eb.ref('excluded.service'),
          user_id: eb.ref('excluded.user_id'),
          file_id: eb.ref('excluded.file_id'),
          price: eb.ref('excluded.price'),
          added: eb.ref('excluded.added'),
        })),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    // PostgreSQL's identity does not move past an id given by hand (SQLite numbers max(id) + 1): move it,
    // or a later card without id would be given this one's id.
    if (input.id != null && db.engine === 'postgres')
      await sql`SELECT setval(pg_get_serial_sequence('fancards', 'id'), (SELECT max(id) FROM fancards))`.execute(db.k);
    await recordChange(db, { kind: 'fancard', action: 'upsert', service, creator_id: input.user_id, ref: String(id) });
    return id;
  });
}

/** The id of a creator's fancard showing a file, if any: importers find a card they saved before by it. */
export async function findFancardId(db: Store, service: string, creatorId: string, fileId: number): Promise<number | undefined> {
  const { rows } = await sql<{
    id: number;
  }>`SELECT id FROM fancards WHERE service = ${service} AND user_id = ${creatorId} AND file_id = ${fileId} ORDER BY id LIMIT 1`.execute(
    db.k,
  );
  return rows[0]?.id;
}

/** A creator's fancards (GET /v1/fanbox/user/{id}/fancards), newest first, `server` filled in. */
export async function listFancards(db: Store, service: string, creatorId: string, server = ''): Promise<Fancard[]> {
  const { rows } = await sql<
    Omit<Fancard, 'path' | 'server'>
  >`SELECT fc.id, fc.user_id, fc.file_id, f.hash, fc.price, f.mime, f.ext, f.size, fc.added
       FROM fancards fc JOIN files f ON f.id = fc.file_id
      WHERE fc.service = ${service} AND fc.user_id = ${creatorId} ORDER BY fc.added DESC, fc.id DESC`.execute(db.k);
  return rows.map((row) => ({ ...row, path: hashPath(row.hash, row.ext), server }));
}
