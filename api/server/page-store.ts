/**
 * The page store: rendered archive pages kept as static files under DATA_DIR/pages, each with
 * precompressed .br and .gz siblings. A page is addressed by its canonical key (see api/pages/keys.ts).
 * Writes are atomic (temp file + rename, compressed siblings first, the HTML last). A feed key (see
 * storedFeedFormat) is kept as 'feed[.<selectors>].rss' or '.atom' beside the pages, so the file's
 * extension says what it holds; no HTML file name ends that way.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fsp from 'node:fs/promises';
import { promisify } from 'node:util';
import { writeAtomic, writeAtomicSync } from './atomic-write.ts';
import { walkFiles } from './walk.ts';
import { isAbsent, unlessAbsent } from './fs-errors.ts';
import { decodeComponent } from '@shared/parse.ts';
import { storedFeedFormat } from '../pages/keys.ts';
import { FEED_CONTENT_TYPES } from '../feeds/render.ts';

const BUILD_FILE = '.build-id';
/** Measured on a 35 KB listing page: brotli 4 takes 0.43 ms for 4.9 KB, 5 takes 0.58 ms for 4.5 KB. */
const BROTLI_OPTIONS: zlib.BrotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
const GZIP_OPTIONS: zlib.ZlibOptions = { level: 6 };
const HTML_TYPE = 'text/html; charset=utf-8';
/** What stored files end with: HTML pages and the two feed formats. */
const STORED_FILE = /\.(html|rss|atom)$/;
/** The precompressed siblings of a page file. */
const SIBLINGS = ['.br', '.gz'];
const brotli = promisify(zlib.brotliCompress);
/** How far into a stored page its first paginator is looked for (the header and search box come before it). */
const CURSOR_SCAN_BYTES = 64 * 1024;
const gzip = promisify(zlib.gzip);

/** Encodes one path segment so that no key can escape the store or collide with a page file. */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/\./g, '%2E').replace(/\*/g, '%2A');
}

export interface WriteOptions {
  /** Write the .br and .gz siblings now (default), or leave them to the first request that wants one. */
  compress?: boolean;
  /** The store was emptied before this render: there is no stored page to compare with or replace. */
  fresh?: boolean;
}

export class PageStore {
  constructor(readonly root: string) {}

  /** Relative file for a canonical key: '/fanbox/user/1?o=50' → 'fanbox/user/1/index.o50.html'. */
  fileFor(key: string): string {
    const [pathname, query = ''] = key.split('?');
    const segments = pathname
      .split('/')
      .filter(Boolean)
      .map((segment) => encodeSegment(decodeURIComponentSafe(segment)));
    const params = new URLSearchParams(query);
    const suffix = [...params].map(([name, value]) => `.${encodeSegment(name)}${encodeSegment(value)}`).join('');
    const feed = storedFeedFormat(key);
    if (feed) return path.join(this.root, ...segments.slice(0, -1), `feed${suffix}.${feed}`);
    return path.join(this.root, ...segments, `index${suffix}.html`);
  }

  /** The content type a stored key is served with: its feed format's, else HTML. */
  static contentTypeOf(key: string): string {
    const feed = storedFeedFormat(key);
    return feed ? FEED_CONTENT_TYPES[feed] : HTML_TYPE;
  }

  has(key: string): boolean {
    return fs.existsSync(this.fileFor(key));
  }

  /**
   * Writes the page; resolves false when the stored bytes were already identical (nothing touched).
   * Compression and file writes run on libuv's thread pool, so a render loop on the main thread keeps
   * the other core busy with them. With `compress: false` (full renders) only the HTML is written and
   * its siblings are made by the first request that asks for them (compressMissing).
   */
  async write(key: string, html: string | Buffer, options: WriteOptions = {}): Promise<boolean> {
    const file = this.fileFor(key);
    const body = typeof html === 'string' ? Buffer.from(html) : html;
    if (!options.fresh) {
      const existing = await fsp.readFile(file).catch((error: unknown) => {
        if (isAbsent(error)) return undefined;
        throw error;
      });
      if (existing?.equals(body)) return false;
    }
    if (options.compress === false) {
      await fsp.mkdir(path.dirname(file), { recursive: true });
      if (!options.fresh) await Promise.all(SIBLINGS.map((suffix) => fsp.rm(file + suffix, { force: true })));
      await writeAtomic(file, body);
      return true;
    }
    const [br, gz] = await Promise.all([
      brotli(body, BROTLI_OPTIONS),
      gzip(body, GZIP_OPTIONS),
      fsp.mkdir(path.dirname(file), { recursive: true }),
    ]);
    await Promise.all([writeAtomic(`${file}.br`, br), writeAtomic(`${file}.gz`, gz)]);
    await writeAtomic(file, body);
    return true;
  }

