/**
 * Auto-import keys: session keys that signed-in users asked to keep, stored encrypted for the operator
 * (api/importer/key-crypto.ts) and recognised by an HMAC fingerprint, never by decrypting. Nothing here
 * returns a key in clear: the server cannot open them. Not archive data: no change-log rows.
 */
import { stmt, type Db } from './db.ts';
import { inTransaction, nowIso, placeholders } from './util.ts';

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
  db: Db,
  input: { service: string; encrypted_key: Buffer; account_id?: number | null; added?: string },
): Promise<number> {
  return Number(
    stmt(db, 'INSERT INTO auto_import_keys (service, encrypted_key, account_id, dead, added) VALUES (?, ?, ?, 0, ?)').run(
      input.service,
      input.encrypted_key,
      input.account_id ?? null,
      input.added ?? nowIso(),
    ).lastInsertRowid,
  );
}

/**
 * Stores a sealed key under its fingerprint, or, when the owner already has a key with that fingerprint,
 * replaces its blob (sealed for the current operator key) and marks it alive again: submitting a key
 * again says it works. @returns the key's id
 */
export async function upsertKeyByFingerprint(
  db: Db,
  input: { service: string; encrypted_key: Buffer; account_id: number | null; fingerprint: string; auto_import?: boolean },
): Promise<number> {
  // The latest submission's choice decides whether rounds import the key (migration 009).
  const autoImport = input.auto_import ? 1 : 0;
  return await inTransaction(db, async (db) => {
    const existing = stmt<{ id: number }>(
      db,
      'SELECT id FROM auto_import_keys WHERE fingerprint = ? AND ifnull(account_id, 0) = ifnull(?, 0)',
    ).get(input.fingerprint, input.account_id);
    if (existing) {
      stmt(db, 'UPDATE auto_import_keys SET encrypted_key = ?, dead = 0, auto_import = ? WHERE id = ?').run(
        input.encrypted_key,
        autoImport,
        existing.id,
      );
      return existing.id;
    }
    const id = await addAutoImportKey(db, input);
    stmt(db, 'UPDATE auto_import_keys SET fingerprint = ?, auto_import = ? WHERE id = ?').run(input.fingerprint, autoImport, id);
    return id;
  });
}

/** An account's stored keys (never the key material) with the ids of imports that used them. */
export async function listAccountKeys(db: Db, accountId: number): Promise<AutoImportKey[]> {
  const keys = stmt<{ id: number; service: string; dead: number; added: string; last_used_at: string | null }>(
    db,
    'SELECT id, service, dead, added, last_used_at FROM auto_import_keys WHERE account_id = ? ORDER BY id',
  ).all(accountId);
  const imports = stmt<{ id: string }>(db, 'SELECT id FROM imports WHERE key_id = ? ORDER BY created_at');
  return keys.map((key) => ({ ...key, dead: key.dead === 1, import_ids: imports.all(key.id).map((r) => r.id) }));
}

/** Deletes keys of an account (only its own). @returns how many were deleted */
export async function revokeKeys(db: Db, accountId: number, keyIds: number[]): Promise<number> {
  if (keyIds.length === 0) return 0;
  return await inTransaction(db, async (db) => {
    stmt(
      db,
      `UPDATE imports SET key_id = NULL WHERE key_id IN (SELECT id FROM auto_import_keys WHERE account_id = ? AND id IN (${placeholders(keyIds.length)}))`,
    ).run(accountId, ...keyIds);
    return stmt(db, `DELETE FROM auto_import_keys WHERE account_id = ? AND id IN (${placeholders(keyIds.length)})`).run(
      accountId,
      ...keyIds,
    ).changes;
  });
}

/** Marks a key dead (its session expired). */
export async function markKeyDead(db: Db, keyId: number): Promise<boolean> {
  return stmt(db, 'UPDATE auto_import_keys SET dead = 1 WHERE id = ?').run(keyId).changes > 0;
}

/** One key with its encrypted blob (administrator decryption of contributed keys), or undefined. */
export async function getAutoImportKey(db: Db, keyId: number) {
  return stmt<{ id: number; service: string; encrypted_key: Buffer; account_id: number | null; dead: number; added: string }>(
    db,
    'SELECT id, service, encrypted_key, account_id, dead, added FROM auto_import_keys WHERE id = ?',
  ).get(keyId);
}
