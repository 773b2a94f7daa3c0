/**
 * Direct messages. Imported DMs start 'pending' for the importing account; approved ones are public
 * (creator DMs tab, global DMs list); 'ignored' ones wait in the account's ignored view.
 */
import { stmt, type Db } from './db.ts';
import { recordChange } from './changes.ts';
import type { CreatorFields } from './creators.ts';
import { epochToIso } from '@shared/format.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { inTransaction, likeContains, nowIso, parseJson, placeholders } from './util.ts';

export type DmStatus = 'approved' | 'pending' | 'ignored';

export interface Dm {
  hash: string;
  service: string;
  user: string;
  /** The creator's id (same as `user`). */
  user_id: string;
  content: string;
  embed: Record<string, unknown>;
  file: { name?: string | null; path?: string } | Record<string, never>;
  published: string | null;
  added: string;
}

export interface DmWithArtist extends Dm {
  /** The creator with indexed/updated as ISO dates, or null when the creator row is missing. */
  artist: CreatorFields<string> | null;
}

export interface DmInput {
  service: string;
  user: string;
  hash: string;
  content: string;
  embed?: Record<string, unknown> | null;
  file?: { name?: string | null; path: string } | null;
  published?: string | null;
  added?: string | null;
  status?: DmStatus;
  account_id?: number | null;
  import_id?: string | null;
}

interface DmRow {
  hash: string;
  service: string;
  user: string;
  content: string;
  embed: string | null;
  file: string | null;
  published: string | null;
  added: string;
}

interface DmArtistRow extends DmRow {
  a_id: string | null;
  a_name: string | null;
  a_indexed: number | null;
  a_updated: number | null;
  a_public_id: string | null;
  a_relation_id: number | null;
}

const DM_COLUMNS = 'd.hash, d.service, d."user", d.content, d.embed, d.file, d.published, d.added';
const ARTIST_COLUMNS = `c.id AS a_id, c.name AS a_name, c.indexed AS a_indexed, c.updated AS a_updated,
  c.public_id AS a_public_id, c.relation_id AS a_relation_id`;

function toDm(row: DmRow): Dm {
  return {
    hash: row.hash,
    service: row.service,
    user: row.user,
    user_id: row.user,
    content: row.content,
    embed: parseJson<Record<string, unknown>>(row.embed, {}),
    file: parseJson<Dm['file']>(row.file, {}),
    published: row.published,
    added: row.added,
  };
}

function toDmWithArtist(row: DmArtistRow): DmWithArtist {
  return {
    ...toDm(row),
    artist:
      row.a_id === null
        ? null
        : {
            id: row.a_id,
            name: row.a_name ?? '',
            service: row.service,
            indexed: epochToIso(row.a_indexed),
            updated: epochToIso(row.a_updated),
            public_id: row.a_public_id,
            relation_id: row.a_relation_id,
          },
  };
}

/**
 * Inserts or updates a DM. A new DM is 'pending' unless a status is given; an existing DM keeps its
 * status unless one is given. Records a 'dm' change when the DM is (or was) public.
 */
export async function upsertDm(db: Db, input: DmInput): Promise<void> {
  await inTransaction(db, async (db) => {
    const existing = stmt<{ status: DmStatus }>(db, 'SELECT status FROM dms WHERE service = ? AND "user" = ? AND hash = ?').get(
      input.service,
      input.user,
      input.hash,
    );
    const status = input.status ?? existing?.status ?? 'pending';
    stmt(
      db,
      `INSERT INTO dms (service, "user", hash, content, embed, file, published, added, status, account_id, import_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (service, "user", hash) DO UPDATE SET content = excluded.content, embed = excluded.embed,
         file = excluded.file, published = excluded.published, status = excluded.status,
         account_id = coalesce(excluded.account_id, dms.account_id), import_id = coalesce(excluded.import_id, dms.import_id)`,
    ).run(
      input.service,
      input.user,
      input.hash,
      input.content,
      input.embed ? JSON.stringify(input.embed) : null,
      input.file ? JSON.stringify(input.file) : null,
      input.published ?? null,
      input.added ?? nowIso(),
      status,
      input.account_id ?? null,
      input.import_id ?? null,
    );
    if (status === 'approved' || existing?.status === 'approved') {
      await recordChange(db, { kind: 'dm', action: 'upsert', service: input.service, creator_id: input.user, ref: input.hash });
    }
  });
}

/** A creator's approved DMs, newest published first. */
export async function listCreatorDms(db: Db, service: string, creatorId: string, offset = 0, limit = PAGE_SIZE): Promise<Dm[]> {
  return stmt<DmRow>(
    db,
    `SELECT ${DM_COLUMNS} FROM dms d WHERE d.service = ? AND d."user" = ? AND d.status = 'approved'
      ORDER BY d.published DESC, d.hash DESC LIMIT ? OFFSET ?`,
  )
    .all(service, creatorId, limit, offset)
    .map(toDm);
}

