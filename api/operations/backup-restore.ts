/**
 * Restores a backup folder (api/operations/backup.ts) into DATA_DIR with the server stopped: checks the
 * manifest, the database's hash and integrity first; moves whatever it would replace aside (never
 * deletes it); copies the database and folders back; migrates; empties the page store so the next start
 * renders fresh pages; and counts the files of the manifest that the file store lacks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { dataPaths } from '../config.ts';
import { migrate, openDatabase } from '../data/db.ts';
import { databaseInUse, integrityCheck, migrationVersion } from '../data/backup.ts';
import { MIGRATIONS } from '../data/migrations/index.ts';
import {
  BackupError,
  COPIED_PARTS,
  DATABASE_FILE,
  PART_FOLDERS,
  copyPrivateTree,
  readManifest,
  sha256File,
  storedFileLocation,
  type Manifest,
} from './backup-manifest.ts';

export interface RestoreOptions {
  backupDir: string;
  dataDir: string;
  force?: boolean;
  log?: (line: string) => void;
}

export interface RestoreResult {
  manifest: Manifest;
  migrated: { from: number; to: number };
  /** Where what was in DATA_DIR went, when anything was moved aside. */
  movedAside?: string;
  /** Files the manifest lists that the file store lacks (or holds at another size). */
  missingFiles: number;
  missingBytes: number;
}

/** The database's SQLite side files, moved together with it. */
const SIDE_FILES = ['', '-wal', '-shm'];

/** Checks the backup's database against the manifest and SQLite's integrity check, on a private copy. */
async function verifiedCopy(backupDir: string, manifest: Manifest, copy: string): Promise<void> {
  const file = path.join(backupDir, DATABASE_FILE);
  if (!fs.existsSync(file)) throw new BackupError(`${file} is missing: the backup is incomplete.`);
  const damaged = `${file} does not match the backup's manifest (it was changed or damaged after the backup was taken); nothing was restored.`;
  if (fs.statSync(file).size !== manifest.database.bytes || sha256File(file) !== manifest.database.sha256) throw new BackupError(damaged);
  const latest = MIGRATIONS.at(-1)?.version ?? 0;
  if (manifest.database.migrationVersion > latest)
    throw new BackupError(
      `The backup comes from a newer Trove (migration ${manifest.database.migrationVersion}; this one knows ${latest}): restore it with that version.`,
    );
  fs.copyFileSync(file, copy);
  fs.chmodSync(copy, 0o600);
  let check: string;
  let version: number;
  try {
    const db = openDatabase(copy);
    try {
      check = await integrityCheck(db);
      version = await migrationVersion(db);
    } finally {
      db.close();
    }
  } catch (error) {
    // SQLite refuses to read a badly damaged file at all (SQLITE_CORRUPT, SQLITE_NOTADB).
    if (!/^SQLITE_(CORRUPT|NOTADB)/.test(String((error as { code?: string }).code))) throw error;
    check = (error as Error).message;
    version = -1;
  }
  if (check !== 'ok') throw new BackupError(`${file} fails its integrity check; nothing was restored:\n${check}`);
  if (version !== manifest.database.migrationVersion) throw new BackupError(damaged);
  for (const part of manifest.parts) {
    if (!fs.existsSync(path.join(backupDir, PART_FOLDERS[part.name])))
      throw new BackupError(`The backup's ${PART_FOLDERS[part.name]} folder is missing: the backup is incomplete.`);
  }
}

/** What a restore would replace that DATA_DIR holds now. */
function replacedEntries(dataDir: string): string[] {
  const paths = dataPaths(dataDir);
  const entries = SIDE_FILES.map((suffix) => `${paths.database}${suffix}`);
  for (const part of COPIED_PARTS) entries.push(paths[part]);
  return entries.filter((entry) => fs.existsSync(entry));
}

function moveAside(dataDir: string, entries: string[]): string {
  const aside = path.join(dataDir, `before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  fs.mkdirSync(aside, { mode: 0o700 });
  for (const entry of entries) fs.renameSync(entry, path.join(aside, path.basename(entry)));
  return aside;
}

/** Counts the manifest's files that are not in the store at their size. */
function checkFileStore(filesDir: string, manifest: Manifest): { missingFiles: number; missingBytes: number } {
  let missingFiles = 0;
  let missingBytes = 0;
  for (const file of manifest.fileStore.files) {
    const stat = fs.statSync(storedFileLocation(filesDir, file.path), { throwIfNoEntry: false });
    if (stat?.isFile() && stat.size === file.size) continue;
    missingFiles += 1;
    missingBytes += file.size;
  }
  return { missingFiles, missingBytes };
}

export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const log = options.log ?? (() => undefined);
  const backupDir = path.resolve(options.backupDir);
  const dataDir = path.resolve(options.dataDir);
  const paths = dataPaths(dataDir);
  const manifest = readManifest(backupDir);
  const present = replacedEntries(dataDir);
  if (present.length > 0 && !options.force)
    throw new BackupError(
      `${dataDir} already holds ${present.map((entry) => path.basename(entry)).join(', ')}. ` +
        'Stop the server and pass --force to move them aside (nothing is deleted).',
    );
  if (fs.existsSync(paths.database) && databaseInUse(paths.database))
    throw new BackupError(`${paths.database} is open in another process: stop the server and its workers first.`);

  fs.mkdirSync(dataDir, { recursive: true });
  const copy = `${paths.database}.restoring-${process.pid}`;
  try {
    log(`Checking the backup of ${manifest.createdAt} (manifest, sha256, PRAGMA integrity_check)...`);
    await verifiedCopy(backupDir, manifest, copy);
    const movedAside = present.length > 0 ? moveAside(dataDir, present) : undefined;
    if (movedAside) log(`Moved the previous ${present.map((entry) => path.basename(entry)).join(', ')} aside into ${movedAside}.`);
    fs.renameSync(copy, paths.database);
    for (const part of manifest.parts) copyPrivateTree(path.join(backupDir, PART_FOLDERS[part.name]), paths[part.name]);
    const db = openDatabase(paths.database);
    let migrated: { from: number; to: number };
    try {
      migrated = migrate(db);
    } finally {
      db.close();
    }
    fs.rmSync(paths.pages, { recursive: true, force: true });
    return { manifest, migrated, movedAside, ...checkFileStore(paths.files, manifest) };
  } finally {
    for (const suffix of SIDE_FILES) fs.rmSync(`${copy}${suffix}`, { force: true });
  }
}
