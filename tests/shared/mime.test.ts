/** shared/mime.ts: the media type a stored file is served with. */
import { describe, expect, it } from 'vitest';
import { mimeForExt } from '@shared/mime.ts';

describe('mimeForExt', () => {
  it.each([
    ['.png', 'image/png'],
    ['JPG', 'image/jpeg'],
    ['.m4a', 'audio/mp4'],
    ['flac', 'audio/flac'],
    ['.mp4', 'video/mp4'],
    ['.unknown', 'application/octet-stream'],
  ])('%s is %s', (ext, type) => {
    expect(mimeForExt(ext)).toBe(type);
  });
});
