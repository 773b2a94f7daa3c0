/**
 * scripts/backup and scripts/restore as an operator runs them, as real processes on real folders: a
 * backup taken while another process keeps writing holds every write acknowledged before it started,
 * restores into a fresh DATA_DIR that passes the integrity check, and lists the file store; restore
 * refuses an occupied DATA_DIR without --force and a damaged backup; backup refuses to overwrite one.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '@api/config.ts';
import { migrate, openDatabase } from '@api/data/db.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { registerFile } from '@api/data/files.ts';
import { upsertPost } from '@api/data/posts.ts';
import { inTransaction } from '@api/data/store.ts';
import { filePath } from '@shared/urls.ts';
import { WRITER_SCRIPT } from './backup-writer.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-backup-'));
const source = path.join(root, 'data');
const backupDir = path.join(root, 'backup');
const restored = path.join(root, 'restored');
const storedFiles: { path: string; size: number }[] = [];
let writer: ChildProcess | undefined;

const tsx = (script: string, args: string[]) => [process.execPath, ['--import', 'tsx', path.resolve(script), ...args]] as const;

/** Runs a script to its end, asynchronously, so the writer's output keeps being read meanwhile. */
function run(script: string, args: string[], dataDir: string): Promise<{ status: number | null; out: string }> {
  const [node, argv] = tsx(script, args);
  const child = spawn(node, argv, { env: { ...process.env, DATA_DIR: dataDir, TROVE_ENV: 'test' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, out })));
}

function runSync(script: string, args: string[], dataDir: string, env: NodeJS.ProcessEnv = {}): { status: number | null; out: string } {
  const [node, argv] = tsx(script, args);
  const result = spawnSync(node, argv, { env: { ...process.env, DATA_DIR: dataDir, TROVE_ENV: 'test', ...env }, encoding: 'utf8' });
  return { status: result.status, out: result.stdout + result.stderr };
}

/** Writes a file into the content-addressed store with its record. */
async function storeFile(dataDir: string, bytes: Buffer, ext: string, db: ReturnType<typeof openDatabase>) {
  const hash = crypto.createHash('sha256').update(bytes).digest('hex');
  const publicPath = filePath(hash, ext);
  const location = path.join(dataPaths(dataDir).files, publicPath);
  fs.mkdirSync(path.dirname(location), { recursive: true });
  fs.writeFileSync(location, bytes);
  await registerFile(db, { hash, size: bytes.length, ext });
  storedFiles.push({ path: publicPath, size: bytes.length });
}

beforeAll(async () => {
  const db = openDatabase(dataPaths(source).database);
  migrate(db);
  await upsertCreator(db, { service: 'fanbox', id: 'writer', name: 'Writer', indexed: 1_700_000_000, updated: 1_700_000_000 });
  await inTransaction(db, async (tx) => {
    for (let n = 0; n < 1500; n += 1)
      await upsertPost(tx, {
        service: 'fanbox',
        user: 'writer',
        id: `old-${n}`,
        title: `Old ${n}`,
        content: `<p>${'old words '.repeat(80)}</p>`,
      });
  });
  for (let n = 0; n < 3; n += 1) await storeFile(source, crypto.randomBytes(1000 + n), '.png', db);
  // A record whose file never reached the disk: reported by the backup, not fatal.
  await registerFile(db, { hash: 'f'.repeat(64), size: 10, ext: '.jpg' });
  db.close();
  const paths = dataPaths(source);
  fs.mkdirSync(paths.secrets, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(paths.secrets, 'import-work.key'), crypto.randomBytes(32), { mode: 0o600 });
  fs.mkdirSync(path.join(paths.icons, 'fanbox'), { recursive: true });
  fs.writeFileSync(path.join(paths.icons, 'fanbox', 'writer'), 'icon bytes');
  fs.mkdirSync(paths.pages, { recursive: true });
  fs.writeFileSync(path.join(paths.pages, 'stale.html'), 'old page');
}, 120_000);

