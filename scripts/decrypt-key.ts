/**
 * scripts/decrypt-key: an administrator opens one stored session key offline, for debugging an import.
 *   npx tsx scripts/decrypt-key.ts --private-key <private.pem> <key id>           checks that it opens
 *   npx tsx scripts/decrypt-key.ts --private-key <private.pem> --print <key id>   writes it to stdout
 * An OnlyFans key prints as the JSON of its four fields (session_key, auth_id, x-bc, user_agent).
 * Uses the database of DATA_DIR. Only the key itself, and only with --print, goes to standard output
 * (so it can be piped); what the script says goes to standard error and never contains the key.
 */
import fs from 'node:fs';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { parseArgs } from 'node:util';
import { closeArchiveDatabase, missingArchiveDatabase, openArchiveDatabase } from '../api/data/open.ts';
import { getAutoImportKey } from '../api/data/auto-import-keys.ts';
import { parseOnlyfansCredential } from '../api/importer/credential.ts';
import { decryptSessionKey, KeyDecryptionError } from '../api/importer/key-crypto.ts';
import { config } from '../api/config.ts';

const USAGE = 'Usage: npx tsx scripts/decrypt-key.ts --private-key <private.pem> [--print] <key id>';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function parseArguments() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: { 'private-key': { type: 'string' }, print: { type: 'boolean', default: false } },
    });
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
}
const { values, positionals } = parseArguments();
if (!values['private-key'] || positionals.length !== 1) fail(USAGE);
const id = positionals[0]!;
if (!/^\d+$/.test(id) || !Number.isSafeInteger(Number(id))) fail(`Invalid key ID "${id}".`);

let privateKey: KeyObject;
try {
  privateKey = createPrivateKey(fs.readFileSync(values['private-key']));
} catch (error) {
  fail(`Cannot read the private key ${values['private-key']}: ${(error as NodeJS.ErrnoException).code ?? 'not a private key'}.`);
}

const settings = config();
const missing = missingArchiveDatabase(settings);
if (missing) fail(missing);
const db = await openArchiveDatabase(settings);
const row = await getAutoImportKey(db, Number(id));
await closeArchiveDatabase(db);
if (!row) fail(`Key ${id} not found.`);

let plain: string;
try {
  plain = decryptSessionKey(row.encrypted_key, privateKey);
} catch (error) {
  fail(`Key ${id} could not be decrypted: ${error instanceof KeyDecryptionError ? error.message : 'unexpected error.'}`);
}
if (values.print) {
  process.stdout.write(plain);
  if (process.stdout.isTTY) process.stdout.write('\n');
} else {
  // OnlyFans keys are kept with the fields its requests need (api/importer/credential.ts); say so, never what they are.
  const what = parseOnlyfansCredential(plain) ? ' (an OnlyFans credential: JSON of session_key, auth_id, x-bc and user_agent)' : '';
  console.error(
    `Key ${id} (${row.service}, ${row.dead ? 'dead' : 'alive'}, added ${row.added}) decrypts${what}; pass --print to write it to standard output.`,
  );
}