/** Number of a creator's approved DMs. */
export async function countCreatorDms(db: Db, service: string, creatorId: string): Promise<number> {
  return stmt<{ n: number }>(db, `SELECT count(*) AS n FROM dms WHERE service = ? AND "user" = ? AND status = 'approved'`).get(
    service,
    creatorId,
  )!.n;
}

/**
 * All approved DMs, most recently added first, with their artist. `q` (callers enforce the
 * 3-character minimum) filters on the content.
 */
export async function listDms(db: Db, options: { q?: string | null; offset?: number; limit?: number } = {}): Promise<DmWithArtist[]> {
  const offset = options.offset ?? 0;
  const limit = options.limit ?? PAGE_SIZE;
  const base = `SELECT ${DM_COLUMNS}, ${ARTIST_COLUMNS} FROM dms d
    LEFT JOIN creators c ON c.service = d.service AND c.id = d."user" WHERE d.status = 'approved'`;
  const rows = options.q
    ? stmt<DmArtistRow>(db, `${base} AND d.content LIKE ? ESCAPE '\\' ORDER BY d.added DESC, d.hash DESC LIMIT ? OFFSET ?`).all(
        likeContains(options.q),
        limit,
        offset,
      )
    : stmt<DmArtistRow>(db, `${base} ORDER BY d.added DESC, d.hash DESC LIMIT ? OFFSET ?`).all(limit, offset);
  return rows.map(toDmWithArtist);
}

/** Number of approved DMs (matching `q`). */
export async function countDms(db: Db, options: { q?: string | null } = {}): Promise<number> {
  return options.q
    ? stmt<{ n: number }>(db, `SELECT count(*) AS n FROM dms WHERE status = 'approved' AND content LIKE ? ESCAPE '\\'`).get(
        likeContains(options.q),
      )!.n
    : stmt<{ n: number }>(db, `SELECT count(*) AS n FROM dms WHERE status = 'approved'`).get()!.n;
}

/** DMs an account imported that wait in review ('pending' or 'ignored'), newest first, with artist. */
export async function listDmsForReview(db: Db, accountId: number, status: 'pending' | 'ignored' = 'pending'): Promise<DmWithArtist[]> {
  return stmt<DmArtistRow>(
    db,
    `SELECT ${DM_COLUMNS}, ${ARTIST_COLUMNS} FROM dms d
       LEFT JOIN creators c ON c.service = d.service AND c.id = d."user"
      WHERE d.account_id = ? AND d.status = ? ORDER BY d.added DESC, d.hash DESC`,
  )
    .all(accountId, status)
    .map(toDmWithArtist);
}

/** Whether the account has DMs pending review (the Review DMs dot). */
export async function hasPendingDms(db: Db, accountId: number): Promise<boolean> {
  return !!stmt(db, `SELECT 1 FROM dms WHERE account_id = ? AND status = 'pending' LIMIT 1`).get(accountId);
}

const REVIEW_CHUNK = 500;

/**
 * Review of an account's DMs: the DMs with the given hashes (pending or ignored, imported by this
 * account) become approved; with `deleteIgnored` the account's ignored DMs (not approved now) are
 * deleted; then with `ignoreRest` the account's other pending DMs become ignored (kept for the ignored
 * view). Records a 'dm' change per approved DM.
 */
export async function reviewDms(
  db: Db,
  accountId: number,
  approvedHashes: string[],
  options: { ignoreRest?: boolean; deleteIgnored?: boolean } = {},
): Promise<{ approved: number; ignored: number; deleted: number }> {
  return await inTransaction(db, async (db) => {
    let approved = 0;
    const unique = [...new Set(approvedHashes)];
    const approve = stmt(db, `UPDATE dms SET status = 'approved' WHERE service = ? AND "user" = ? AND hash = ?`);
    // In chunks: a request may carry more hashes than SQLite allows bound parameters.
    for (let start = 0; start < unique.length; start += REVIEW_CHUNK) {
      const chunk = unique.slice(start, start + REVIEW_CHUNK);
      const rows = stmt<{ service: string; user: string; hash: string }>(
        db,
        `SELECT service, "user", hash FROM dms WHERE account_id = ? AND status IN ('pending', 'ignored')
           AND hash IN (${placeholders(chunk.length)})`,
      ).all(accountId, ...chunk);
      for (const row of rows) {
        approve.run(row.service, row.user, row.hash);
        await recordChange(db, { kind: 'dm', action: 'upsert', service: row.service, creator_id: row.user, ref: row.hash });
      }
      approved += rows.length;
    }
    // Delete before ignoring: a delete only ever takes DMs the user has seen in the ignored view.
    const deleted = options.deleteIgnored
      ? stmt(db, `DELETE FROM dms WHERE account_id = ? AND status = 'ignored'`).run(accountId).changes
      : 0;
    const ignored = options.ignoreRest
      ? stmt(db, `UPDATE dms SET status = 'ignored' WHERE account_id = ? AND status = 'pending'`).run(accountId).changes
      : 0;
    return { approved, ignored, deleted };
  });
}
