/**
 * The working key: 32 random bytes per data folder (DATA_DIR/secrets/import-work.key, 0600) that seal
 * a submitted session key in its import row for the worker, which may be another process or run after
 * a restart. Unlike the operator key (kept keys, which the server can only encrypt), the server can open
 * this: so the sealed key lives only until the import ends, when endImport wipes it. The import id is
 * the associated data, so a sealed key copied onto another import does not open.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { dataPaths, type Config } from '../config.ts';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const keys = new Map<string, Buffer>();

function workingKey(config: Config): Buffer {
  const dir = dataPaths(config.dataDir).secrets;
  const file = path.join(dir, 'import-work.key');
  const cached = keys.get(file);
  if (cached) return cached;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Written whole under a temporary name and linked into place, so a concurrent reader never sees part of it.
  if (!fs.existsSync(file)) {
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(tmp, randomBytes(32), { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(tmp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
  const key = fs.readFileSync(file);
  if (key.length !== 32) throw new Error(`${file} is not 32 bytes.`);
  keys.set(file, key);
  return key;
}

/** Seals a session key for one import: iv, tag and ciphertext in one buffer. */
export function sealForWorker(config: Config, importId: string, sessionKey: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', workingKey(config), iv);
  cipher.setAAD(Buffer.from(importId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(sessionKey, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

/** A sealed key that does not open: sealed for another import or data folder, cut short, or altered. */
export class SealedKeyError extends Error {}

/** Opens what sealForWorker sealed; throws SealedKeyError when it does not open. */
export function openForWorker(config: Config, importId: string, sealed: Buffer): string {
  const key = workingKey(config);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(importId, 'utf8'));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch (error) {
    // node:crypto throws plain errors here (a short tag, failed authentication).
    throw new SealedKeyError('The sealed key does not open.', { cause: error });
  }
}
