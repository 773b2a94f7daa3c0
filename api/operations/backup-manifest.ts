/**
 * The backup folder's pieces shared by backup and restore: the manifest (what the folder holds), the
 * small DATA_DIR folders copied whole (secrets, operator keys, icons, banners), and the file store listing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FILE = 'trove.sqlite';
export const MANIFEST_FORMAT = 'trove-backup';

/** The DATA_DIR folders a backup copies whole, by their dataPaths() name; absent ones are skipped. */
export const COPIED_PARTS = ['secrets', 'operatorKeys', 'icons', 'banners'] as const;
export type CopiedPart = (typeof COPIED_PARTS)[number];

/** Folder name of each part inside the backup (the same as in DATA_DIR). */
export const PART_FOLDERS: Record<CopiedPart, string> = {
  secrets: 'secrets',
  operatorKeys: 'operator-keys',
  icons: 'icons',
  banners: 'banners',
};

const storedFile = z.object({
  path: z.string().regex(/^\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}(\.[^/]+)?$/),
  size: z.number().int().nonnegative(),
});

export const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  formatVersion: z.literal(1),
  createdAt: z.string(),
  trove: z.object({ version: z.string(), commit: z.string() }),
  database: z.object({
    file: z.literal(DATABASE_FILE),
    migrationVersion: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  parts: z.array(z.object({ name: z.enum(COPIED_PARTS), files: z.number().int().nonnegative(), bytes: z.number().int().nonnegative() })),
  fileStore: z.object({
    files: z.array(storedFile),
    bytes: z.number().int().nonnegative(),
    /** File records whose file was not on disk when the backup was taken. */
    recordsWithoutFile: z.number().int().nonnegative(),
  }),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** A backup or restore refused or failed; the message is for the operator. */
export class BackupError extends Error {}

/**
 * The backup copies the SQLite file page by page; a PostgreSQL archive (DATABASE_URL) is dumped and
 * restored with PostgreSQL's own tools, and its DATA_DIR folders copied beside the dump.
 */
export function refusePostgresArchive(databaseUrl: string | undefined, command: 'backup' | 'restore'): void {
  if (!databaseUrl) return;
  const tool = command === 'backup' ? 'pg_dump' : 'pg_restore';
  throw new BackupError(
    `npm run ${command} works on the SQLite archive only, and DATABASE_URL names a PostgreSQL database: use ${tool} for the database and rsync for DATA_DIR's folders (README.md, "Backups").`,
  );
}

export function sha256File(file: string): string {
  const hash = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.alloc(1 << 20);
  try {
    for (let read = fs.readSync(fd, buffer); read > 0; read = fs.readSync(fd, buffer)) hash.update(buffer.subarray(0, read));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/**
 * Copies a folder tree, folders 0700 and files 0600 (they may hold secrets), and returns what it copied.
 * Only regular files and folders are copied.
 */
export function copyPrivateTree(from: string, to: string): { files: number; bytes: number } {
  fs.mkdirSync(to, { recursive: true, mode: 0o700 });
  fs.chmodSync(to, 0o700);
  let files = 0;
  let bytes = 0;
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      const inner = copyPrivateTree(source, target);
      files += inner.files;
      bytes += inner.bytes;
    } else if (entry.isFile()) {
      fs.copyFileSync(source, target);
      fs.chmodSync(target, 0o600);
      files += 1;
      bytes += fs.statSync(target).size;
    }
  }
  return { files, bytes };
}

/**
 * Every file of the content-addressed store with its public path and size, skipping the store's
 * `.tmp` folder (uploads in progress) and anything that is not a stored file's name.
 */
export function listFileStore(filesDir: string): { path: string; size: number }[] {
  const found: { path: string; size: number }[] = [];
  if (!fs.existsSync(filesDir)) return found;
  const walk = (dir: string, prefix: string, depth: number) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const publicPath = `${prefix}/${entry.name}`;
      if (entry.isDirectory() && depth < 2 && /^[0-9a-f]{2}$/.test(entry.name)) walk(path.join(dir, entry.name), publicPath, depth + 1);
      else if (entry.isFile() && depth === 2 && /^[0-9a-f]{64}(\.[^/]+)?$/.test(entry.name))
        found.push({ path: publicPath, size: fs.statSync(path.join(dir, entry.name)).size });
    }
  };
  walk(filesDir, '', 0);
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Where a public path of the store lives on disk. */
export function storedFileLocation(filesDir: string, publicPath: string): string {
  return path.join(filesDir, ...publicPath.split('/').filter(Boolean));
}

/** Reads and checks a backup folder's manifest. */
export function readManifest(backupDir: string): Manifest {
  const file = path.join(backupDir, MANIFEST_FILE);
  if (!fs.existsSync(file)) throw new BackupError(`${backupDir} holds no Trove backup (no ${MANIFEST_FILE}).`);
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new BackupError(`${file} is not valid JSON (${(error as Error).message}): the backup is damaged.`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BackupError(`${file} is not a Trove backup manifest (${issue?.path.join('.') || 'manifest'}: ${issue?.message}).`);
  }
  return parsed.data;
}
