import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveBusyError, archiveTypeOf, createArchiveLister, isUnsafeEntryName, type ArchiveListing } from '@api/media/archives.ts';
import {
  FIXTURE_PASSWORD,
  SAMPLE_ENTRIES,
  ZIP_SLIP_NAMES,
  encryptedZip,
  fixtureDir,
  headerEncrypted7z,
  manyEntriesZip,
  plain7z,
  storedRar,
  writeFixture,
  yazlZip,
  zipBomb,
  zipSlip,
} from '../../helpers/archive-fixtures.ts';

const names = SAMPLE_ENTRIES.map((entry) => entry.name).sort();
const lister = createArchiveLister();
const files: Record<string, string> = {};
let fixtures: ReturnType<typeof fixtureDir>;

beforeAll(async () => {
  fixtures = fixtureDir();
  const write = (name: string, data: Buffer) => (files[name] = writeFixture(fixtures.dir, name, data));
  write('plain.zip', await yazlZip());
  write('encrypted.zip', await encryptedZip());
  write('plain.7z', await plain7z());
  write('headers.7z', await headerEncrypted7z());
  write('stored.rar', storedRar());
  write('bomb.zip', zipBomb());
  write('slip.zip', zipSlip());
  write('many.zip', manyEntriesZip(100_000));
  write('text.zip', Buffer.from('This is plain text, not a zip archive.\n'.repeat(10)));
  write('cut.zip', (await yazlZip()).subarray(0, 120));
}, 60_000);
afterAll(() => fixtures.cleanup());

function listedNames(result: ArchiveListing): string[] {
  if (result.kind !== 'listed' && result.kind !== 'password-required') throw new Error(`not a listing: ${JSON.stringify(result)}`);
  return result.entries.map((entry) => entry.name).sort();
}

async function timed<T>(job: Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await job;
  return { value, ms: performance.now() - start };
}

describe('archive listing', () => {
  it('lists a plain zip, 7z and a stored RAR 5 without a password', async () => {
    for (const [file, type] of [
      ['plain.zip', 'zip'],
      ['plain.7z', '7z'],
      ['stored.rar', 'rar'],
    ] as const) {
      const result = await lister.list(files[file], type);
      expect(result.kind, file).toBe('listed');
      expect(listedNames(result), file).toEqual(names);
      if (result.kind === 'listed') {
        expect(result.encrypted).toBe(false);
        expect(result.truncated).toBe(false);
        expect(result.declaredSize).toBe(SAMPLE_ENTRIES.reduce((n, e) => n + e.data.length, 0));
        expect(result.entries.every((entry) => !entry.unsafe)).toBe(true);
      }
    }
  });

  it('shows the names of a zip with encrypted entries, needs its password, and tells wrong from right', async () => {
    const locked = await lister.list(files['encrypted.zip'], 'zip');
    expect(locked).toMatchObject({ kind: 'password-required', headersEncrypted: false });
    expect(listedNames(locked)).toEqual(names);
    expect(await lister.list(files['encrypted.zip'], 'zip', 'not the password')).toEqual({ kind: 'wrong-password' });
    const open = await lister.list(files['encrypted.zip'], 'zip', FIXTURE_PASSWORD);
    expect(open).toMatchObject({ kind: 'listed', encrypted: true });
    expect(listedNames(open)).toEqual(names);
  });

  it('says a 7z with encrypted headers needs a password, and shows its names only with the right one', async () => {
    expect(await lister.list(files['headers.7z'], '7z')).toEqual({
      kind: 'password-required',
      entries: [],
      truncated: false,
      headersEncrypted: true,
    });
    expect(await lister.list(files['headers.7z'], '7z', 'wrong')).toEqual({ kind: 'wrong-password' });
    const open = await lister.list(files['headers.7z'], '7z', FIXTURE_PASSWORD);
    expect(open.kind).toBe('listed');
    expect(listedNames(open)).toEqual(names);
  });

  it('refuses a zip bomb by its declared size, quickly', async () => {
    const { value, ms } = await timed(lister.list(files['bomb.zip'], 'zip'));
    expect(value).toEqual({ kind: 'too-big', reason: 'size' });
    expect(ms).toBeLessThan(5_000);
  });

  it('returns zip-slip names and links as plain names flagged unsafe', async () => {
    const result = await lister.list(files['slip.zip'], 'zip');
    expect(result.kind).toBe('listed');
    if (result.kind !== 'listed') return;
    const unsafe = Object.fromEntries(result.entries.map((entry) => [entry.name, entry.unsafe]));
    expect(unsafe).toEqual({
      [ZIP_SLIP_NAMES.parent]: true,
      [ZIP_SLIP_NAMES.absolute]: true,
      [ZIP_SLIP_NAMES.nested]: true,
      [ZIP_SLIP_NAMES.link]: true,
      [ZIP_SLIP_NAMES.ordinary]: false,
    });
  });

  it('answers 10,000 names and a truncated flag for an archive of 100,000 entries, quickly', async () => {
    const { value, ms } = await timed(lister.list(files['many.zip'], 'zip'));
    expect(value).toMatchObject({ kind: 'listed', truncated: true });
    if (value.kind !== 'listed') return;
    expect(value.entries).toHaveLength(10_000);
    expect(value.entries[0].name).toBe('folder_0/file_0.txt');
    expect(ms).toBeLessThan(5_000);
  });

  it('says a file is unreadable when it is not an archive of its type or is damaged', async () => {
    expect(await lister.list(files['text.zip'], 'zip')).toEqual({ kind: 'unreadable' });
    expect(await lister.list(files['cut.zip'], 'zip')).toEqual({ kind: 'unreadable' });
    // A 7z named .zip is not read as a 7z: each file is read only as its own type.
    expect(await lister.list(files['plain.7z'], 'zip')).toEqual({ kind: 'unreadable' });
    expect(await lister.list(files['plain.zip'], 'rar')).toEqual({ kind: 'unreadable' });
  });

  it('refuses types it does not list', async () => {
    expect(await lister.list(files['plain.zip'], 'tar')).toEqual({ kind: 'unsupported' });
    expect(archiveTypeOf('.ZIP')).toBe('zip');
    expect(archiveTypeOf('.7z')).toBe('7z');
    expect(archiveTypeOf('rar')).toBe('rar');
    expect(archiveTypeOf('.tar.gz')).toBeUndefined();
  });
});

