/**
 * scripts/restore: restores a backup folder (scripts/backup.ts) into DATA_DIR, with the server stopped.
 *   npm run restore -- <dir> [--force]   --force moves an existing database and folders aside first
 * Checks the backup before touching DATA_DIR, migrates the restored database, empties the page store,
 * and reports the file store's missing files with the rsync command that brings them back (exit 0:
 * the archive works, those files answer 404 until copied). Exit 1 when the restore was refused.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { config, dataPaths } from '../api/config.ts';
import { restoreBackup } from '../api/operations/backup-restore.ts';
import { BackupError, refusePostgresArchive } from '../api/operations/backup-manifest.ts';
import { countLabel } from '../shared/format.ts';

const USAGE = 'Usage: npm run restore -- <dir> [--force]';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
if (positionals.length !== 1) {
  console.error(USAGE);
  process.exit(1);
}
const backupDir = path.resolve(positionals[0]);
const { dataDir, databaseUrl } = config();

try {
  refusePostgresArchive(databaseUrl, 'restore');
  console.log(`Restoring ${backupDir} into ${dataDir}...`);
  const result = await restoreBackup({ backupDir, dataDir, force: values.force, log: (line) => console.log(line) });
  const { manifest, migrated } = result;
  console.log(
    `Restored the database of ${manifest.createdAt} (Trove ${manifest.trove.version}, ${manifest.trove.commit.slice(0, 12)}), ` +
      `now at migration ${migrated.to}${migrated.from === migrated.to ? '' : ` (migrated from ${migrated.from})`}, ` +
      `${manifest.parts.map((part) => part.name).join(', ') || 'no other folders'}; the page store was emptied.`,
  );
  console.log(`Warning: ${dataDir} now holds the backup's secrets; keep the backup folder private or remove it.`);
  const files = dataPaths(dataDir).files;
  if (result.missingFiles > 0) {
    console.log(
      `Warning: ${countLabel(result.missingFiles, 'file')} of the manifest (${(result.missingBytes / 1048576).toFixed(1)} MB) ` +
        `${result.missingFiles === 1 ? 'is' : 'are'} missing from ${files}; they answer 404 until copied back with:`,
    );
    console.log(`  rsync -a --ignore-existing backup-host:/path/files/ ${files}/`);
  } else {
    console.log(`The file store holds all ${countLabel(manifest.fileStore.files.length, 'file')} of the manifest.`);
  }
  console.log('Start the server: it renders fresh pages.');
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`Restore refused: ${error.message}`);
  process.exit(1);
}
