/**
 * The content-addressed file store: <filesDir>/ab/cd/<sha256>.<ext>, the public path being
 * '/ab/cd/<sha256>.<ext>'. Files are written to a temporary name, fsynced, then renamed into place,
 * so a reader never sees a partial file. A file that is already stored is not written again.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { filePath } from '../../src/lib/urls.ts';

export interface StoredFile {
  sha256: string;
  /** '/ab/cd/<sha256>.<ext>' */
  path: string;
  size: number;
  /** false when the file was already in the store. */
  written: boolean;
}

const TMP_DIR = '.tmp';
const CHUNK = 1024 * 1024;

/** '.png' from 'png' or '.PNG'; '' stays ''. Only [a-z0-9] extensions are accepted. */
export function normalizeExt(ext: string): string {
  if (!ext) return '';
  const bare = (ext.startsWith('.') ? ext.slice(1) : ext).toLowerCase();
  if (!/^[a-z0-9]{1,16}$/.test(bare)) throw new Error(`Invalid file extension: ${ext}`);
  return `.${bare}`;
}

/** The public path of a stored file: '/ab/cd/<sha256>.<ext>'. */
export function storePath(sha256: string, ext: string): string {
  return filePath(sha256, normalizeExt(ext));
}

/** The file-system location of a public path inside filesDir. */
export function storeLocation(filesDir: string, publicPath: string): string {
  return path.join(filesDir, ...publicPath.split('/').filter(Boolean));
}

function tempName(dir: string): string {
  return path.join(dir, `.${randomBytes(8).toString('hex')}.tmp`);
}

async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await fsp.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Directory fsync is not supported everywhere; the rename itself is still atomic.
  }
}

/** Stores bytes. @returns the sha256, public path and size */
export async function storeFile(filesDir: string, data: Buffer | Uint8Array, ext: string): Promise<StoredFile> {
  const sha256 = createHash('sha256').update(data).digest('hex');
  const publicPath = storePath(sha256, ext);
  const target = storeLocation(filesDir, publicPath);
  const size = data.byteLength;
  if (fs.existsSync(target)) return { sha256, path: publicPath, size, written: false };
  const dir = path.dirname(target);
  await fsp.mkdir(dir, { recursive: true });
  const temp = tempName(dir);
  const handle = await fsp.open(temp, 'wx');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fsp.rename(temp, target);
  } catch (error) {
    await fsp.rm(temp, { force: true });
    throw error;
  }
  await syncDir(dir);
  return { sha256, path: publicPath, size, written: true };
}

/** Synchronous storeFile, for CLIs and tests. */
export function storeFileSync(filesDir: string, data: Buffer | Uint8Array, ext: string): StoredFile {
  const sha256 = createHash('sha256').update(data).digest('hex');
  const publicPath = storePath(sha256, ext);
  const target = storeLocation(filesDir, publicPath);
  const size = data.byteLength;
  if (fs.existsSync(target)) return { sha256, path: publicPath, size, written: false };
  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  const temp = tempName(dir);
  const fd = fs.openSync(temp, 'wx');
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  return { sha256, path: publicPath, size, written: true };
}

/**
 * Stores the file at `sourcePath` by streaming it (1 MiB chunks) into a temporary file under
 * <filesDir>/.tmp while hashing, then renaming it into place. The source is left untouched.
 */
export async function storeFileFromPath(filesDir: string, sourcePath: string, ext: string): Promise<StoredFile> {
  const dotExt = normalizeExt(ext);
  const tmpDir = path.join(filesDir, TMP_DIR);
  await fsp.mkdir(tmpDir, { recursive: true });
  const temp = tempName(tmpDir);
  const hash = createHash('sha256');
  let size = 0;
  const source = await fsp.open(sourcePath, 'r');
  const out = await fsp.open(temp, 'wx');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await source.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      hash.update(chunk);
      await out.write(chunk);
      size += bytesRead;
    }
    await out.sync();
  } catch (error) {
    await out.close();
    await source.close();
    await fsp.rm(temp, { force: true });
    throw error;
  }
  await out.close();
  await source.close();
  const sha256 = hash.digest('hex');
  const publicPath = storePath(sha256, dotExt);
  const target = storeLocation(filesDir, publicPath);
  if (fs.existsSync(target)) {
    await fsp.rm(temp, { force: true });
    return { sha256, path: publicPath, size, written: false };
  }
  await fsp.mkdir(path.dirname(target), { recursive: true });
  try {
    await fsp.rename(temp, target);
  } catch (error) {
    await fsp.rm(temp, { force: true });
    throw error;
  }
  await syncDir(path.dirname(target));
  return { sha256, path: publicPath, size, written: true };
}

/** sha256 of a file on disk, streamed in 1 MiB chunks. */
export async function hashFile(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  const stream = fs.createReadStream(filePath, { highWaterMark: CHUNK });
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
