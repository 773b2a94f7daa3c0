import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FileTooLargeError,
  hashFile,
  storeFile,
  storeFileFromPath,
  storeFileSync,
  storeLocation,
  storePath,
  storeStream,
} from '@api/media/store.ts';

describe('content-addressed file store', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-store-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

  it('writes <dir>/ab/cd/<sha256>.<ext> and answers the public path', async () => {
    const data = Buffer.from('hello trove');
    const hash = sha(data);
    const stored = await storeFile(dir, data, 'PNG');
    expect(stored).toEqual({
      sha256: hash,
      path: `/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}.png`,
      size: data.length,
      written: true,
    });
    expect(fs.readFileSync(path.join(dir, hash.slice(0, 2), hash.slice(2, 4), `${hash}.png`))).toEqual(data);
    expect(storeLocation(dir, stored.path)).toBe(path.join(dir, hash.slice(0, 2), hash.slice(2, 4), `${hash}.png`));
    expect(storePath(hash, '.png')).toBe(stored.path);
    // Stored again: nothing is written, no temporary files are left behind.
    expect((await storeFile(dir, data, '.png')).written).toBe(false);
    expect(storeFileSync(dir, data, 'png').written).toBe(false);
    expect(fs.readdirSync(path.join(dir, hash.slice(0, 2), hash.slice(2, 4)))).toEqual([`${hash}.png`]);
  });

  it('stores from a file path by streaming, leaving the source in place', async () => {
    const source = path.join(dir, 'source.bin');
    const data = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    fs.writeFileSync(source, data);
    const stored = await storeFileFromPath(path.join(dir, 'files'), source, 'zip');
    expect(stored.sha256).toBe(sha(data));
    expect(stored.size).toBe(data.length);
    expect(await hashFile(storeLocation(path.join(dir, 'files'), stored.path))).toBe(stored.sha256);
    expect(fs.existsSync(source)).toBe(true);
    expect(fs.readdirSync(path.join(dir, 'files', '.tmp'))).toEqual([]);
    expect((await storeFileFromPath(path.join(dir, 'files'), source, 'zip')).written).toBe(false);
  });

  it('writes each chunk to a temporary file as it arrives, before the whole file is known', async () => {
    const files = path.join(dir, 'files');
    const chunk = Buffer.alloc(256 * 1024, 3);
    const seenOnDisk: number[] = [];
    async function* upload() {
      for (let i = 0; i < 4; i += 1) {
        if (i > 0) {
          const temps = fs.readdirSync(path.join(files, '.tmp'));
          expect(temps).toHaveLength(1);
          seenOnDisk.push(fs.statSync(path.join(files, '.tmp', temps[0])).size);
        }
        yield chunk;
      }
    }
    const stored = await storeStream(files, upload(), 'bin');
    expect(seenOnDisk).toEqual([chunk.length, 2 * chunk.length, 3 * chunk.length]);
    expect(stored).toMatchObject({ sha256: sha(Buffer.concat([chunk, chunk, chunk, chunk])), size: 4 * chunk.length, written: true });
    expect(fs.readdirSync(path.join(files, '.tmp'))).toEqual([]);
  });

  it('does not write a stored file twice: the first copy stays as it was', async () => {
    const files = path.join(dir, 'files');
    const data = Buffer.from('same bytes twice');
    const first = await storeStream(files, [data], 'txt');
    const location = storeLocation(files, first.path);
    const before = fs.statSync(location);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await Promise.all([
      storeStream(files, [data], 'txt'),
      storeFile(files, data, 'txt'),
      storeFileFromPath(files, location, 'txt'),
    ]);
    expect(again.map((stored) => stored.written)).toEqual([false, false, false]);
    const after = fs.statSync(location);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(fs.readdirSync(path.join(files, '.tmp'))).toEqual([]);
  });

  it('keeps nothing when the source fails or grows past maxBytes', async () => {
    const files = path.join(dir, 'files');
    async function* broken() {
      yield Buffer.from('partial');
      throw new Error('connection reset');
    }
    await expect(storeStream(files, broken(), 'bin')).rejects.toThrow('connection reset');
    const big = Buffer.alloc(1000, 1);
    await expect(storeStream(files, [big, big], 'bin', { maxBytes: 1500 })).rejects.toBeInstanceOf(FileTooLargeError);
    expect(fs.readdirSync(path.join(files, '.tmp'))).toEqual([]);
    expect(fs.readdirSync(files)).toEqual(['.tmp']);
    expect((await storeStream(files, [big], 'bin', { maxBytes: 1000 })).written).toBe(true);
  });

  it('stores concurrent uploads of the same bytes once', async () => {
    const files = path.join(dir, 'files');
    const data = Buffer.alloc(2 * 1024 * 1024, 9);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => storeStream(files, [data.subarray(0, 1024 * 1024), data.subarray(1024 * 1024)], 'zip')),
    );
    expect(new Set(results.map((stored) => stored.path)).size).toBe(1);
    const location = storeLocation(files, results[0].path);
    expect(fs.readdirSync(path.dirname(location))).toEqual([path.basename(location)]);
    expect(await hashFile(location)).toBe(sha(data));
  });

  it('rejects extensions that are not plain', async () => {
    await expect(storeFile(dir, Buffer.from('x'), '../evil')).rejects.toThrow(/Invalid file extension/);
  });
});
