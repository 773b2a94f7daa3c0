import { describe, expect, it } from 'vitest';
import { checkUploadFiles, formatBytes } from '@shared/upload-limits.ts';
import { cleanFilename } from '@api/media/share-upload.ts';
import { SHARE_UPLOAD_LIMITS } from '@shared/constants.ts';

const limits = { maxFileBytes: 100, maxFiles: 2, maxTotalBytes: 150 };

describe('upload limits', () => {
  it('words sizes in whole binary units when they are one', () => {
    expect(formatBytes(200 * 1024 * 1024)).toBe('200 MiB');
    expect(formatBytes(1024 ** 3)).toBe('1 GiB');
    expect(formatBytes(64 * 1024)).toBe('64 KiB');
    expect(formatBytes(1000)).toBe('1000 bytes');
  });

  it('names the first limit a choice of files breaks, as the server does', () => {
    expect(checkUploadFiles([], limits)).toBe('At least one file is required.');
    expect(
      checkUploadFiles(
        [
          { name: 'a', size: 1 },
          { name: 'b', size: 1 },
          { name: 'c', size: 1 },
        ],
        limits,
      ),
    ).toBe('At most 2 files can be uploaded at once.');
    expect(checkUploadFiles([{ name: 'big.bin', size: 101 }], limits)).toBe('File "big.bin" is larger than 100 bytes.');
    expect(
      checkUploadFiles(
        [
          { name: 'a', size: 100 },
          { name: 'b', size: 51 },
        ],
        limits,
      ),
    ).toBe('The upload is larger than 150 bytes in total.');
    expect(
      checkUploadFiles(
        [
          { name: 'a', size: 100 },
          { name: 'b', size: 50 },
        ],
        limits,
      ),
    ).toBeUndefined();
  });
});

describe('cleanFilename', () => {
  it('drops control characters, keeps Unicode, and never returns an empty name', () => {
    expect(cleanFilename('a\u0000b\r\n.txt')).toBe('ab.txt');
    expect(cleanFilename('  画像 パック.png ')).toBe('画像 パック.png');
    expect(cleanFilename('\u0007')).toBe('file');
  });

  it('shortens long names to the limit, keeping the extension', () => {
    const long = `${'n'.repeat(400)}.jpeg`;
    const clean = cleanFilename(long);
    expect([...clean].length).toBe(SHARE_UPLOAD_LIMITS.filenameMax);
    expect(clean.endsWith('.jpeg')).toBe(true);
  });
});
