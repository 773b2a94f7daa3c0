/**
 * nginx in front of the web nodes (api/cluster/nginx.ts), over real HTTP: a real front server on a
 * SQLite archive, the real build, the real page store, and Debian's nginx started with startNginx.
 * nginx answers stored pages and built files from disk with the node's headers and bytes, and passes
 * everything else to the nodes, going on to the next one when a node is gone.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { renderSiteConfig, startNginx, type NginxOptions } from '@api/cluster/nginx.ts';
import { readConfig } from '@api/config.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { getFileByHash, registerFile } from '@api/data/files.ts';
import { storeFile } from '@api/media/store.ts';
import { upsertPost } from '@api/data/posts.ts';
import { createFrontServer } from '@api/server/front.ts';
import { DIST_DIR } from '../../../scripts/lib/build.ts';
import { freePort } from '../../../scripts/lib/postgres-cluster.ts';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { closeServer, httpRequest, listen, type RawAnswer } from '../../helpers/http.ts';

const NGINX_BIN = process.env.NGINX_BIN || '/usr/sbin/nginx';

/** Stored files: an image shown inline, and an HTML file (a type a browser could run). */
const FILES = {
  image: { bytes: crypto.randomBytes(50_000), ext: 'png', mime: 'image/png' },
  page: { bytes: Buffer.from('<!doctype html><script>alert(1)</script>'), ext: 'html', mime: 'text/html' },
};
const fileUrls: Record<string, string> = {};
const CLIENT_DIR = path.join(DIST_DIR, 'client');

/** The example deployment deploy/nginx/trove.conf is rendered for (its README says what to change). */
const EXAMPLE: NginxOptions = {
  listenHost: '0.0.0.0',
  listenPort: 80,
  upstreams: ['10.0.0.11:4321', '10.0.0.12:4321'],
  dataDir: '/srv/trove/data',
  clientDir: '/srv/trove/app/dist/client',
  runDir: '/run/trove-nginx',
  config: readConfig({ DATA_DIR: '/srv/trove/data', PUBLIC_URL: 'https://archive.example.org', TRUST_PROXY: '1', NODE_ENV: 'production' }),
};

describe('deploy/nginx/trove.conf', () => {
  it('is what renderSiteConfig renders for the example deployment (npx vitest run <this file> -u writes it again)', async () => {
    await expect(renderSiteConfig(EXAMPLE)).toMatchFileSnapshot('../../../deploy/nginx/trove.conf');
  });
});

/** The headers a stored page or built file must carry the same way from nginx as from the node. */
const SAME_HEADERS = [
  'content-type',
  'content-encoding',
  'cache-control',
  'vary',
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'x-frame-options',
  'cross-origin-opener-policy',
  'strict-transport-security',
];

const STORED = [
  '/fanbox/user/artist1',
  '/fanbox/user/artist1?o=50',
  '/fanbox/user/artist1/post/p1',
  '/posts/feed.rss',
  '/fanbox/user/artist1/feed.atom',
];

function day(n: number): string {
  return new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 19);
}

function pick(answer: RawAnswer, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, answer.headers[name]]));
}

/** nginx's validator is strong ("mtime-size"); the front server's is weak (W/"size-mtime"): who answered. */
const fromDisk = (answer: RawAnswer) => typeof answer.headers.etag === 'string' && !answer.headers.etag.startsWith('W/');

const HAS_NGINX = fs.existsSync(NGINX_BIN);
const TITLE = HAS_NGINX
  ? 'nginx in front of the web nodes'
  : `nginx in front of the web nodes: skipped, no nginx at ${NGINX_BIN} (set NGINX_BIN)`;

