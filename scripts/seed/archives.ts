/**
 * Archives built in memory: plain zips (yazl) and whatever 7-Zip writes (7z-wasm), e.g. AES-256 zips.
 * Entries get a fixed timestamp, so the same entries give the same bytes (except where 7-Zip draws a
 * random salt, as for encryption). The demo seed uses these; test fixtures can too.
 */
import yazl from 'yazl';
import SevenZip from '7z-wasm';

export interface ArchiveEntry {
  /** Path inside the archive ('notes/credits.txt'). */
  name: string;
  data: Buffer;
}

/** Timestamp of every entry. */
export const ARCHIVE_MTIME = new Date('2024-06-01T12:00:00Z');

/** A plain zip of the entries. */
export async function zipBuffer(entries: ArchiveEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) zip.addBuffer(entry.data, entry.name, { mtime: ARCHIVE_MTIME });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Runs 7-Zip's `a` in memory over the entries; `switches` e.g. ['-tzip', '-pX', '-mem=AES256']. */
export async function sevenZipArchive(entries: ArchiveEntry[], output: string, switches: string[]): Promise<Buffer> {
  const sevenZip = await SevenZip({ print: () => {}, printErr: () => {} });
  const folders = new Set(['/in']);
  sevenZip.FS.mkdir('/in');
  for (const entry of entries) {
    const parts = entry.name.split('/');
    for (let i = 1; i < parts.length; i += 1) {
      const folder = `/in/${parts.slice(0, i).join('/')}`;
      if (!folders.has(folder)) sevenZip.FS.mkdir(folder);
      folders.add(folder);
    }
    sevenZip.FS.writeFile(`/in/${entry.name}`, entry.data);
    sevenZip.FS.utime(`/in/${entry.name}`, ARCHIVE_MTIME.getTime(), ARCHIVE_MTIME.getTime());
  }
  sevenZip.FS.chdir('/in');
  sevenZip.callMain(['a', ...switches, `/${output}`, ...entries.map((entry) => entry.name)]);
  return Buffer.from(sevenZip.FS.readFile(`/${output}`));
}

/** A zip encrypted with AES-256 under the password. */
export function encryptedZip(entries: ArchiveEntry[], password: string): Promise<Buffer> {
  return sevenZipArchive(entries, 'out.zip', ['-tzip', `-p${password}`, '-mem=AES256']);
}
