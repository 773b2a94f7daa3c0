/**
 * Zips as the fakes serve them and as tests open them: real zips written by yazl (deflated, UTF-8
 * names with the language-encoding flag), stored zips whose names are cp932 bytes without that flag
 * (as the Windows tools of DLsite's circles write them), and a reader that opens either the way an
 * unzipper does.
 */
import zlib from 'node:zlib';
import yazl from 'yazl';

export interface ZipEntry {
  name: string;
  data: Buffer | string;
}

/** A real zip (yazl, deflated, UTF-8 names with the language-encoding flag); every entry dated `mtime`. */
export async function zipOf(entries: ZipEntry[], mtime = new Date('2024-05-01T12:00:00Z')): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addBuffer(Buffer.from(e.data), e.name, { mtime });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

let sjisTable: Map<string, number[]> | null = null;
/** Shift-JIS (cp932) bytes of a string, from the reverse of the runtime's own shift_jis decoder. */
export function shiftJis(text: string): Buffer {
  if (!sjisTable) {
    sjisTable = new Map();
    const decoder = new TextDecoder('shift_jis');
    for (let lead = 0x81; lead <= 0xfc; lead++) {
      if (lead > 0x9f && lead < 0xe0) continue;
      for (let trail = 0x40; trail <= 0xfc; trail++) {
        const ch = decoder.decode(Uint8Array.of(lead, trail));
        if (ch.length === 1 && ch !== '\ufffd' && !sjisTable.has(ch)) sjisTable.set(ch, [lead, trail]);
      }
    }
  }
  const bytes: number[] = [];
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) bytes.push(ch.charCodeAt(0));
    else {
      const pair = sjisTable.get(ch);
      if (!pair) throw new Error(`no Shift-JIS code for ${ch}`);
      bytes.push(...pair);
    }
  }
  return Buffer.from(bytes);
}

/**
 * A stored zip whose entry names are cp932 bytes WITHOUT the UTF-8 flag, as the Windows tools of DLsite's
 * circles write them (a lister must guess the encoding to show 日本語 names).
 */
export function cp932Zip(entries: ZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = shiftJis(e.name);
    const data = Buffer.from(e.data);
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x58a1, 12); // DOS date 2024-05-01, time 00:00
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    parts.push(local, name, data);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x58a1, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(data.length, 20);
    header.writeUInt32LE(data.length, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/**
 * Opens a zip the way an unzipper does (end record, central directory, local headers, inflate, CRC check)
 * and returns its entries; names without the UTF-8 flag are decoded as cp932. Throws on a broken zip.
 */
export function readZip(zip: Buffer): { name: string; data: Buffer }[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip: no end of central directory');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries: { name: string; data: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('broken central directory');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const packed = zip.readUInt32LE(at + 20);
    const [nameLength, extraLength, commentLength] = [28, 30, 32].map((o) => zip.readUInt16LE(at + o));
    const local = zip.readUInt32LE(at + 42);
    const rawName = zip.subarray(at + 46, at + 46 + nameLength);
    const name = flags & 0x0800 ? rawName.toString('utf8') : new TextDecoder('shift_jis').decode(rawName);
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error('broken local header');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const body = zip.subarray(start, start + packed);
    const data = method === 8 ? zlib.inflateRawSync(body) : Buffer.from(body);
    if (zlib.crc32(data) !== crc) throw new Error(`bad CRC for ${name}`);
    entries.push({ name, data });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