describe.skipIf(!HAS_NGINX)(TITLE, () => {
  let site: TestSite;
  let node: string;
  let proxy: string;
  const stops: Array<() => Promise<void>> = [];
  const runDirs: string[] = [];

  async function nginxFor(upstreams: string[]): Promise<string> {
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-nginx-'));
    runDirs.push(runDir);
    const listenPort = await freePort();
    const nginx = await startNginx({ listenPort, upstreams, dataDir: site.dataDir, clientDir: CLIENT_DIR, runDir, config: site.config });
    stops.push(nginx.stop);
    return `http://127.0.0.1:${listenPort}`;
  }

  const get = (base: string, target: string, headers: Record<string, string> = {}, method = 'GET') =>
    httpRequest(`${base}${target}`, { headers, method, path: target });

  beforeAll(async () => {
    site = await createTestSite('nginx');
    await upsertCreator(site.db, { service: 'fanbox', id: 'artist1', name: 'Nginx Test Artist' });
    for (let n = 1; n <= 60; n++) {
      await upsertPost(site.db, { service: 'fanbox', user: 'artist1', id: `p${n}`, title: `Post ${n}`, published: day(n), added: day(n) });
    }
    for (const [name, file] of Object.entries(FILES)) {
      const stored = await storeFile(site.paths.files, file.bytes, file.ext);
      await registerFile(site.db, { hash: stored.sha256, size: file.bytes.length, ext: file.ext, mime: file.mime });
      fileUrls[name] = `/data${stored.path}`;
    }
    node = await site.start();
    // The node renders these into the store on their first request.
    for (const target of STORED) expect((await get(node, target)).status).toBe(200);
    for (const target of STORED) expect(site.store.has(target)).toBe(true);
    proxy = await nginxFor([new URL(node).host]);
  }, 300_000);

  afterAll(async () => {
    for (const stop of stops) await stop();
    await site?.close();
    for (const dir of runDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("accepts deploy/nginx/trove.conf inside an http block like Debian's nginx.conf (nginx -t)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-nginx-deploy-'));
    runDirs.push(dir);
    const main = path.join(dir, 'nginx.conf');
    const deploy = path.resolve('deploy/nginx/trove.conf');
    fs.writeFileSync(
      main,
      [
        'load_module /usr/lib/nginx/modules/ngx_http_brotli_static_module.so;',
        `pid ${dir}/nginx.pid;`,
        'events { }',
        `http { include /etc/nginx/mime.types; gzip on; access_log off; client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; include ${deploy}; }`,
      ].join('\n'),
    );
    const check = spawnSync(NGINX_BIN, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', main, '-t'], { encoding: 'utf8' });
    expect(check.stderr).toContain('test is successful');
  });

  it('answers stored pages and feeds from disk with the bytes and headers the node sends, compressed when asked', async () => {
    for (const target of STORED) {
      const file = site.store.fileFor(target);
      for (const [encoding, suffix] of [
        ['identity', ''],
        ['gzip', '.gz'],
        ['gzip, deflate, br', '.br'],
      ]) {
        const headers = { 'accept-encoding': encoding };
        const [direct, proxied] = [await get(node, target, headers), await get(proxy, target, headers)];
        expect(proxied.status, target).toBe(200);
        expect(fromDisk(proxied), `${target} (${encoding}) from disk`).toBe(true);
        expect(proxied.body.equals(fs.readFileSync(file + suffix)), target).toBe(true);
        expect(proxied.body.equals(direct.body), target).toBe(true);
        expect(pick(proxied, SAME_HEADERS), `${target} (${encoding})`).toEqual(pick(direct, SAME_HEADERS));
      }
    }
    const feed = await get(proxy, '/posts/feed.rss');
    expect(feed.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect((await get(proxy, '/fanbox/user/artist1/feed.atom')).headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(String(feed.headers['content-security-policy'])).toContain("script-src 'self' 'wasm-unsafe-eval' 'sha256-");
  });

  it('maps ?o=N to its stored file, and a trailing slash, HEAD and revalidation as the node does', async () => {
    const o50 = await get(proxy, '/fanbox/user/artist1?o=50');
    expect(o50.body.equals(fs.readFileSync(path.join(site.paths.pages, 'fanbox', 'user', 'artist1', 'index.o50.html')))).toBe(true);
    expect(o50.body.toString()).toContain('Post 10');
    const slash = await get(proxy, '/fanbox/user/artist1/');
    expect(fromDisk(slash)).toBe(true);
    expect(slash.body.equals((await get(node, '/fanbox/user/artist1/')).body)).toBe(true);
    // `o=050` is the same page to the node; nginx leaves anything but the plain form to it.
    const padded = await get(proxy, '/fanbox/user/artist1?o=050');
    expect(fromDisk(padded)).toBe(false);
    expect(padded.body.equals(o50.body)).toBe(true);

    const head = await get(proxy, '/fanbox/user/artist1', {}, 'HEAD');
    const directHead = await get(node, '/fanbox/user/artist1', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(directHead.headers['content-length']);
    expect(pick(head, SAME_HEADERS)).toEqual(pick(directHead, SAME_HEADERS));

    const etag = String(head.headers.etag);
    const again = await get(proxy, '/fanbox/user/artist1', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const since = await get(proxy, '/fanbox/user/artist1', { 'if-modified-since': String(head.headers['last-modified']) });
    expect(since.status).toBe(
      (await get(node, '/fanbox/user/artist1', { 'if-modified-since': String(head.headers['last-modified']) })).status,
    );
  });

  it('passes other parameters, encoded paths, other methods and the API to the node unchanged', async () => {
    for (const target of [
      '/fanbox/user/artist1?q=Post',
      '/fanbox/user/artist1?o=50&x=1',
      '/fanbox/user/artist1?o=25',
      '/fanbox/user/artist%31',
      '/fanbox/user/artist1%2Fpost%2Fp1',
      '/%ff',
      '/api/v1/app_version',
      '/api/v1/fanbox/user/artist1/profile',
    ]) {
      const [direct, proxied] = [await get(node, target), await get(proxy, target)];
      expect(proxied.status, target).toBe(direct.status);
      expect(fromDisk(proxied), target).toBe(false);
      expect(proxied.headers['content-type'], target).toBe(direct.headers['content-type']);
      if (!target.startsWith('/api/'))
        expect(proxied.headers['content-security-policy'], target).toBe(direct.headers['content-security-policy']);
    }
    expect((await get(proxy, '/fanbox/user/artist1%2Fpost%2Fp1')).status).toBe(404);
    const posted = await get(proxy, '/fanbox/user/artist1', { 'content-type': 'application/x-www-form-urlencoded' }, 'POST');
    expect(posted.status).toBe(
      (await get(node, '/fanbox/user/artist1', { 'content-type': 'application/x-www-form-urlencoded' }, 'POST')).status,
    );
    expect(fromDisk(posted)).toBe(false);
  });

  it('lets the node render a page that is not stored yet, then answers it from disk', async () => {
    const target = '/fanbox/user/artist1/post/p2';
    expect(site.store.has(target)).toBe(false);
    const first = await get(proxy, target, { 'accept-encoding': 'br' });
    expect(first.status).toBe(200);
    expect(fromDisk(first)).toBe(false);
    expect(site.store.has(target)).toBe(true);
    const second = await get(proxy, target, { 'accept-encoding': 'br' });
    expect(fromDisk(second)).toBe(true);
    expect(second.headers['content-encoding']).toBe('br');
    expect(second.body.equals(fs.readFileSync(`${site.store.fileFor(target)}.br`))).toBe(true);
  });

  it('leaves a compressed sibling the store has not written yet to the node, which writes it', async () => {
    const target = '/fanbox/user/artist1/post/p3';
    await get(node, target);
    const file = site.store.fileFor(target);
    await site.store.write(target, '<!doctype html><p>written by a full render</p>', { compress: false });
    expect(fs.existsSync(`${file}.br`)).toBe(false);
    const plain = await get(proxy, target, { 'accept-encoding': 'identity' });
    expect(fromDisk(plain)).toBe(true);
    expect(plain.body.toString()).toBe('<!doctype html><p>written by a full render</p>');
    const first = await get(proxy, target, { 'accept-encoding': 'br' });
    expect(fromDisk(first)).toBe(false);
    expect(first.headers['content-encoding']).toBe('br');
    expect(fs.existsSync(`${file}.br`)).toBe(true);
    expect(fromDisk(await get(proxy, target, { 'accept-encoding': 'br' }))).toBe(true);
  });

  it("answers the build's files with the node's headers", async () => {
    const css = fs.readdirSync(path.join(CLIENT_DIR, '_astro')).find((name) => name.endsWith('.css'))!;
    for (const target of [`/_astro/${css}`, '/dmca', '/', '/favicon.svg']) {
      for (const encoding of ['identity', 'br']) {
        const headers = { 'accept-encoding': encoding };
        const [direct, proxied] = [await get(node, target, headers), await get(proxy, target, headers)];
        expect(proxied.status, target).toBe(200);
        expect(fromDisk(proxied), target).toBe(true);
        expect(proxied.body.equals(direct.body), target).toBe(true);
        expect(pick(proxied, SAME_HEADERS), `${target} (${encoding})`).toEqual(pick(direct, SAME_HEADERS));
      }
    }
    // The node never answers a sibling as a file of its own, nor a folder of the build.
    for (const target of [`/_astro/${css}.br`, '/_astro/']) {
      expect((await get(proxy, target)).status, target).toBe((await get(node, target)).status);
    }
  });

  it('sends stored files itself with the headers the node decides: type, name, validator, sandboxing, ranges', async () => {
    const fileHeaders = [
      'content-type',
      'content-disposition',
      'cache-control',
      'etag',
      'last-modified',
      'content-security-policy',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-opener-policy',
      'content-length',
    ];
    for (const target of [fileUrls.image, fileUrls.page, `${fileUrls.image}?f=${encodeURIComponent('ünïcode name.png')}`]) {
      const [direct, proxied] = [await get(node, target), await get(proxy, target)];
      expect(proxied.status, target).toBe(200);
      expect(proxied.body.equals(direct.body), target).toBe(true);
      expect(pick(proxied, fileHeaders), target).toEqual(pick(direct, fileHeaders));
    }
    // An HTML file is a sandboxed download whichever server sends it.
    expect((await get(proxy, fileUrls.page)).headers['content-security-policy']).toBe("sandbox; default-src 'none'");

    // The bytes come from nginx: asked as nginx asks, the node names the file and sends none.
    const named = await get(node, fileUrls.image, { 'x-trove-accel-files': '/_trove_files/' });
    expect(named.status).toBe(200);
    expect(named.body.length).toBe(0);
    expect(named.headers['x-accel-redirect']).toBe(`/_trove_files${fileUrls.image.slice('/data'.length)}`);
    // A value that is not a plain folder is ignored; the internal location is not reachable from outside.
    expect((await get(node, fileUrls.image, { 'x-trove-accel-files': '/../' })).body.equals(FILES.image.bytes)).toBe(true);
    expect((await get(proxy, `/_trove_files${fileUrls.image.slice('/data'.length)}`)).status).not.toBe(200);
    // A client's own header does not reach the node elsewhere (it would get an empty answer).
    expect((await get(proxy, '/api/v1/creators', { 'x-trove-accel-files': '/_trove_files/' })).status).toBe(200);

    const range = await get(proxy, fileUrls.image, { range: 'bytes=10-19' });
    expect(range.status).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 10-19/${FILES.image.bytes.length}`);
    expect(range.body.equals(FILES.image.bytes.subarray(10, 20))).toBe(true);
    const etag = String((await get(proxy, fileUrls.image)).headers.etag);
    expect((await get(proxy, fileUrls.image, { 'if-none-match': etag })).status).toBe(304);
  });

  it('still answers stored pages when its only node is down, and 502 for everything else', async () => {
    const down = await nginxFor([`127.0.0.1:${await freePort()}`]);
    const stored = await get(down, '/fanbox/user/artist1', { 'accept-encoding': 'br' });
    expect(stored.status).toBe(200);
    expect(stored.body.equals(fs.readFileSync(`${site.store.fileFor('/fanbox/user/artist1')}.br`))).toBe(true);
    expect((await get(down, '/dmca')).status).toBe(200);
    for (const target of ['/fanbox/user/artist1/post/p4', '/fanbox/user/artist1?q=Post', '/api/v1/app_version']) {
      const answer = await get(down, target);
      expect(answer.status, target).toBe(502);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('loses no GET when one of two nodes is killed under load', async () => {
    const second = createFrontServer({
      api: createApp({ db: site.db, config: site.config }),
      clientDir: CLIENT_DIR,
      media: { ...site.paths, mimeOf: async (hash) => (await getFileByHash(site.db, hash))?.mime },
      store: site.store,
      ssr: site.handler,
      renderer: site.renderer,
      site: { db: site.db, config: site.config },
    });
    let answeredBySecond = 0;
    let seen: http.IncomingHttpHeaders = {};
    second.on('request', (req: http.IncomingMessage) => {
      answeredBySecond += 1;
      seen = req.headers;
    });
    const secondBase = await listen(second as http.Server);

    // What the nodes' TRUST_PROXY reads is nginx's: the client is the last X-Forwarded-For entry, the
    // scheme and host are set, whatever the client sent.
    const only = await nginxFor([new URL(secondBase).host]);
    const spoofed = { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
    expect((await get(only, '/api/v1/app_version', spoofed)).status).toBe(200);
    expect(seen['x-forwarded-for']).toBe('203.0.113.9, 127.0.0.1');
    expect(seen['x-forwarded-proto']).toBe('http');
    expect(seen['x-forwarded-host']).toBe(new URL(only).host);
    expect(seen.host).toBe(new URL(only).host);
    answeredBySecond = 0;
    const both = await nginxFor([new URL(node).host, new URL(secondBase).host]);

    const targets = [
      '/api/v1/app_version',
      '/fanbox/user/artist1?q=Post',
      '/api/v1/fanbox/user/artist1/profile',
      '/fanbox/user/artist1?o=50',
    ];
    const statuses: number[] = [];
    let sent = 0;
    let killed = false;
    async function client(): Promise<void> {
      while (sent < 240) {
        const target = targets[sent++ % targets.length];
        if (sent === 80 && !killed) {
          killed = true;
          await closeServer(second);
        }
        statuses.push((await get(both, target)).status);
      }
    }
    await Promise.all(Array.from({ length: 6 }, client));
    expect(killed).toBe(true);
    expect(answeredBySecond).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(statuses).toHaveLength(240);
  });
});
