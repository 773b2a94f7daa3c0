/**
 * Thumbnails of stored images: WebP, longest side bounded, made with sharp on first request and kept
 * at <thumbnailsDir>/ab/cd/<sha256>.webp. One generation per file at a time (concurrent requests share
 * it), a few in flight, a bounded queue; an image sharp cannot or must not decode (corrupt, or more
 * pixels than the limit) is answered with the placeholder instead.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { writeAtomic } from '../server/atomic-write.ts';
import { Slots } from './slots.ts';

/** The extensions that get a thumbnail (docs/product.md#post-cards). */
export const THUMBNAIL_EXTENSIONS = new Set(['gif', 'jpeg', 'jpg', 'jpe', 'png', 'webp']);

/**
 * Videos whose thumbnail is a poster frame kept in the thumbnail folder. The server has no video
 * decoder, so it never makes one: whoever stores the video may write it (the demo seed does). A
 * video without one has no thumbnail (404) and the post page shows no poster.
 */
export const VIDEO_POSTER_EXTENSIONS = new Set(['mp4', 'm4v', 'webm', 'mov']);

/** Where the thumbnail (or a video's poster frame) of a sha256 lives: <thumbnailsDir>/ab/cd/<sha256>.webp. */
export function thumbnailFileOf(thumbnailsDir: string, sha256: string): string {
  return path.join(thumbnailsDir, sha256.slice(0, 2), sha256.slice(2, 4), `${sha256}.webp`);
}

export interface ThumbnailSettings {
  /** Longest side of a thumbnail, in pixels. */
  maxSide: number;
  /** Images declaring more pixels than this are refused before decoding (decompression bombs). */
  maxInputPixels: number;
  quality: number;
}

export const THUMBNAIL_DEFAULTS: ThumbnailSettings = { maxSide: 600, maxInputPixels: 64_000_000, quality: 80 };

/** The image itself is unusable (corrupt, unsupported, too many pixels): retrying will not help. */
export class UnusableImageError extends Error {
  name = 'UnusableImageError';
}

// Each thumbnail reads a different file: libvips' file cache would only hold descriptors open.
sharp.cache({ files: 0 });

/**
 * Writes the thumbnail of `source` to `target` (temp file, fsync, rename). Throws UnusableImageError
 * when sharp cannot read the image or it declares more than maxInputPixels.
 */
export async function makeThumbnail(source: string, target: string, settings: ThumbnailSettings = THUMBNAIL_DEFAULTS): Promise<void> {
  let body: Buffer;
  try {
    // Default `pages: 1`: an animated GIF or WebP gives its first frame. failOn 'error' still
    // thumbnails a slightly truncated image (common in archives) instead of refusing it.
    body = await sharp(source, { limitInputPixels: settings.maxInputPixels, failOn: 'error' })
      .rotate()
      .resize({ width: settings.maxSide, height: settings.maxSide, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: settings.quality })
      .toBuffer();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) throw error;
    throw new UnusableImageError((error as Error).message);
  }
  await fsp.mkdir(path.dirname(target), { recursive: true });
  // Thumbnails are served as immutable: a file emptied by a crash would be served for a year.
  await writeAtomic(target, body, { durable: true });
}

export type ThumbnailAnswer =
  | { kind: 'thumbnail'; file: string }
  | { kind: 'placeholder' }
  /** No such stored file, or not an image extension. */
  | { kind: 'missing' }
  /** Too many generations waiting: try again later. */
  | { kind: 'busy' };

export interface ThumbnailerOptions {
  filesDir: string;
  thumbnailsDir: string;
  /** Generations running at once (sharp work is CPU-bound). */
  concurrency?: number;
  /** Generations allowed to wait for a slot; beyond that requests are told to come back. */
  queueLimit?: number;
  settings?: Partial<ThumbnailSettings>;
  log?: (line: string) => void;
}

/** Remembered failures (corrupt files stay corrupt), bounded so junk requests cannot grow memory. */
const FAILED_LIMIT = 10_000;

export class Thumbnailer {
  /** Generations finished (for tests and the benchmark). */
  generated = 0;
  private readonly inflight = new Map<string, Promise<boolean>>();
  private readonly failed = new Set<string>();
  private readonly slots: Slots;
  private readonly settings: ThumbnailSettings;

  constructor(private readonly options: ThumbnailerOptions) {
    this.slots = new Slots(options.concurrency ?? 2, options.queueLimit ?? 64);
    this.settings = { ...THUMBNAIL_DEFAULTS, ...options.settings };
  }

  /** Where the thumbnail of a sha256 lives (whatever the original's extension: same hash, same bytes). */
  thumbnailFile(sha256: string): string {
    return thumbnailFileOf(this.options.thumbnailsDir, sha256);
  }

  /** `sha256` must be 64 lowercase hex characters and `ext` plain [a-z0-9] (the caller's URL match). */
  async thumbnail(sha256: string, ext: string): Promise<ThumbnailAnswer> {
    const poster = VIDEO_POSTER_EXTENSIONS.has(ext);
    if (!poster && !THUMBNAIL_EXTENSIONS.has(ext)) return { kind: 'missing' };
    const source = path.join(this.options.filesDir, sha256.slice(0, 2), sha256.slice(2, 4), `${sha256}.${ext}`);
    if (!fs.existsSync(source)) return { kind: 'missing' };
    const file = this.thumbnailFile(sha256);
    if (fs.existsSync(file)) return { kind: 'thumbnail', file };
    if (poster) return { kind: 'missing' };
    if (this.failed.has(sha256)) return { kind: 'placeholder' };

    let pending = this.inflight.get(sha256);
    if (!pending) {
      if (this.slots.full()) return { kind: 'busy' };
      pending = this.generate(sha256, source, file).finally(() => this.inflight.delete(sha256));
      this.inflight.set(sha256, pending);
    }
    return (await pending) ? { kind: 'thumbnail', file } : { kind: 'placeholder' };
  }

  private async generate(sha256: string, source: string, file: string): Promise<boolean> {
    await this.slots.acquire();
    try {
      await makeThumbnail(source, file, this.settings);
      this.generated += 1;
      return true;
    } catch (error) {
      this.options.log?.(`thumbnail of ${sha256} failed: ${(error as Error).message}`);
      if (error instanceof UnusableImageError) {
        if (this.failed.size >= FAILED_LIMIT) this.failed.clear();
        this.failed.add(sha256);
      }
      return false;
    } finally {
      this.slots.release();
    }
  }
}