describe('archive listing limits', () => {
  it('stops a listing at the time limit', async () => {
    const slow = createArchiveLister({ timeoutMs: 100, maxEntries: 1_000_000 });
    const { value, ms } = await timed(slow.list(files['many.zip'], 'zip'));
    expect(value).toEqual({ kind: 'too-big', reason: 'time' });
    expect(ms).toBeLessThan(1_500);
  });

  it('keeps the event loop free while a slow listing runs', async () => {
    const slow = createArchiveLister({ maxEntries: 1_000_000 });
    let finished = false;
    const listing = slow.list(files['many.zip'], 'zip').then((result) => {
      finished = true;
      return result;
    });
    const delays: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const start = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 20));
      delays.push(performance.now() - start);
    }
    expect(finished).toBe(false);
    expect(Math.max(...delays)).toBeLessThan(200);
    const result = await listing;
    expect(result).toMatchObject({ kind: 'listed', truncated: false });
    if (result.kind === 'listed') expect(result.entries).toHaveLength(100_000);
  });

  it('runs at most `concurrency` listings and refuses beyond its queue', async () => {
    const small = createArchiveLister({ concurrency: 1, maxQueue: 1, maxEntries: 1_000_000 });
    const first = small.list(files['many.zip'], 'zip');
    const second = small.list(files['plain.zip'], 'zip');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(small.load()).toEqual({ active: 1, queued: 1 });
    await expect(small.list(files['plain.zip'], 'zip')).rejects.toBeInstanceOf(ArchiveBusyError);
    expect((await first).kind).toBe('listed');
    expect((await second).kind).toBe('listed');
    expect(small.load()).toEqual({ active: 0, queued: 0 });
  });
});

describe('isUnsafeEntryName', () => {
  it('flags absolute paths and parent segments only', () => {
    for (const name of ['/etc/passwd', '\\windows\\x', 'C:\\x.txt', 'c:x', '..', '../x', 'a/../../b', 'a\\..\\b', '//server/share']) {
      expect(isUnsafeEntryName(name), name).toBe(true);
    }
    for (const name of ['a.txt', 'folder/b.txt', '..hidden', 'a..b/c', 'x/.../y', '日本語/ファイル.txt']) {
      expect(isUnsafeEntryName(name), name).toBe(false);
    }
  });
});
