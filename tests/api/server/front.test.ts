/**
 * The one HTTP server end to end over real HTTP: API, media, built assets, the page store and SSR,
 * with a real build, a real SQLite file and real files on disk.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest } from '../../helpers/http.ts';
import type { Db } from '@api/data/db.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { storeFile } from '@api/media/store.ts';
import type { PageStore } from '@api/server/page-store.ts';
import { DIST_DIR } from '../../../scripts/lib/build.ts';

let site: TestSite;
let db: Db;
let store: PageStore;
let base: string;
let image: { sha256: string; path: string; size: number };

function request(pathname: string, headers: Record<string, string> = {}, method = 'GET') {
  return httpRequest(`${base}${pathname}`, { headers, method });
}

beforeAll(async () => {
  site = await createTestSite('front');
  ({ db, store } = site);
  const paths = site.paths;
  image = await storeFile(paths.files, Buffer.from('not really a png, but bytes with a known hash'), 'png');
  fs.mkdirSync(path.join(paths.icons, 'fanbox'), { recursive: true });
  fs.writeFileSync(path.join(paths.icons, 'fanbox', 'artist1'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
  await upsertCreator(db, { service: 'fanbox', id: 'artist1', name: 'Front Test Artist', indexed: 1_700_000_000, updated: 1_700_000_000 });
  await upsertPost(db, {
    service: 'fanbox',
    user: 'artist1',
    id: 'p1',
    title: 'First post',
    content: '<p>Hi<script>alert(1)</script></p>',
    published: '2024-05-01T10:00:00',
    file: { name: 'a.png', path: image.path },
  });

  base = await site.start();
}, 300_000);

afterAll(() => site?.close());

describe('front server', () => {
  it('hands /api to the API', async () => {
    const answer = await request('/api/v1/app_version');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toContain('application/json');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves stored files at /data and bare paths, with ranges and download names', async () => {
    const full = await request(`/data${image.path}?f=picture.png`);
    expect(full.status).toBe(200);
    expect(crypto.createHash('sha256').update(full.body).digest('hex')).toBe(image.sha256);
    expect(full.headers['content-disposition']).toContain('picture.png');
    const bare = await request(image.path, { range: 'bytes=4-' });
    expect(bare.status).toBe(206);
    expect(bare.body.length).toBe(image.size - 4);
    expect((await request(`/data${image.path.replace(/.png$/, '.jpg')}`)).status).toBe(404);
    expect((await request(`/thumbnail/data${image.path}`)).status).toBe(200);
  });

  it('serves creator icons with their sniffed type and refuses paths outside the folder', async () => {
    const icon = await request('/icons/fanbox/artist1');
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expect((await request('/icons/fanbox/..%2F..%2Ftrove.sqlite')).status).toBe(404);
    expect((await request('/icons/myspace/artist1')).status).toBe(404);
  });

  it('renders an archive page once, stores it, and answers later requests from the store', async () => {
    expect(store.has('/fanbox/user/artist1/post/p1')).toBe(false);
    const first = await request('/fanbox/user/artist1/post/p1');
    expect(first.status).toBe(200);
    expect(first.body.toString()).toContain('First post');
    expect(first.body.toString()).not.toContain('<script>alert(1)');
    expect(store.has('/fanbox/user/artist1/post/p1')).toBe(true);

    // Change the stored bytes: the next answer must come from the store, not from a new render.
    await store.write('/fanbox/user/artist1/post/p1', '<!doctype html><p>from the store</p>');
    const second = await request('/fanbox/user/artist1/post/p1', { 'accept-encoding': 'br' });
    expect(second.headers['content-encoding']).toBe('br');
    const third = await request('/fanbox/user/artist1/post/p1');
    expect(third.body.toString()).toBe('<!doctype html><p>from the store</p>');
    const etag = String(third.headers.etag);
    expect((await request('/fanbox/user/artist1/post/p1', { 'if-none-match': etag })).status).toBe(304);
  });

  it('compresses a stored page that was written without its siblings on the first request for it', async () => {
    await request('/fanbox/user/artist1');
    await store.write('/fanbox/user/artist1', '<!doctype html><p>uncompressed so far</p>', { compress: false });
    const file = store.fileFor('/fanbox/user/artist1');
    expect(fs.existsSync(file + '.br')).toBe(false);
    const answer = await request('/fanbox/user/artist1', { 'accept-encoding': 'gzip, br' });
    expect(answer.headers['content-encoding']).toBe('br');
    expect(fs.existsSync(file + '.gz')).toBe(true);
    const plain = await request('/fanbox/user/artist1', { 'accept-encoding': 'identity' });
    expect(plain.body.toString()).toBe('<!doctype html><p>uncompressed so far</p>');
  });

  it('never stores searches, errors or unknown pages', async () => {
    const found = await request('/fanbox/user/artist1?q=first');
    expect(found.status).toBe(200);
    expect(found.body.toString()).toContain('First post');
    expect((await request('/fanbox/user/artist1?q=nothing-like-this')).body.toString()).toContain('There are no posts for your query.');
    expect(store.has('/fanbox/user/artist1?q=first')).toBe(false);
    const short = await request('/posts?q=x');
    expect(short.status).toBe(400);
    expect(short.body.toString()).toContain('Search query must be at least 2 characters long.');
    const bad = await request('/fanbox/user/artist1?o=25');
    expect(bad.status).toBe(400);
    expect(bad.body.toString()).toContain('Offset 25 is not a multiple of 50.');
    const missing = await request('/fanbox/user/nobody');
    expect(missing.status).toBe(404);
    expect(store.has('/fanbox/user/nobody')).toBe(false);
    const unknown = await request('/no/such/page');
    expect(unknown.status).toBe(404);
    expect(unknown.body.toString()).toContain('The page you are looking for does not exist.');
  });

  it('serves prerendered text pages and hashed assets', async () => {
    const text = await request('/dmca', { 'accept-encoding': 'gzip' });
    expect(text.status).toBe(200);
    const asset = fs.readdirSync(path.join(DIST_DIR, 'client', '_astro')).find((name) => name.endsWith('.css'));
    const css = await request(`/_astro/${asset}`);
    expect(css.status).toBe(200);
    expect(css.headers['cache-control']).toContain('immutable');
  });
});
