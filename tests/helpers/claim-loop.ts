/**
 * One import worker's claim loop in its own process, for the claim race of tests/api/data/imports.test.ts:
 * `node --import tsx tests/helpers/claim-loop.ts <sqlite file | postgres url> <owner>` opens its own
 * connection, says `ready`, waits for a line on stdin (so that every claimer starts at once), claims until
 * nothing is left and prints the claimed ids as JSON on the next line.
 */
import { openDatabase } from '@api/data/db.ts';
import { claimNextImport } from '@api/data/imports.ts';
import { closeStore, postgresStore, type Store } from '@api/data/store.ts';

const [target, owner] = process.argv.slice(2);
const postgres = target.startsWith('postgres');
const db: Store = postgres ? postgresStore(target, { max: 1 }) : openDatabase(target);
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const claimed: string[] = [];
for (;;) {
  const job = await claimNextImport(db, owner, '2999-01-01T00:00:00.000Z');
  if (!job) break;
  claimed.push(job.id);
}
if (postgres) await closeStore(db);
else db.sqlite?.close();
process.stdout.write(JSON.stringify(claimed));
process.exit(0);
