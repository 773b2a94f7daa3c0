/**
 * The operator's public key (encrypts session keys) and the fingerprint secret (dedupes them).
 *
 * Production sets OPERATOR_PUBLIC_KEY to a PEM whose private half stays off the server. For the demo
 * and development, when it is unset, an RSA-4096 pair is generated once into DATA_DIR/operator-keys
 * (public.pem for the server, private.pem 0600 for scripts/decrypt-key.ts, and a README saying the
 * private key must not stay there in production). Several processes may start on one DATA_DIR at
 * once: the first to link its private.pem into place wins; the others read the winner's public.pem.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { dataPaths, type Config } from '../config.ts';

const README = `These keys were generated because OPERATOR_PUBLIC_KEY is not set (demo and development only).

public.pem  encrypts the session keys users submit (the server reads it).
private.pem decrypts them (npx tsx scripts/decrypt-key.ts --private-key private.pem <key id>).

In production the private key must NOT be on the server: generate the pair on another machine,
keep private.pem there (offline), copy only public.pem to the server and point OPERATOR_PUBLIC_KEY at it.
Whoever can read private.pem can read every stored session key.
`;

const publicKeys = new Map<string, KeyObject>();

function sleep(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function readPublic(file: string): KeyObject {
  const key = createPublicKey(fs.readFileSync(file));
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`${file} is not an RSA public key.`);
  return key;
}

function generateDemoPair(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 4096 });
  const tmp = path.join(dir, `.private-${process.pid}-${randomBytes(4).toString('hex')}.pem`);
  fs.writeFileSync(tmp, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(tmp, path.join(dir, 'private.pem'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return; // another process won; its public.pem follows
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  fs.writeFileSync(path.join(dir, 'README.txt'), README);
  const pubTmp = path.join(dir, `.public-${process.pid}.pem`);
  fs.writeFileSync(pubTmp, publicKey.export({ type: 'spki', format: 'pem' }));
  fs.renameSync(pubTmp, path.join(dir, 'public.pem'));
}

/** The public key session keys are sealed with (generating the demo pair on first use). */
export function operatorPublicKey(config: Config): KeyObject {
  const file = config.operatorPublicKey || path.join(dataPaths(config.dataDir).operatorKeys, 'public.pem');
  const cached = publicKeys.get(file);
  if (cached) return cached;
  if (!config.operatorPublicKey && !fs.existsSync(file)) {
    const dir = path.dirname(file);
    if (!fs.existsSync(path.join(dir, 'private.pem'))) generateDemoPair(dir);
    for (let waited = 0; !fs.existsSync(file); waited += 50) {
      if (waited > 30_000) throw new Error(`${file} did not appear.`);
      sleep(50);
    }
  }
  const key = readPublic(file);
  publicKeys.set(file, key);
  return key;
}

const secrets = new Map<string, Buffer>();

/**
 * The HMAC key of session-key fingerprints: 32 random bytes made once per DATA_DIR. Keyed, so the
 * database alone cannot confirm a guessed key; losing it only stops old keys from being recognised.
 */
export function fingerprintSecret(config: Config): Buffer {
  const dir = dataPaths(config.dataDir).secrets;
  const file = path.join(dir, 'key-fingerprint.secret');
  const cached = secrets.get(file);
  if (cached) return cached;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, randomBytes(32), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  let secret = fs.readFileSync(file);
  // A concurrent creator may not have finished writing its 32 bytes yet.
  for (let waited = 0; secret.length < 32 && waited < 5_000; waited += 20) {
    sleep(20);
    secret = fs.readFileSync(file);
  }
  if (secret.length < 32) throw new Error(`${file} is shorter than 32 bytes.`);
  secrets.set(file, secret);
  return secret;
}
