/**
 * scripts/accounts: account administration from the shell (the database of DATA_DIR).
 *   npm run accounts -- create-admin <username>   password from TROVE_ADMIN_PASSWORD, else asked for
 *                                                (hidden) on a terminal, else the first line of stdin
 *   npm run accounts -- list [--role R] [--name N]
 * Usernames and passwords follow the registration rules (docs/product.md#registration-rules). Passwords are
 * never printed.
 */
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { createAccount, getAccountByUsername, listAccounts, countAccounts, type Role } from '../api/data/accounts.ts';
import { closeArchiveDatabase, openArchiveDatabase } from '../api/data/open.ts';
import { hashPassword } from '../api/auth/passwords.ts';
import { config } from '../api/config.ts';
import { ACCOUNT_ROLES, password as passwordRule, username as usernameRule } from '../shared/validation/accounts.ts';
import { firstIssueMessage } from '../shared/validation/rules.ts';
import { countLabel } from '../shared/format.ts';

const USAGE = 'Usage: npm run accounts -- create-admin <username> | list [--role consumer|moderator|administrator] [--name text]';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Reads a line from a terminal without echoing it. */
function askHidden(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    const output = rl as unknown as { _writeToOutput: (text: string) => void };
    process.stdout.write(prompt);
    output._writeToOutput = () => undefined;
    rl.question('', (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
  });
}

async function readStdinLine(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text.split(/\r?\n/)[0] ?? '';
}

async function readPassword(): Promise<string> {
  if (process.env.TROVE_ADMIN_PASSWORD) return process.env.TROVE_ADMIN_PASSWORD;
  if (!process.stdin.isTTY) return readStdinLine();
  const first = await askHidden('Password: ');
  const second = await askHidden('Password again: ');
  if (first !== second) fail("Passwords don't match.");
  return first;
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { role: { type: 'string' }, name: { type: 'string' } },
});
const [command, ...rest] = positionals;
const db = await openArchiveDatabase(config());

if (command === 'create-admin') {
  if (rest.length !== 1) fail(USAGE);
  const name = usernameRule.safeParse(rest[0]);
  if (!name.success) fail(firstIssueMessage(name.error));
  if (await getAccountByUsername(db, name.data)) fail(`The username ${name.data} is already taken.`);
  const secret = passwordRule.safeParse(await readPassword());
  if (!secret.success) fail(firstIssueMessage(secret.error));
  const account = await createAccount(db, { username: name.data, password_hash: await hashPassword(secret.data), role: 'administrator' });
  console.log(`Created administrator ${account.username} (id ${account.id}).`);
} else if (command === 'list') {
  const role = values.role?.trim() || undefined;
  if (role && !(ACCOUNT_ROLES as readonly string[]).includes(role)) fail('Invalid account role.');
  const filter = { name: values.name?.trim() || undefined, role: role as Role | undefined };
  const total = await countAccounts(db, filter);
  const rows = await listAccounts(db, { ...filter, limit: Math.max(total, 1) });
  const width = Math.max(8, ...rows.map((row) => row.username.length));
  console.log(`${'id'.padStart(6)}  ${'username'.padEnd(width)}  ${'role'.padEnd(13)}  joined`);
  for (const row of rows)
    console.log(`${String(row.id).padStart(6)}  ${row.username.padEnd(width)}  ${row.role.padEnd(13)}  ${row.created_at}`);
  console.log(`${countLabel(total, 'account')}.`);
} else {
  fail(USAGE);
}
await closeArchiveDatabase(db);
