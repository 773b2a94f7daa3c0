/**
 * Keeping a submitted session key: sealed with the operator's public key (key-crypto.ts), recognised
 * again by a keyed fingerprint (never by decrypting: the server cannot), and linked to the import that
 * brought it. The plain key lives only in this call's arguments; it is never logged or returned.
 */
import { createHmac } from 'node:crypto';
import type { Store } from '../data/store.ts';
import type { Config } from '../config.ts';
import { getImport, updateImport } from '../data/imports.ts';
import { upsertKeyByFingerprint } from '../data/auto-import-keys.ts';
import { encryptSessionKey } from './key-crypto.ts';
import { fingerprintSecret, operatorPublicKey } from './operator-key.ts';

/** HMAC-SHA256 (hex) of service and key; the NUL keeps 'a'+'bc' apart from 'ab'+'c'. */
export function keyFingerprint(config: Config, service: string, key: string): string {
  return createHmac('sha256', fingerprintSecret(config)).update(`${service}\0${key}`, 'utf8').digest('hex');
}

/**
 * Stores (or finds again) an account's key and links the import to it. When the import row does not
 * exist yet, the caller passes the returned id as createImport's key_id instead.
 * @returns the key's id
 */
export async function saveSubmittedKey(
  db: Store,
  config: Config,
  input: {
    accountId: number;
    service: string;
    /** The session key: what the fingerprint is over. */
    key: string;
    importId: string;
    /** What is sealed (credential.ts credentialText; OnlyFans' carries its extra fields); defaults to key. */
    credential?: string;
    /** Whether auto-import rounds may import it (else it is kept for debugging only). */
    autoImport?: boolean;
  },
): Promise<number> {
  const keyId = await upsertKeyByFingerprint(db, {
    service: input.service,
    encrypted_key: encryptSessionKey(input.credential ?? input.key, operatorPublicKey(config)),
    account_id: input.accountId,
    fingerprint: keyFingerprint(config, input.service, input.key),
    auto_import: input.autoImport ?? false,
  });
  if (await getImport(db, input.importId)) await updateImport(db, input.importId, { key_id: keyId });
  return keyId;
}
