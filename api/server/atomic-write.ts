/**
 * Replacing a file so that a reader sees the old bytes or the new ones, never part of them: the bytes
 * go to a temporary file beside the target, which is then renamed over it (the temporary file is
 * removed when anything fails). With `durable` the bytes are fsynced before the rename, so a crash
 * cannot leave an empty file under the name; files served as immutable need that, stored pages (which
 * a rebuild renders again) do without.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import crypto from 'node:crypto';

export interface AtomicWriteOptions {
  /** fsync the bytes before the rename. */
  durable?: boolean;
}

let tempCounter = 0;
/**
 * Random per thread, so unique among every machine writing to a shared folder (a network mount holds the
 * page store and the files of a cluster, and two machines can run the same process id), then a counter.
 */
const writerId = crypto.randomBytes(6).toString('hex');
function tempName(file: string): string {
  return `${file}.tmp-${writerId}-${(tempCounter += 1)}.tmp`;
}

export function writeAtomicSync(file: string, data: Uint8Array | string, options: AtomicWriteOptions = {}): void {
  const temp = tempName(file);
  try {
    if (options.durable) {
      const fd = fs.openSync(temp, 'w');
      try {
        fs.writeFileSync(fd, data);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    } else {
      fs.writeFileSync(temp, data);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

export async function writeAtomic(file: string, data: Uint8Array | string, options: AtomicWriteOptions = {}): Promise<void> {
  const temp = tempName(file);
  try {
    if (options.durable) {
      const handle = await fsp.open(temp, 'w');
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
    } else {
      await fsp.writeFile(temp, data);
    }
    await fsp.rename(temp, file);
  } catch (error) {
    await fsp.rm(temp, { force: true });
    throw error;
  }
}
