/**
 * Password hashing: argon2id with @node-rs/argon2's defaults (19 MiB, 2 passes), run off the main
 * thread by the library. Login for an unknown username verifies against DUMMY_HASH, a real hash of
 * the same parameters, so both answers take the same time and say the same thing.
 */
import { hash, verify } from '@node-rs/argon2';

/** The PHC string form argon2 hashes are stored in: $argon2id$v=19$m=...,t=...,p=...$salt$hash. */
const ARGON2_HASH = /^\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** A hash of a random password nobody knows, made once per process with the same parameters as real ones. */
let dummyHash: Promise<string> | undefined;
function dummy(): Promise<string> {
  dummyHash ??= hash(`no account has this password ${Math.random()}`);
  return dummyHash;
}

/**
 * Whether `password` matches `stored`. Without a stored hash (unknown username) the dummy hash is
 * verified anyway and the answer is false. A malformed stored hash counts as a mismatch.
 */
export async function checkPassword(stored: string | undefined, password: string): Promise<boolean> {
  if (stored === undefined) {
    await verify(await dummy(), password).catch(() => false);
    return false;
  }
  // A stored value that is not an argon2 hash (a damaged row) matches nothing; verify would throw on it.
  if (!ARGON2_HASH.test(stored)) return false;
  return verify(stored, password);
}
