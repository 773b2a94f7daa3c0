/** Sealing session keys: round trip, the envelope's shape, tampering and a wrong private key refused. */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { decryptSessionKey, encryptSessionKey, KeyDecryptionError, parseEnvelope, publicKeyId } from '@api/importer/key-crypto.ts';

let operator: { publicKey: KeyObject; privateKey: KeyObject };
let other: { publicKey: KeyObject; privateKey: KeyObject };
const SECRET = 'session-key-' + 'x'.repeat(1000) + '-ünïcødé';

beforeAll(() => {
  operator = generateKeyPairSync('rsa', { modulusLength: 4096 });
  other = generateKeyPairSync('rsa', { modulusLength: 4096 });
}, 60_000);

function tampered(sealed: Buffer, field: 'wrapped_key' | 'iv' | 'tag' | 'ciphertext'): Buffer {
  const envelope = JSON.parse(sealed.toString('utf8'));
  const bytes = Buffer.from(envelope[field], 'base64');
  bytes[bytes.length - 1] ^= 0x01;
  envelope[field] = bytes.toString('base64');
  return Buffer.from(JSON.stringify(envelope));
}

describe('key-crypto', () => {
  it('round-trips a long key, sealing it differently every time, never in the clear', () => {
    const a = encryptSessionKey(SECRET, operator.publicKey);
    const b = encryptSessionKey(SECRET, operator.publicKey);
    expect(a.equals(b)).toBe(false);
    expect(a.toString('utf8')).not.toContain('session-key-');
    expect(decryptSessionKey(a, operator.privateKey)).toBe(SECRET);
    expect(decryptSessionKey(b, operator.privateKey)).toBe(SECRET);
  });

  it('writes a self-describing envelope naming the operator key', () => {
    const envelope = parseEnvelope(encryptSessionKey('k', operator.publicKey));
    expect(envelope).toMatchObject({ v: 1, alg: 'RSA-OAEP-SHA256/AES-256-GCM', kid: publicKeyId(operator.publicKey) });
    expect(publicKeyId(operator.privateKey)).toBe(envelope.kid);
    expect(Buffer.from(envelope.wrapped_key, 'base64')).toHaveLength(512);
    expect(Buffer.from(envelope.iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(envelope.tag, 'base64')).toHaveLength(16);
  });

  it('detects any altered field', () => {
    const sealed = encryptSessionKey(SECRET, operator.publicKey);
    for (const field of ['wrapped_key', 'iv', 'tag', 'ciphertext'] as const) {
      expect(() => decryptSessionKey(tampered(sealed, field), operator.privateKey), field).toThrow(KeyDecryptionError);
    }
    const swapped = JSON.parse(sealed.toString());
    swapped.kid = publicKeyId(other.publicKey);
    expect(() => decryptSessionKey(Buffer.from(JSON.stringify(swapped)), operator.privateKey)).toThrow(KeyDecryptionError);
  });

  it('refuses the wrong private key, also when the key id is forged to match', () => {
    const sealed = encryptSessionKey(SECRET, operator.publicKey);
    expect(() => decryptSessionKey(sealed, other.privateKey)).toThrow(/another operator key/);
    const forged = JSON.parse(sealed.toString());
    forged.kid = publicKeyId(other.publicKey);
    expect(() => decryptSessionKey(Buffer.from(JSON.stringify(forged)), other.privateKey)).toThrow(/could not be unwrapped/);
  });

  it('refuses what is not an envelope, without echoing it', () => {
    for (const blob of [
      Buffer.from('not json'),
      Buffer.from('null'),
      Buffer.from('{"v":2}'),
      Buffer.from('{"v":1,"alg":"RSA-OAEP-SHA256/AES-256-GCM"}'),
    ]) {
      expect(() => decryptSessionKey(blob, operator.privateKey)).toThrow(KeyDecryptionError);
    }
    try {
      decryptSessionKey(tampered(encryptSessionKey(SECRET, operator.publicKey), 'ciphertext'), operator.privateKey);
    } catch (error) {
      expect(String(error)).not.toContain('session-key-');
    }
  });
});
