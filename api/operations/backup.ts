/**
 * Takes a backup of DATA_DIR while the server runs: a consistent copy of the database through SQLite's
 * online backup, checked with `PRAGMA integrity_check`; the small folders the database needs (secrets,
 * operator keys, icons, banners); and a manifest listing the content-addressed file store, whose files
 * are backed up separately (rsync of new files only, README.md "Backups"). Everything is written into a
 * temporary sibling folder that is renamed into place at the end, so a failed backup never looks complete.
 */
import fs from 'node:fs';
import path from 'node:path';
import { dataPaths } from '../config.ts';
import { buildInfo } from '../build-info.ts';
import { openDatabase } from '../data/db.ts';
import { fileRecordPaths, integrityCheck, migrationVersion } from '../data/backup.ts';
import {
  BackupError,
  COPIED_PARTS,
  copyPrivateTree,
  DATABASE_FILE,
  MANIFEST_FILE,
  MANIFEST_FORMAT,
  PART_FOLDERS,
  listFileStore,
  sha256File,
  storedFileLocation,
  type Manifest,
} from './backup-manifest.ts';

/** How the copy of the database reports its pages (scripts/lib/progress.ts fits). */
export interface PageProgress {
  start(total: number): void;
  update(done: number, total?: number): void;
  stop(): void;
}

export interface BackupOptions {
  dataDir: string;
  /** The backup folder: new, empty, or (with force) an earlier backup to replace. */
  target: string;
  force?: boolean;
  progress?: PageProgress;
  log?: (line: string) => void;
}

/** Refuses a target that is not a new or empty folder, or an earlier backup when force is given. */
function checkTarget(target: string, force: boolean): 'absent' | 'empty' | 'backup' {
  if (!fs.existsSync(target)) return 'absent';
  if (!fs.statSync(target).isDirectory()) throw new BackupError(`${target} exists and is not a folder.`);
  const entries = fs.readdirSync(target);
  if (entries.length === 0) return 'empty';
  if (!entries.includes(MANIFEST_FILE))
    throw new BackupError(`${target} is not empty and holds no Trove backup: choose a new or empty folder.`);
  if (!force) throw new BackupError(`${target} already holds a backup: choose another folder, or pass --force to replace it.`);
  return 'backup';
}

/**
 * Copies the live database page by page with SQLite's online backup API. A write by another connection
 * (the running server) restarts the copy from the first page at the next step, so a step that did not
 * lower the remaining pages means a restart: the copy then takes all pages in a single step, under one
 * read transaction, which WAL lets the writers work beside.
 */
async function copyDatabase(source: string, target: string, progress?: PageProgress): Promise<void> {
  const db = openDatabase(source);
  let started = false;
  let total = 0;
  let step = 100;
  let lastRemaining = Number.POSITIVE_INFINITY;
  try {
    await db.backup(target, {
      progress({ totalPages, remainingPages }) {
        if (!started) {
          started = true;
          step = Math.max(100, Math.ceil(totalPages / 100));
          progress?.start(totalPages);
        }
        if (remainingPages >= lastRemaining) step = 0x7fffffff;
        lastRemaining = remainingPages;
        total = totalPages;
        progress?.update(totalPages - remainingPages, totalPages);
        return step;
      },
    });
    if (started) progress?.update(total, total);
  } finally {
    db.close();
    if (started) progress?.stop();
  }
}

/** Checks the copy, turns it into a single file (no WAL beside it) and reads what the manifest needs. */
async function verifyCopy(copy: string, filesDir: string): Promise<{ migrationVersion: number; recordsWithoutFile: number }> {
  const db = openDatabase(copy);
  try {
    const check = await integrityCheck(db);
    if (check !== 'ok') throw new BackupError(`The copy of the database failed its integrity check:\n${check}`);
    let recordsWithoutFile = 0;
    for await (const publicPath of fileRecordPaths(db))
      if (!fs.existsSync(storedFileLocation(filesDir, publicPath))) recordsWithoutFile += 1;
    const version = await migrationVersion(db);
    db.pragma('journal_mode = DELETE');
    return { migrationVersion: version, recordsWithoutFile };
  } finally {
    db.close();
  }
}

/** Moves the finished folder into place, replacing an empty folder or (forced) an earlier backup. */
function install(temp: string, target: string, kind: 'absent' | 'empty' | 'backup'): void {
  if (kind === 'empty') fs.rmdirSync(target);
  if (kind !== 'backup') {
    fs.renameSync(temp, target);
    return;
  }
  const old = `${temp}.replaced`;
  fs.renameSync(target, old);
  fs.renameSync(temp, target);
  fs.rmSync(old, { recursive: true, force: true });
}

export async function createBackup(options: BackupOptions): Promise<Manifest> {
  const log = options.log ?? (() => undefined);
  const paths = dataPaths(options.dataDir);
  const target = path.resolve(options.target);
  if (!fs.existsSync(paths.database)) throw new BackupError(`There is no database at ${paths.database}: is DATA_DIR right?`);
  const kind = checkTarget(target, options.force ?? false);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temp = fs.mkdtempSync(path.join(path.dirname(target), `.${path.basename(target)}.partial-`));
  try {
    const copy = path.join(temp, DATABASE_FILE);
    await copyDatabase(paths.database, copy, options.progress);
    log('Checking the copy (PRAGMA integrity_check)...');
    const checked = await verifyCopy(copy, paths.files);
    fs.chmodSync(copy, 0o600);

    const parts: Manifest['parts'] = [];
    for (const name of COPIED_PARTS) {
      const from = paths[name];
      if (!fs.existsSync(from)) continue;
      const copied = copyPrivateTree(from, path.join(temp, PART_FOLDERS[name]));
      parts.push({ name, ...copied });
    }
    const files = listFileStore(paths.files);
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      formatVersion: 1,
      createdAt: new Date().toISOString(),
      trove: { version: buildInfo().version, commit: buildInfo().commit },
      database: {
        file: DATABASE_FILE,
        migrationVersion: checked.migrationVersion,
        bytes: fs.statSync(copy).size,
        sha256: sha256File(copy),
      },
      parts,
      fileStore: { files, bytes: files.reduce((sum, file) => sum + file.size, 0), recordsWithoutFile: checked.recordsWithoutFile },
    };
    fs.writeFileSync(path.join(temp, MANIFEST_FILE), `${JSON.stringify(manifest, null, 1)}\n`, { mode: 0o600 });
    install(temp, target, kind);
    return manifest;
  } catch (error) {
    fs.rmSync(temp, { recursive: true, force: true });
    throw error;
  }
}
