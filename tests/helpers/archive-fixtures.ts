/**
 * Archives made at test time, in a temporary folder: zip (yazl, plain; 7-Zip, encrypted), 7z (plain
 * and with encrypted headers), a stored RAR 5 written here from the public format description
 * (rarlab.com "RAR 5.0 archive format"), and hostile zips written by hand: declared sizes that lie
 * (a zip bomb as a lister sees one), zip-slip names and a link, 100,000 entries (zip64).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import yazl from 'yazl';
import SevenZip from '7z-wasm';

export const FIXTURE_PASSWORD = 'SECRET-pa55 word';
const MTIME = new Date('2024-06-01T12:00:00Z');

export interface FixtureEntry {
  name: string;
  data: Buffer;
}

/** The entries every "plain" fixture holds (a folder, a non-ASCII name). */
export const SAMPLE_ENTRIES: FixtureEntry[] = [
  { name: 'readme.txt', data: Buffer.from('Trove test archive\n') },
  { name: 'images/cover.txt', data: Buffer.from('not really an image\n'.repeat(20)) },
  { name: '日本語のファイル.txt', data: Buffer.from('こんにちは\n') },
];

export function fixtureDir(): { dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-archives-'));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

// ---------------------------------------------------------------------------------------------
// zip via yazl and 7-Zip

export async function yazlZip(entries: FixtureEntry[] = SAMPLE_ENTRIES): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) zip.addBuffer(entry.data, entry.name, { mtime: MTIME });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Runs 7-Zip's `a` in memory over the entries; `switches` e.g. ['-t7z', '-mhe=on', '-pX']. */
export async function sevenZipArchive(entries: FixtureEntry[], output: string, switches: string[]): Promise<Buffer> {
  const sevenZip = await SevenZip({ print: () => {}, printErr: () => {} });
  sevenZip.FS.mkdir('/in');
  for (const entry of entries) {
    const parts = entry.name.split('/');
    for (let i = 1; i < parts.length; i += 1) {
      try {
        sevenZip.FS.mkdir(`/in/${parts.slice(0, i).join('/')}`);
      } catch {
        // the folder is there already
      }
    }
    sevenZip.FS.writeFile(`/in/${entry.name}`, entry.data);
  }
  sevenZip.FS.chdir('/in');
  sevenZip.callMain(['a', ...switches, `/${output}`, ...entries.map((entry) => entry.name)]);
  return Buffer.from(sevenZip.FS.readFile(`/${output}`));
}

export const encryptedZip = (password = FIXTURE_PASSWORD, entries = SAMPLE_ENTRIES) =>
  sevenZipArchive(entries, 'out.zip', ['-tzip', `-p${password}`, '-mem=AES256']);
export const plain7z = (entries = SAMPLE_ENTRIES) => sevenZipArchive(entries, 'out.7z', ['-t7z']);
export const headerEncrypted7z = (password = FIXTURE_PASSWORD, entries = SAMPLE_ENTRIES) =>
  sevenZipArchive(entries, 'out.7z', ['-t7z', '-mhe=on', `-p${password}`]);

// ---------------------------------------------------------------------------------------------
// zip written by hand (stored entries), for what yazl refuses to write

export interface RawZipEntry {
  name: string;
  data?: Buffer;
  /** The uncompressed size the headers declare (a lie when it differs from data's length). */
  declaredSize?: number;
  /** Unix mode kept in the external attributes, e.g. 0o120777 for a symbolic link. */
  unixMode?: number;
}

