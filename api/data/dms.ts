/**
 * Direct messages. Imported DMs start 'pending' for the importing account; approved ones are public
 * (creator DMs tab, global DMs list); 'ignored' ones wait in the account's ignored view.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Store } from './store.ts';
import { recordChange } from './changes.ts';
import type { CreatorFields } from './creators.ts';
import { epochToIso } from '@shared/format.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { inTransaction, likeContains, nowIso, parseJson } from './util.ts';

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

const DM_COLUMNS = sql.raw('d.hash, d.service, d."user", d.content, d.embed, d.file, d.published, d.added');
const ARTIST_COLUMNS = sql.raw(`c.id AS a_id, c.name AS a_name, c.indexed AS a_indexed, c.updated AS a_updated,
  c.public_id AS a_public_id, c.relation_id AS a_relation_id`);

/** SQLite's LIKE ignores ASCII case; PostgreSQL's ILIKE on the "C"-collated content folds ASCII only too. */
function like(db: Store) {
  return sql.raw(db.engine === 'postgres' ? 'ILIKE' : 'LIKE');
}

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
export async function upsertDm(db: Store, input: DmInput): Promise<void> {
  await inTransaction(db, async (db) => {
    const { rows } = await sql<{
      status: DmStatus;
    }>`SELECT status FROM dms WHERE service = ${input.service} AND "user" = ${input.user} AND hash = ${input.hash}`.execute(db.k);
    const existing = rows[0];
    const status = input.status ?? existing?.status ?? 'pending';
    await sql`INSERT INTO dms (service, "user", hash, content, embed, file, published, added, status, account_id, import_id)
       VALUES (${input.service}, ${input.user}, ${input.hash}, ${input.content}, ${input.embed ? JSON.stringify(input.embed) : null},
         ${input.file ? JSON.stringify(input.file) : null}, ${input.published ?? null}, ${input.added ?? nowIso()}, ${status},
         ${input.account_id ?? null}, ${input.import_id ?? null})
       ON CONFLICT (service, "user", hash) DO UPDATE SET content = excluded.content, embed = excluded.embed,
         file = excluded.file, published = excluded.published, status = excluded.status,
         account_id = coalesce(excluded.account_id, dms.account_id), import_id = coalesce(excluded.import_id, dms.import_id)`.execute(db.k);
    if (status === 'approved' || existing?.status === 'approved') {
      await recordChange(db, { kind: 'dm', action: 'upsert', service: input.service, creator_id: input.user, ref: input.hash });
    }
  });
}

/** A creator's approved DMs, newest published first. */
export async function listCreatorDms(db: Store, service: string, creatorId: string, offset = 0, limit = PAGE_SIZE): Promise<Dm[]> {
  // NULLS LAST: SQLite's order (NULL lowest) on PostgreSQL too.
  const { rows } =
    await sql<DmRow>`SELECT ${DM_COLUMNS} FROM dms d WHERE d.service = ${service} AND d."user" = ${creatorId} AND d.status = 'approved'
      ORDER BY d.published DESC NULLS LAST, d.hash DESC LIMIT ${limit} OFFSET ${offset}`.execute(db.k);
  return rows.map(toDm);
}

/** The number of a creator's approved DMs, as a subquery for a statement that reads other counts beside it. */
export function creatorDmCountQuery(service: string, creatorId: string): RawBuilder<number> {
  return sql<number>`(SELECT count(*) FROM dms WHERE service = ${service} AND "user" = ${creatorId} AND status = 'approved')`;
}

