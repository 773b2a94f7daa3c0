/**
 * Password hashing: argon2id with @node-rs/argon2's defaults (19 MiB, 2 passes), run off the main
 * thread by the library. Login for an unknown username verifies against DUMMY_HASH, a real hash of
 * the same parameters, so both answers take the same time and say the same thing.
 */
import { hash, verify } from '@node-rs/argon2';

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
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