/** A stored (uncompressed) zip; zip64 end records are added past 65,535 entries. */
export function rawZip(entries: RawZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = entry.data ?? Buffer.alloc(0);
    const crc = zlib.crc32(data);
    const size = entry.declaredSize ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    parts.push(local, name, data);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(entry.unixMode === undefined ? 20 : (3 << 8) | 20, 4); // made by: Unix when a mode is kept
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(data.length, 20);
    header.writeUInt32LE(size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(entry.unixMode === undefined ? 0 : (entry.unixMode << 16) >>> 0, 38);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const tail: Buffer[] = [];
  const many = entries.length > 0xffff;
  if (many) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE(45, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(BigInt(entries.length), 24);
    record.writeBigUInt64LE(BigInt(entries.length), 32);
    record.writeBigUInt64LE(BigInt(directory.length), 40);
    record.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(many ? 0xffff : entries.length, 8);
  end.writeUInt16LE(many ? 0xffff : entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, ...tail, end]);
}

/** Twenty entries of a few bytes each declaring 4 GiB: 80 GiB "inside" a file of about 2 KiB. */
export function zipBomb(): Buffer {
  return rawZip(Array.from({ length: 20 }, (_, i) => ({ name: `zeros_${i}.bin`, data: Buffer.from('0'), declaredSize: 0xfffffffe })));
}

/** Entries that would escape an extraction folder, and a symbolic link, beside one ordinary name. */
export const ZIP_SLIP_NAMES = {
  parent: '../../evil.txt',
  absolute: '/etc/evil.txt',
  nested: 'ok/../../../up.txt',
  link: 'innocent-link',
  ordinary: 'fine.txt',
} as const;

export function zipSlip(): Buffer {
  return rawZip([
    { name: ZIP_SLIP_NAMES.parent, data: Buffer.from('evil') },
    { name: ZIP_SLIP_NAMES.absolute, data: Buffer.from('evil') },
    { name: ZIP_SLIP_NAMES.nested, data: Buffer.from('evil') },
    { name: ZIP_SLIP_NAMES.link, data: Buffer.from('/etc/passwd'), unixMode: 0o120777 },
    { name: ZIP_SLIP_NAMES.ordinary, data: Buffer.from('fine'), unixMode: 0o100644 },
  ]);
}

export function manyEntriesZip(count = 100_000): Buffer {
  return rawZip(Array.from({ length: count }, (_, i) => ({ name: `folder_${i % 100}/file_${i}.txt` })));
}

// ---------------------------------------------------------------------------------------------
// RAR 5 with stored (uncompressed) files

/** RAR 5 variable-length integer: 7 bits a byte, low bits first, high bit set on all but the last. */
function vint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0);
  return Buffer.from(bytes);
}

function uint32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0, 0);
  return buffer;
}

/** A block: header CRC32, header size, then the header fields (from type on); data follows. */
function rarBlock(fields: Buffer[], data: Buffer = Buffer.alloc(0)): Buffer {
  const body = Buffer.concat(fields);
  const sized = Buffer.concat([vint(body.length), body]);
  return Buffer.concat([uint32(zlib.crc32(sized)), sized, data]);
}

export function storedRar(entries: FixtureEntry[] = SAMPLE_ENTRIES): Buffer {
  const signature = Buffer.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00]);
  // Main archive header: type 1, no header flags, archive flags 0.
  const main = rarBlock([vint(1), vint(0), vint(0)]);
  const files = entries.map((entry) => {
    const name = Buffer.from(entry.name, 'utf8');
    return rarBlock(
      [
        vint(2), // file header
        vint(0x0002), // header flags: a data area follows
        vint(entry.data.length), // data size
        vint(0x0002 | 0x0004), // file flags: mtime and CRC32 present
        vint(entry.data.length), // unpacked size
        vint(0x20), // attributes (Windows: archive)
        uint32(Math.floor(MTIME.getTime() / 1000)),
        uint32(zlib.crc32(entry.data)),
        vint(0), // compression: version 0, method 0 (store)
        vint(0), // host OS: Windows
        vint(name.length),
        name,
      ],
      entry.data,
    );
  });
  // End of archive: type 5, no header flags, end flags 0.
  const end = rarBlock([vint(5), vint(0), vint(0)]);
  return Buffer.concat([signature, main, ...files, end]);
}

/** Writes bytes as <dir>/<name> and returns the path. */
export function writeFixture(dir: string, name: string, data: Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, data);
  return file;
}
