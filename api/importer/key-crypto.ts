/**
 * Session keys at rest (README.md#session-keys): each key is sealed with a fresh AES-256-GCM data key, and
 * only that data key is wrapped with the operator's RSA public key (RSA-OAEP-SHA256), because RSA alone
 * cannot carry a long key (gumroad's go up to 1024 characters) and hybrid sealing keeps the server able
 * to encrypt while only the operator, holding the private key off the server, can decrypt.
 *
 * The sealed form is one self-describing JSON envelope (UTF-8 bytes, stored as a BLOB):
 *   { v: 1, alg, kid, wrapped_key, iv, tag, ciphertext }   (binary fields base64)
 * `kid` is the SHA-256 of the public key (DER) so a decryption with the wrong private key is named as
 * such before any RSA work; the GCM tag makes any change to the ciphertext, iv or tag detectable.
 */
import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHash,
  createPublicKey,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  type KeyObject,
} from 'node:crypto';

export const ENVELOPE_VERSION = 1;
export const ENVELOPE_ALGORITHM = 'RSA-OAEP-SHA256/AES-256-GCM';

export interface KeyEnvelope {
  v: typeof ENVELOPE_VERSION;
  alg: typeof ENVELOPE_ALGORITHM;
  kid: string;
  wrapped_key: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

/** Why a sealed key could not be opened; never carries key material. */
export class KeyDecryptionError extends Error {
  override name = 'KeyDecryptionError';
}

/** Hex SHA-256 of a public key's DER form (a private key is reduced to its public half). */
export function publicKeyId(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256')
    .update(pub.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

function oaep(key: KeyObject) {
  return { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' };
}

/** Seals a session key for the holder of `publicKey`'s private half. */
export function encryptSessionKey(plain: string, publicKey: KeyObject): Buffer {
  const dataKey = randomBytes(32);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', dataKey, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const envelope: KeyEnvelope = {
    v: ENVELOPE_VERSION,
    alg: ENVELOPE_ALGORITHM,
    kid: publicKeyId(publicKey),
    wrapped_key: publicEncrypt(oaep(publicKey), dataKey).toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ciphertext: ciphertext.toString('base64'),
  };
  dataKey.fill(0);
  return Buffer.from(JSON.stringify(envelope), 'utf8');
}

/** Reads an envelope's fields; throws KeyDecryptionError when it is not one this version wrote. */
export function parseEnvelope(sealed: Buffer | Uint8Array): KeyEnvelope {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(sealed).toString('utf8'));
  } catch (error) {
    throw new KeyDecryptionError('Not a key envelope.', { cause: error });
  }
  const e = value as Partial<KeyEnvelope> | null;
  if (!e || typeof e !== 'object') throw new KeyDecryptionError('Not a key envelope.');
  if (e.v !== ENVELOPE_VERSION || e.alg !== ENVELOPE_ALGORITHM) throw new KeyDecryptionError('Unsupported key envelope version.');
  for (const field of ['kid', 'wrapped_key', 'iv', 'tag', 'ciphertext'] as const) {
    if (typeof e[field] !== 'string') throw new KeyDecryptionError(`Key envelope lacks ${field}.`);
  }
  return e as KeyEnvelope;
}

/** Opens a sealed session key with the operator's private key. */
export function decryptSessionKey(sealed: Buffer | Uint8Array, privateKey: KeyObject): string {
  const envelope = parseEnvelope(sealed);
  if (envelope.kid !== publicKeyId(privateKey)) {
    throw new KeyDecryptionError('The key was sealed for another operator key.');
  }
  let dataKey: Buffer;
  try {
    dataKey = privateDecrypt(oaep(privateKey), Buffer.from(envelope.wrapped_key, 'base64'));
  } catch (error) {
    throw new KeyDecryptionError('The data key could not be unwrapped.', { cause: error });
  }
  try {
    const iv = Buffer.from(envelope.iv, 'base64');
    const tag = Buffer.from(envelope.tag, 'base64');
    if (dataKey.length !== 32 || iv.length !== 12 || tag.length !== 16) throw new Error('bad lengths');
    const decipher = createDecipheriv('aes-256-gcm', dataKey, iv, { authTagLength: 16 });
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(envelope.ciphertext, 'base64')), decipher.final()]).toString('utf8');
  } catch (error) {
    throw new KeyDecryptionError('The key envelope was altered or is corrupt.', { cause: error });
  } finally {
    dataKey.fill(0);
  }
}