afterAll(() => {
  writer?.kill('SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
});

/** Starts the writer on a DATA_DIR; `acknowledged()` is the last post id it reported committed. */
async function startWriter(dataDir: string): Promise<{ acknowledged: () => number; stop: () => Promise<void> }> {
  const [node, argv] = tsx(WRITER_SCRIPT, []);
  const child = spawn(node, argv, { env: { ...process.env, DATA_DIR: dataDir, TROVE_ENV: 'test' }, stdio: ['ignore', 'pipe', 'inherit'] });
  writer = child;
  let acknowledged = 0;
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) if (line.startsWith('ack ')) acknowledged = Number(line.slice(4));
  });
  for (let waited = 0; acknowledged < 20; waited += 20) {
    if (waited > 60_000) throw new Error('the writer did not start writing');
    await sleep(20);
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    acknowledged: () => acknowledged,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('scripts/backup and scripts/restore', () => {
  it('backs up while another process writes, and restores every write acknowledged before the backup started', async () => {
    const live = await startWriter(source);
    const beforeBackup = live.acknowledged();
    const backup = await run('scripts/backup.ts', [backupDir], source);
    const duringBackup = live.acknowledged();
    await live.stop();
    expect(backup.out).toContain('Backup complete');
    expect(backup.status).toBe(0);
    expect(duringBackup).toBeGreaterThan(beforeBackup); // the writer kept writing while the backup ran
    expect(backup.out).toMatch(/Warning: .* holds secrets \(.*the server's key files\)/);
    expect(backup.out).toContain('1 file record had no file');
    expect(fs.readdirSync(root).filter((name) => name.includes('partial'))).toEqual([]);
    expect(fs.statSync(path.join(backupDir, 'secrets', 'import-work.key')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(backupDir, 'secrets')).mode & 0o777).toBe(0o700);

    const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'));
    expect(manifest.fileStore.files).toEqual([...storedFiles].sort((a, b) => a.path.localeCompare(b.path)));
    expect(manifest.fileStore.recordsWithoutFile).toBe(1);
    expect(manifest.database.migrationVersion).toBeGreaterThanOrEqual(10);
    expect(manifest.trove.version).toBe('0.1.0');
    expect(manifest.parts.map((part: { name: string }) => part.name)).toEqual(['secrets', 'icons']);
    expect(fs.existsSync(path.join(backupDir, 'pages'))).toBe(false);

    const restore = runSync('scripts/restore.ts', [backupDir], restored);
    expect(restore.out).toContain('3 files of the manifest');
    expect(restore.out).toContain(`rsync -a --ignore-existing backup-host:/path/files/ ${dataPaths(restored).files}/`);
    expect(restore.status).toBe(0);

    const db = openDatabase(dataPaths(restored).database);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const ids = new Set(
        (
          db.prepare("SELECT id FROM posts WHERE service = 'fanbox' AND \"user\" = 'writer' AND id LIKE 'live-%'").all() as { id: string }[]
        ).map((row) => row.id),
      );
      const lost = Array.from({ length: beforeBackup }, (_, i) => `live-${i + 1}`).filter((id) => !ids.has(id));
      expect(lost).toEqual([]);
      expect((db.prepare('SELECT count(*) AS n FROM posts').get() as { n: number }).n).toBeGreaterThanOrEqual(1500 + beforeBackup);
    } finally {
      db.close();
    }
    const paths = dataPaths(restored);
    expect(fs.readFileSync(path.join(paths.secrets, 'import-work.key'))).toEqual(
      fs.readFileSync(path.join(dataPaths(source).secrets, 'import-work.key')),
    );
    expect(fs.readFileSync(path.join(paths.icons, 'fanbox', 'writer'), 'utf8')).toBe('icon bytes');
    expect(fs.existsSync(paths.pages)).toBe(false);
  }, 180_000);

  it('refuses a DATA_DIR that holds a database unless --force, and one that a running process has open', async () => {
    const refused = runSync('scripts/restore.ts', [backupDir], restored);
    expect(refused.status).toBe(1);
    expect(refused.out).toMatch(/already holds trove\.sqlite.*--force/s);

    const live = await startWriter(restored);
    const inUse = await run('scripts/restore.ts', [backupDir, '--force'], restored);
    await live.stop();
    expect(inUse.status).toBe(1);
    expect(inUse.out).toContain('is open in another process: stop the server');
    expect(fs.readdirSync(restored).filter((name) => name.startsWith('before-restore-'))).toEqual([]);

    // With the file store copied back (rsync), a forced restore finds every file.
    fs.cpSync(dataPaths(source).files, dataPaths(restored).files, { recursive: true });
    const forced = runSync('scripts/restore.ts', [backupDir, '--force'], restored);
    expect(forced.status).toBe(0);
    expect(forced.out).toContain('The file store holds all 3 files of the manifest');
    const aside = fs.readdirSync(restored).filter((name) => name.startsWith('before-restore-'));
    expect(aside).toHaveLength(1);
    expect(fs.readdirSync(path.join(restored, aside[0]))).toEqual(expect.arrayContaining(['trove.sqlite', 'secrets', 'icons']));
  }, 60_000);

  it('refuses a backup whose database was damaged, before touching DATA_DIR', () => {
    const damaged = path.join(root, 'damaged');
    fs.cpSync(backupDir, damaged, { recursive: true });
    const file = path.join(damaged, 'trove.sqlite');
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 8192);
    fs.closeSync(fd);
    const target = path.join(root, 'empty');
    const refused = runSync('scripts/restore.ts', [damaged], target);
    expect(refused.status).toBe(1);
    expect(refused.out).toMatch(/Restore refused: .*trove\.sqlite does not match the backup's manifest/);
    expect(fs.existsSync(dataPaths(target).database)).toBe(false);

    // Damaged and the manifest rewritten to match: SQLite's integrity check still refuses it.
    const manifestFile = path.join(damaged, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    manifest.database.sha256 = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
    const unsound = runSync('scripts/restore.ts', [damaged], target);
    expect(unsound.status).toBe(1);
    expect(unsound.out).toMatch(/Restore refused: .*trove\.sqlite fails its integrity check; nothing was restored/);
    expect(fs.existsSync(dataPaths(target).database)).toBe(false);
    expect(fs.readdirSync(target)).toEqual([]);
  }, 60_000);

  it('refuses to write over an earlier backup unless --force', () => {
    const before = fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8');
    const refused = runSync('scripts/backup.ts', [backupDir], source);
    expect(refused.status).toBe(1);
    expect(refused.out).toContain('already holds a backup');
    expect(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8')).toBe(before);
    expect(fs.readdirSync(root).filter((name) => name.includes('partial'))).toEqual([]);
  }, 60_000);

  it('refuses a PostgreSQL archive (DATABASE_URL) before touching either folder, naming the tools that back it up', () => {
    const postgres = { DATABASE_URL: 'postgres://trove@127.0.0.1:1/trove' };
    const elsewhere = path.join(root, 'pg-backup');
    const backup = runSync('scripts/backup.ts', [elsewhere], source, postgres);
    expect(backup.status).toBe(1);
    expect(backup.out).toContain('Backup refused: npm run backup works on the SQLite archive only');
    expect(backup.out).toContain('pg_dump');
    expect(fs.existsSync(elsewhere)).toBe(false);
    const emptyDataDir = fs.mkdtempSync(path.join(root, 'pg-restore-'));
    const restore = runSync('scripts/restore.ts', [backupDir], emptyDataDir, postgres);
    expect(restore.status).toBe(1);
    expect(restore.out).toContain('Restore refused: npm run restore works on the SQLite archive only');
    expect(restore.out).toContain('pg_restore');
    expect(fs.readdirSync(emptyDataDir)).toEqual([]);
  }, 60_000);
});
