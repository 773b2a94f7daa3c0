/**
 * Auto-import keys: session keys that signed-in users asked to keep, stored encrypted for the operator
 * (api/importer/key-crypto.ts) and recognised by an HMAC fingerprint, never by decrypting. Nothing here
 * returns a key in clear: the server cannot open them. Not archive data: no change-log rows.
 */
import { sql } from 'kysely';
import type { Store } from './store.ts';
import { inTransaction, nowIso } from './util.ts';

export interface AutoImportKey {
  id: number;
  service: string;
  dead: boolean;
  added: string;
  last_used_at: string | null;
  import_ids: string[];
}

/** Stores an encrypted session key for auto-import. @returns its id */
export async function addAutoImportKey(
  db: Store,
  input: { service: string; encrypted_key: Buffer; account_id?: number | null; added?: string },
): Promise<number> {
  const row = await db.k
    .insertInto('auto_import_keys')
    .values({
      service: input.service,
      encrypted_key: input.encrypted_key,
      account_id: input.account_id ?? null,
      dead: 0,
      added: input.added ?? nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Stores a sealed key under its fingerprint, or, when the owner already has a key with that fingerprint,
 * replaces its blob (sealed for the current operator key) and marks it alive again: submitting a key
 * again says it works. @returns the key's id
 */
export async function upsertKeyByFingerprint(
  db: Store,
  input: { service: string; encrypted_key: Buffer; account_id: number | null; fingerprint: string; auto_import?: boolean },
): Promise<number> {
  // The latest submission's choice decides whether rounds import the key (migration 009).
  const autoImport = input.auto_import ? 1 : 0;
  // Guests' keys (no account) share owner 0, as the unique index (fingerprint, coalesce(account_id, 0)) does.
  const owner = input.account_id ?? 0;
  return await inTransaction(db, async (db) => {
    const { rows } = await sql<{ id: number }>`
      SELECT id FROM auto_import_keys WHERE fingerprint = ${input.fingerprint} AND coalesce(account_id, 0) = ${owner}`.execute(db.k);
    const existing = rows[0];
    if (existing) {
      await sql`UPDATE auto_import_keys SET encrypted_key = ${input.encrypted_key}, dead = 0, auto_import = ${autoImport} WHERE id = ${existing.id}`.execute(
        db.k,
      );
      return Number(existing.id);
    }
    const row = await db.k
      .insertInto('auto_import_keys')
      .values({
        service: input.service,
        encrypted_key: input.encrypted_key,
        account_id: input.account_id,
        dead: 0,
        added: nowIso(),
        fingerprint: input.fingerprint,
        auto_import: autoImport,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  });
}

/** An account's stored keys (never the key material) with the ids of imports that used them. */
export async function listAccountKeys(db: Store, accountId: number): Promise<AutoImportKey[]> {
  const keys = await sql<{ id: number; service: string; dead: number; added: string; last_used_at: string | null }>`
    SELECT id, service, dead, added, last_used_at FROM auto_import_keys WHERE account_id = ${accountId} ORDER BY id`.execute(db.k);
  if (keys.rows.length === 0) return [];
  // One query for every key's imports, oldest first (the id breaks ties so both engines agree).
  const imports = await sql<{ key_id: number; id: string }>`
    SELECT key_id, id FROM imports
     WHERE key_id IN (SELECT id FROM auto_import_keys WHERE account_id = ${accountId})
     ORDER BY created_at, id`.execute(db.k);
  const byKey = new Map<number, string[]>();
  for (const row of imports.rows) {
    const list = byKey.get(row.key_id);
    if (list) list.push(row.id);
    else byKey.set(row.key_id, [row.id]);
  }
  return keys.rows.map((key) => ({ ...key, dead: key.dead === 1, import_ids: byKey.get(key.id) ?? [] }));
}

/** Deletes keys of an account (only its own). @returns how many were deleted */
export async function revokeKeys(db: Store, accountId: number, keyIds: number[]): Promise<number> {
  if (keyIds.length === 0) return 0;
  return await inTransaction(db, async (db) => {
    await sql`UPDATE imports SET key_id = NULL
       WHERE key_id IN (SELECT id FROM auto_import_keys WHERE account_id = ${accountId} AND id IN (${sql.join(keyIds)}))`.execute(db.k);
    const result = await sql`DELETE FROM auto_import_keys WHERE account_id = ${accountId} AND id IN (${sql.join(keyIds)})`.execute(db.k);
    return Number(result.numAffectedRows ?? 0);
  });
}

/** Marks a key dead (its session expired). */
export async function markKeyDead(db: Store, keyId: number): Promise<boolean> {
  const result = await sql`UPDATE auto_import_keys SET dead = 1 WHERE id = ${keyId}`.execute(db.k);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** One key with its encrypted blob (administrator decryption of contributed keys), or undefined. */
export async function getAutoImportKey(db: Store, keyId: number) {
  const { rows } = await sql<{
    id: number;
    service: string;
    encrypted_key: Buffer;
    account_id: number | null;
    dead: number;
    added: string;
  }>`
    SELECT id, service, encrypted_key, account_id, dead, added FROM auto_import_keys WHERE id = ${keyId}`.execute(db.k);
  return rows[0];
}