/** Number of a creator's approved DMs. */
export async function countCreatorDms(db: Store, service: string, creatorId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT ${creatorDmCountQuery(service, creatorId)} AS n`.execute(db.k);
  return Number(rows[0].n);
}

/**
 * All approved DMs, most recently added first, with their artist. `q` (callers enforce the
 * 3-character minimum) filters on the content.
 */
export async function listDms(db: Store, options: { q?: string | null; offset?: number; limit?: number } = {}): Promise<DmWithArtist[]> {
  const offset = options.offset ?? 0;
  const limit = options.limit ?? PAGE_SIZE;
  const base = sql`SELECT ${DM_COLUMNS}, ${ARTIST_COLUMNS} FROM dms d
    LEFT JOIN creators c ON c.service = d.service AND c.id = d."user" WHERE d.status = 'approved'`;
  const filter = options.q ? sql`AND d.content ${like(db)} ${likeContains(options.q)} ESCAPE '\\'` : sql``;
  const { rows } = await sql<DmArtistRow>`${base} ${filter} ORDER BY d.added DESC, d.hash DESC LIMIT ${limit} OFFSET ${offset}`.execute(
    db.k,
  );
  return rows.map(toDmWithArtist);
}

/** Number of approved DMs (matching `q`). */
export async function countDms(db: Store, options: { q?: string | null } = {}): Promise<number> {
  const filter = options.q ? sql`AND content ${like(db)} ${likeContains(options.q)} ESCAPE '\\'` : sql``;
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM dms WHERE status = 'approved' ${filter}`.execute(db.k);
  return Number(rows[0].n);
}

/** DMs an account imported that wait in review ('pending' or 'ignored'), newest first, with artist. */
export async function listDmsForReview(db: Store, accountId: number, status: 'pending' | 'ignored' = 'pending'): Promise<DmWithArtist[]> {
  const { rows } = await sql<DmArtistRow>`SELECT ${DM_COLUMNS}, ${ARTIST_COLUMNS} FROM dms d
       LEFT JOIN creators c ON c.service = d.service AND c.id = d."user"
      WHERE d.account_id = ${accountId} AND d.status = ${status} ORDER BY d.added DESC, d.hash DESC`.execute(db.k);
  return rows.map(toDmWithArtist);
}

/** Whether the account has DMs pending review (the Review DMs dot). */
export async function hasPendingDms(db: Store, accountId: number): Promise<boolean> {
  const { rows } = await sql`SELECT 1 AS one FROM dms WHERE account_id = ${accountId} AND status = 'pending' LIMIT 1`.execute(db.k);
  return rows.length > 0;
}

const REVIEW_CHUNK = 500;

/**
 * Review of an account's DMs: the DMs with the given hashes (pending or ignored, imported by this
 * account) become approved; with `deleteIgnored` the account's ignored DMs (not approved now) are
 * deleted; then with `ignoreRest` the account's other pending DMs become ignored (kept for the ignored
 * view). Records a 'dm' change per approved DM.
 */
export async function reviewDms(
  db: Store,
  accountId: number,
  approvedHashes: string[],
  options: { ignoreRest?: boolean; deleteIgnored?: boolean } = {},
): Promise<{ approved: number; ignored: number; deleted: number }> {
  return await inTransaction(db, async (db) => {
    let approved = 0;
    const unique = [...new Set(approvedHashes)];
    // In chunks: a request may carry more hashes than an engine allows bound parameters.
    for (let start = 0; start < unique.length; start += REVIEW_CHUNK) {
      const chunk = unique.slice(start, start + REVIEW_CHUNK);
      const { rows } = await sql<{
        service: string;
        user: string;
        hash: string;
      }>`SELECT service, "user", hash FROM dms WHERE account_id = ${accountId} AND status IN ('pending', 'ignored')
           AND hash IN (${sql.join(chunk)})`.execute(db.k);
      for (const row of rows) {
        await sql`UPDATE dms SET status = 'approved' WHERE service = ${row.service} AND "user" = ${row.user} AND hash = ${row.hash}`.execute(
          db.k,
        );
        await recordChange(db, { kind: 'dm', action: 'upsert', service: row.service, creator_id: row.user, ref: row.hash });
      }
      approved += rows.length;
    }
    // Delete before ignoring: a delete only ever takes DMs the user has seen in the ignored view.
    const deleted = options.deleteIgnored
      ? Number((await sql`DELETE FROM dms WHERE account_id = ${accountId} AND status = 'ignored'`.execute(db.k)).numAffectedRows ?? 0)
      : 0;
    const ignored = options.ignoreRest
      ? Number(
          (await sql`UPDATE dms SET status = 'ignored' WHERE account_id = ${accountId} AND status = 'pending'`.execute(db.k))
            .numAffectedRows ?? 0,
        )
      : 0;
    return { approved, ignored, deleted };
  });
}
