/**
 * SHA-256 of a file chosen in the browser (hash search, 1 MiB chunks: docs/product.md#hash-search-page).
 * Browser-safe. Only one chunk is in memory at a time, so multi-gigabyte files hash without
 * exhausting the tab; hash-wasm's incremental hasher is used because WebCrypto has no streaming digest.
 */
import { createSHA256 } from 'hash-wasm';
import { HASH_CHUNK_BYTES } from '@shared/constants.ts';

/** The part of Blob this needs (tests pass a recording wrapper). */
export interface ChunkSource {
  readonly size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

export interface HashProgress {
  bytes: number;
  total: number;
  /** Whole percent, 0 to 100; an empty file is 100 once done. */
  percent: number;
}

export interface HashFileOptions {
  chunkBytes?: number;
  onProgress?: (progress: HashProgress) => void;
  /** Stops between chunks with the signal's reason (picking another file cancels the first). */
  signal?: AbortSignal;
}

export function progressOf(bytes: number, total: number): HashProgress {
  const percent = total === 0 ? 100 : Math.floor((bytes / total) * 100);
  return { bytes, total, percent };
}

/** Lowercase hex SHA-256 of the whole source, read chunk by chunk. */
export async function sha256OfFile(source: ChunkSource, options: HashFileOptions = {}): Promise<string> {
  const chunkBytes = options.chunkBytes ?? HASH_CHUNK_BYTES;
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const hasher = await createSHA256();
  hasher.init();
  onProgress?.(progressOf(0, source.size));
  for (let start = 0; start < source.size; start += chunkBytes) {
    signal?.throwIfAborted();
    const end = Math.min(start + chunkBytes, source.size);
    const chunk = await source.slice(start, end).arrayBuffer();
    signal?.throwIfAborted();
    hasher.update(new Uint8Array(chunk));
    onProgress?.(progressOf(end, source.size));
  }
  return hasher.digest('hex');
}