  /**
   * `write` without the thread pool, for render workers: their thread has nothing else to do, and on
   * two cores the pool's threads only compete with the renderers (measured: 1,005 against 669 pages/s
   * on two workers, docs/benchmarks.md).
   */
  writeSync(key: string, html: string | Buffer, options: WriteOptions = {}): boolean {
    const file = this.fileFor(key);
    const body = typeof html === 'string' ? Buffer.from(html) : html;
    if (!options.fresh) {
      const existing = readIfPresent(file);
      if (existing?.equals(body)) return false;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (options.compress === false) {
      if (!options.fresh) for (const suffix of SIBLINGS) fs.rmSync(file + suffix, { force: true });
    } else {
      writeCompressedSync(file, body);
    }
    writeAtomicSync(file, body);
    return true;
  }

  /**
   * Writes the .br and .gz siblings of a stored page file when they are missing (pages of a full
   * render). Returns whether it wrote them.
   */
  compressMissing(file: string): boolean {
    if (fs.existsSync(`${file}.br`)) return false;
    const body = unlessAbsent(() => fs.readFileSync(file), undefined);
    if (!body) return false;
    writeCompressedSync(file, body);
    return true;
  }

  /**
   * The cursor a stored listing page starts after (its paginator's data-after, src/loaders/paging.ts),
   * or undefined when the page is not stored or records none. Reads the page's head only.
   */
  continuesFrom(key: string): string | undefined {
    const head = unlessAbsent(() => {
      const fd = fs.openSync(this.fileFor(key), 'r');
      try {
        const buffer = Buffer.alloc(CURSOR_SCAN_BYTES);
        return buffer.subarray(0, fs.readSync(fd, buffer, 0, CURSOR_SCAN_BYTES, 0)).toString('utf8');
      } finally {
        fs.closeSync(fd);
      }
    }, undefined);
    const match = head && /<nav class="paginator"[^>]*? data-after="([^"]*)"/.exec(head);
    return match ? unescapeAttribute(match[1]) : undefined;
  }

  /** Removes a stored page; returns whether it existed. */
  remove(key: string): boolean {
    return this.removeFile(this.fileFor(key));
  }

  removeFile(file: string): boolean {
    const existed = unlessAbsent(() => {
      fs.unlinkSync(file);
      return true;
    }, false);
    for (const suffix of SIBLINGS) fs.rmSync(file + suffix, { force: true });
    return existed;
  }

  /**
   * Stored page files for the listing pages of one listing: the pages of 'path' (or 'path?name=value',
   * a listing selected by other parameters, as the popular periods are) with any `o`.
   */
  listingFiles(listing: string): string[] {
    const base = this.fileFor(listing);
    const dir = path.dirname(base);
    const stem = path.basename(base, '.html');
    return unlessAbsent(() => fs.readdirSync(dir), [] as string[])
      .filter((name) => name.startsWith(stem) && /^(\.o\d+)?\.html$/.test(name.slice(stem.length)))
      .map((name) => path.join(dir, name));
  }

  /** Offset encoded in a listing file's name ('index.o100.html' → 100, 'index.html' → 0). */
  static offsetOf(file: string): number {
    const match = /\.o(\d+)\.html$/.exec(file);
    return match ? Number(match[1]) : 0;
  }

  buildId(): string | undefined {
    return unlessAbsent(() => fs.readFileSync(path.join(this.root, BUILD_FILE), 'utf8').trim(), undefined);
  }

  /**
   * Empties the store when it was rendered by another build (or never), and records the current one.
   * `fresh` tells the caller that every page must be rendered again.
   */
  adoptBuild(buildId: string): { fresh: boolean } {
    if (this.buildId() === buildId) return { fresh: false };
    fs.rmSync(this.root, { recursive: true, force: true });
    fs.mkdirSync(this.root, { recursive: true });
    writeAtomicSync(path.join(this.root, BUILD_FILE), `${buildId}\n`);
    return { fresh: true };
  }

  /** Removes every stored page whose key is not in `keys` (after a full render). Returns how many. */
  pruneExcept(keys: Iterable<string>): number {
    const keep = new Set<string>();
    for (const key of keys) keep.add(this.fileFor(key));
    let removed = 0;
    for (const file of walkFiles(this.root)) {
      if (STORED_FILE.test(file) && !keep.has(file) && this.removeFile(file)) removed += 1;
    }
    return removed;
  }
}

function writeCompressedSync(file: string, body: Buffer): void {
  writeAtomicSync(`${file}.br`, zlib.brotliCompressSync(body, BROTLI_OPTIONS));
  writeAtomicSync(`${file}.gz`, zlib.gzipSync(body, GZIP_OPTIONS));
}

function readIfPresent(file: string): Buffer | undefined {
  return unlessAbsent(() => fs.readFileSync(file), undefined);
}

function decodeURIComponentSafe(value: string): string {
  return decodeComponent(value) ?? value;
}

/** An attribute value as the page wrote it, back to its text (Astro writes &#38; for &, &#34; for "...). */
function unescapeAttribute(value: string): string {
  const named: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|quot|apos|lt|gt);/gi, (entity, name: string) => {
    if (name[0] !== '#') return named[name.toLowerCase()] ?? entity;
    const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}
