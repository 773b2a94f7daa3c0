/**
 * scripts/backup: a backup of DATA_DIR into a new folder, taken while the server runs and writes.
 *   npm run backup -- <dir> [--force]    --force replaces an earlier backup in <dir>
 * The folder holds a checked copy of the database, the secrets, operator keys, icons and banners, and
 * manifest.json (which lists the file store; its files are backed up with rsync, README.md "Backups").
 * Exit 1 when the backup was refused or failed; nothing is left that looks like a backup then.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createProgress } from './lib/progress.ts';
import { config } from '../api/config.ts';
import { createBackup } from '../api/operations/backup.ts';
import { BackupError, refusePostgresArchive } from '../api/operations/backup-manifest.ts';
import { countLabel } from '../shared/format.ts';

const USAGE = 'Usage: npm run backup -- <dir> [--force]';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
if (positionals.length !== 1) {
  console.error(USAGE);
  process.exit(1);
}
const target = path.resolve(positionals[0]);
const { dataDir, databaseUrl } = config();

try {
  refusePostgresArchive(databaseUrl, 'backup');
  console.log(`Backing up ${dataDir} into ${target}...`);
  const manifest = await createBackup({
    dataDir,
    target,
    force: values.force,
    progress: createProgress('Copying the database (pages)'),
    log: (line) => console.log(line),
  });
  const store = manifest.fileStore;
  console.log(
    `Backup complete: database at migration ${manifest.database.migrationVersion} (${(manifest.database.bytes / 1048576).toFixed(1)} MB, integrity ok), ` +
      `${manifest.parts.map((part) => `${part.name} (${countLabel(part.files, 'file')})`).join(', ') || 'no other folders'}; ` +
      `manifest lists ${countLabel(store.files.length, 'stored file')} (${(store.bytes / 1048576).toFixed(1)} MB).`,
  );
  if (store.recordsWithoutFile > 0)
    console.log(
      `Note: ${countLabel(store.recordsWithoutFile, 'file record')} had no file in ${path.join(dataDir, 'files')} (not part of any backup).`,
    );
  console.log(
    `Warning: ${target} holds secrets (the accounts and sealed keys of the database` +
      `${manifest.parts.some((part) => part.name === 'secrets' || part.name === 'operatorKeys') ? ", the server's key files" : ''}): keep it as private as DATA_DIR.`,
  );
  console.log(`Back up the file store with: rsync -a --ignore-existing ${path.join(dataDir, 'files')}/ backup-host:/path/files/`);
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`Backup refused: ${error.message}`);
  process.exit(1);
}
