import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashFile, storeFile, storeFileFromPath, storeFileSync, storeLocation, storePath } from '../../../api/media/store.ts';

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
    expect(stored).toEqual({ sha256: hash, path: `/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}.png`, size: data.length, written: true });
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

  it('rejects extensions that are not plain', async () => {
    await expect(storeFile(dir, Buffer.from('x'), '../evil')).rejects.toThrow(/Invalid file extension/);
  });
});
