import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HASH_CHUNK_BYTES } from '@shared/constants.ts';
import { progressOf, sha256OfFile, type ChunkSource, type HashProgress } from '@site/client/file-hash.ts';

const MiB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A real Blob that records every slice asked of it. */
function recording(bytes: Uint8Array): ChunkSource & { slices: [number, number][] } {
  const blob = new Blob([new Uint8Array(bytes)]);
  const slices: [number, number][] = [];
  return {
    size: blob.size,
    slices,
    slice(start: number, end: number) {
      slices.push([start, end]);
      return blob.slice(start, end);
    },
  };
}

describe('sha256OfFile', () => {
  it('reads 1 MiB chunks', () => {
    expect(HASH_CHUNK_BYTES).toBe(MiB);
  });

  for (const size of [0, 1, MiB - 1, MiB, MiB + 1, 3 * MiB + 12345]) {
    it(`matches node's SHA-256 for ${size} bytes, one chunk of at most 1 MiB at a time`, async () => {
      const bytes = randomBytes(size);
      const source = recording(bytes);
      const seen: HashProgress[] = [];
      const hash = await sha256OfFile(source, { onProgress: (p) => seen.push(p) });
      expect(hash).toBe(sha256(bytes));
      expect(source.slices).toHaveLength(Math.ceil(size / MiB));
      let next = 0;
      for (const [start, end] of source.slices) {
        expect(start).toBe(next);
        expect(end - start).toBeLessThanOrEqual(MiB);
        next = end;
      }
      expect(next).toBe(size);
      expect(seen.at(-1)).toEqual({ bytes: size, total: size, percent: 100 });
      const percents = seen.map((p) => p.percent);
      expect([...percents].sort((a, b) => a - b)).toEqual(percents);
    });
  }

  it('reports progress per chunk', async () => {
    const seen: number[] = [];
    await sha256OfFile(recording(new Uint8Array(4 * MiB)), { onProgress: (p) => seen.push(p.percent) });
    expect(seen).toEqual([0, 25, 50, 75, 100]);
  });

  it('hashes a real Blob with a custom chunk size', async () => {
    const bytes = randomBytes(1000);
    expect(await sha256OfFile(new Blob([bytes]), { chunkBytes: 7 })).toBe(sha256(bytes));
  });

  it('stops between chunks when aborted, without reading the rest', async () => {
    const controller = new AbortController();
    const source = recording(new Uint8Array(5 * MiB));
    const run = sha256OfFile(source, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.bytes >= 2 * MiB) controller.abort(new Error('another file was chosen'));
      },
    });
    await expect(run).rejects.toThrow('another file was chosen');
    expect(source.slices.length).toBe(2);
  });

  it('refuses to start with an aborted signal', async () => {
    const source = recording(new Uint8Array(10));
    await expect(sha256OfFile(source, { signal: AbortSignal.abort() })).rejects.toThrow();
    expect(source.slices).toEqual([]);
  });
});

describe('progressOf', () => {
  it('rounds down to whole percents and calls an empty file done', () => {
    expect(progressOf(1, 3)).toEqual({ bytes: 1, total: 3, percent: 33 });
    expect(progressOf(2, 3).percent).toBe(66);
    expect(progressOf(0, 0).percent).toBe(100);
  });
});
