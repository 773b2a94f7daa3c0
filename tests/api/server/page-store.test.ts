import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PageStore, type WriteOptions } from '@api/server/page-store.ts';

let root: string;
let store: PageStore;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-store-'));
  store = new PageStore(path.join(root, 'pages'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('PageStore', () => {
  // The in-process writer (thread pool) and the render workers' blocking writer keep the same contract.
  const writers = [
    ['write', (key: string, html: string, options?: WriteOptions) => store.write(key, html, options)],
    ['writeSync', async (key: string, html: string, options?: WriteOptions) => store.writeSync(key, html, options)],
  ] as const;

  describe.each(writers)('%s', (_name, write) => {
    it('writes a page with brotli and gzip siblings holding the same bytes', async () => {
      expect(await write('/fanbox/user/1?o=50', '<p>hello</p>')).toBe(true);
      const file = store.fileFor('/fanbox/user/1?o=50');
      expect(file).toBe(path.join(root, 'pages', 'fanbox', 'user', '1', 'index.o50.html'));
      expect(fs.readFileSync(file, 'utf8')).toBe('<p>hello</p>');
      expect(zlib.brotliDecompressSync(fs.readFileSync(file + '.br')).toString()).toBe('<p>hello</p>');
      expect(zlib.gunzipSync(fs.readFileSync(file + '.gz')).toString()).toBe('<p>hello</p>');
      expect(fs.readdirSync(path.dirname(file)).some((name) => name.includes('.tmp-'))).toBe(false);
    });

    it('leaves compression to the first request when asked to, and never keeps stale siblings', async () => {
      await write('/posts', 'old page');
      const file = store.fileFor('/posts');
      expect(await write('/posts', 'new page', { compress: false })).toBe(true);
      expect(fs.existsSync(file + '.br')).toBe(false);
      expect(fs.existsSync(file + '.gz')).toBe(false);
      expect(store.compressMissing(file)).toBe(true);
      expect(zlib.brotliDecompressSync(fs.readFileSync(file + '.br')).toString()).toBe('new page');
      expect(zlib.gunzipSync(fs.readFileSync(file + '.gz')).toString()).toBe('new page');
      expect(store.compressMissing(file)).toBe(false);
    });

    it('leaves identical bytes untouched', async () => {
      await write('/posts', 'same');
      const file = store.fileFor('/posts');
      const before = fs.statSync(file).mtimeMs;
      expect(await write('/posts', 'same')).toBe(false);
      expect(fs.statSync(file).mtimeMs).toBe(before);
      expect(await write('/posts', 'different')).toBe(true);
    });
  });

  it('keeps keys inside the store whatever their segments hold', async () => {
    for (const key of ['/fanbox/user/..%2F..%2Fetc', '/fanbox/user/%2E%2E', '/fanbox/user/index.html', '/fanbox/user/a%2Fb']) {
      const file = store.fileFor(key);
      expect(file.startsWith(path.join(root, 'pages') + path.sep)).toBe(true);
      expect(path.relative(path.join(root, 'pages'), file).split(path.sep)).not.toContain('..');
    }
    expect(store.fileFor('/fanbox/user/index.html')).not.toBe(store.fileFor('/fanbox/user'));
  });

  it('lists and prunes listing pages by offset', async () => {
    await store.write('/fanbox/user/1', 'a');
    await store.write('/fanbox/user/1?o=50', 'b');
    await store.write('/fanbox/user/1?o=100', 'c');
    await store.write('/fanbox/user/1/tags', 'tags');
    const files = store
      .listingFiles('/fanbox/user/1')
      .map((file) => PageStore.offsetOf(file))
      .sort((a, b) => a - b);
    expect(files).toEqual([0, 50, 100]);
    expect(store.remove('/fanbox/user/1?o=100')).toBe(true);
    expect(fs.existsSync(store.fileFor('/fanbox/user/1?o=100') + '.br')).toBe(false);
    expect(store.remove('/fanbox/user/1?o=100')).toBe(false);
  });

  it('lists the pages of a listing selected by a parameter apart from the plain listing', async () => {
    for (const key of [
      '/posts/popular',
      '/posts/popular?o=50',
      '/posts/popular?period=week',
      '/posts/popular?period=week&o=100',
      '/posts/popular?period=day',
    ]) {
      await store.write(key, key);
    }
    const offsets = (listing: string) =>
      store
        .listingFiles(listing)
        .map((file) => PageStore.offsetOf(file))
        .sort((a, b) => a - b);
    expect(offsets('/posts/popular')).toEqual([0, 50]);
    expect(offsets('/posts/popular?period=week')).toEqual([0, 100]);
    expect(offsets('/posts/popular?period=day')).toEqual([0]);
    expect(offsets('/posts/popular?period=month')).toEqual([]);
  });

  it('keeps only the given pages after a full render', async () => {
    store.adoptBuild('build-1');
    for (const key of ['/posts', '/posts?o=50', '/fanbox/user/1', '/fanbox/user/1/post/2']) await store.write(key, key);
    expect(store.pruneExcept(['/posts', '/fanbox/user/1/post/2'])).toBe(2);
    expect(store.has('/posts')).toBe(true);
    expect(store.has('/posts?o=50')).toBe(false);
    expect(store.has('/fanbox/user/1')).toBe(false);
    expect(store.buildId()).toBe('build-1');
  });

  it('empties itself when the build changes', async () => {
    expect(store.adoptBuild('build-1').fresh).toBe(true);
    await store.write('/posts', 'x');
    expect(store.adoptBuild('build-1').fresh).toBe(false);
    expect(store.has('/posts')).toBe(true);
    expect(store.adoptBuild('build-2').fresh).toBe(true);
    expect(store.has('/posts')).toBe(false);
    expect(store.buildId()).toBe('build-2');
  });
});
