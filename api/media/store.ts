/**
 * The content-addressed file store: <filesDir>/ab/cd/<sha256>.<ext>, the public path being
 * '/ab/cd/<sha256>.<ext>'. Bytes are streamed into a temporary file while they are hashed (bytes
 * already in memory are hashed first), fsynced, then renamed into place, so a reader never sees a
 * partial file. A file already stored is not written again (a temporary copy is dropped).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { filePath } from '@shared/urls.ts';
import { writeAtomic, writeAtomicSync } from '../server/atomic-write.ts';

export interface StoredFile {
  sha256: string;
  /** '/ab/cd/<sha256>.<ext>' */
  path: string;
  size: number;
  /** false when the file was already in the store. */
  written: boolean;
}

export interface StoreOptions {
  /** Refuse (FileTooLargeError) once more bytes than this arrive; nothing is kept. */
  maxBytes?: number;
}

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File is larger than ${maxBytes} bytes.`);
    this.name = 'FileTooLargeError';
  }
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

const DIR_SYNC_UNSUPPORTED = new Set(['EINVAL', 'EISDIR', 'EPERM', 'ENOTSUP', 'EBADF']);

async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await fsp.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    // Directory fsync is not supported everywhere (EINVAL, EISDIR, EPERM, ENOTSUP); the rename itself is
    // still atomic. Any other failure is a real one.
    if (!DIR_SYNC_UNSUPPORTED.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
}

/** Moves a finished temporary file to its content address, or drops it when that is taken already. */
async function settle(filesDir: string, temp: string, sha256: string, ext: string, size: number): Promise<StoredFile> {
  const publicPath = storePath(sha256, ext);
  const target = storeLocation(filesDir, publicPath);
  if (fs.existsSync(target)) {
    await fsp.rm(temp, { force: true });
    return { sha256, path: publicPath, size, written: false };
  }
  const dir = path.dirname(target);
  try {
    await fsp.mkdir(dir, { recursive: true });
    // Two writers of the same bytes may both get here: rename replaces atomically with identical content.
    await fsp.rename(temp, target);
  } catch (error) {
    await fsp.rm(temp, { force: true });
    throw error;
  }
  await syncDir(dir);
  return { sha256, path: publicPath, size, written: true };
}

/**
 * Stores a stream of bytes (an upload, a download, a file read in chunks): each chunk is hashed and
 * written to <filesDir>/.tmp as it arrives, so memory stays bounded whatever the size.
 */
export async function storeStream(
  filesDir: string,
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  ext: string,
  options: StoreOptions = {},
): Promise<StoredFile> {
  const dotExt = normalizeExt(ext);
  const tmpDir = path.join(filesDir, TMP_DIR);
  await fsp.mkdir(tmpDir, { recursive: true });
  const temp = tempName(tmpDir);
  const hash = createHash('sha256');
  let size = 0;
  const out = await fsp.open(temp, 'wx');
  try {
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (options.maxBytes !== undefined && size > options.maxBytes) throw new FileTooLargeError(options.maxBytes);
      hash.update(chunk);
      for (let offset = 0; offset < chunk.byteLength; ) {
        const { bytesWritten } = await out.write(chunk, offset, chunk.byteLength - offset);
        offset += bytesWritten;
      }
    }
    await out.sync();
  } catch (error) {
    await out.close().catch(() => undefined);
    await fsp.rm(temp, { force: true });
    throw error;
  }
  await out.close();
  return settle(filesDir, temp, hash.digest('hex'), dotExt, size);
}

/** Stores the file at `sourcePath` (left untouched) by streaming it in 1 MiB chunks. */
export function storeFileFromPath(filesDir: string, sourcePath: string, ext: string, options: StoreOptions = {}): Promise<StoredFile> {
  return storeStream(filesDir, fs.createReadStream(sourcePath, { highWaterMark: CHUNK }), ext, options);
}

/** Where bytes in memory go: their public path and location, and whether the store has them already. */
function placeFor(filesDir: string, data: Buffer | Uint8Array, ext: string) {
  const sha256 = createHash('sha256').update(data).digest('hex');
  const publicPath = storePath(sha256, ext);
  const target = storeLocation(filesDir, publicPath);
  return { sha256, publicPath, target, stored: fs.existsSync(target) };
}

/** Stores bytes already in memory; nothing is written when the store has them. */
export async function storeFile(filesDir: string, data: Buffer | Uint8Array, ext: string): Promise<StoredFile> {
  const { sha256, publicPath, target, stored } = placeFor(filesDir, data, ext);
  const size = data.byteLength;
  if (stored) return { sha256, path: publicPath, size, written: false };
  const dir = path.dirname(target);
  await fsp.mkdir(dir, { recursive: true });
  // Two writers of the same bytes may both get here: rename replaces atomically with identical content.
  await writeAtomic(target, data, { durable: true });
  await syncDir(dir);
  return { sha256, path: publicPath, size, written: true };
}

/** Synchronous storeFile, for CLIs and the seed. */
export function storeFileSync(filesDir: string, data: Buffer | Uint8Array, ext: string): StoredFile {
  const { sha256, publicPath, target, stored } = placeFor(filesDir, data, ext);
  const size = data.byteLength;
  if (stored) return { sha256, path: publicPath, size, written: false };
  fs.mkdirSync(path.dirname(target), { recursive: true });
  writeAtomicSync(target, data, { durable: true });
  return { sha256, path: publicPath, size, written: true };
}

/** sha256 of a file on disk, streamed in 1 MiB chunks. */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  const stream = fs.createReadStream(file, { highWaterMark: CHUNK });
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
