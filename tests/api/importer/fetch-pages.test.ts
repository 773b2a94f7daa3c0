/**
 * What the paysite client does for sites that answer HTML and keep their session in cookies
 * (api/importer/fetch.ts, cookies.ts), against real local servers: text answers, form posts, redirects
 * answered by hand, statuses a caller judges itself, a cookie jar that follows a rotating session and
 * never gives a cookie to another host, bytes into memory, and download progress.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfig } from '@api/config.ts';
import { cookieValue, jarWithSessionCookie } from '@api/importer/cookies.ts';
import { KeyRejectedError } from '@api/importer/errors.ts';
import { createPaysiteClient, type PaysiteClientOptions, PaysiteRequestError } from '@api/importer/fetch.ts';
import { FileTooLargeError } from '@api/media/store.ts';
import { closeAll, startServer } from './local-server.ts';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-fetch-pages-'));
});
afterEach(async () => {
  await closeAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function client(baseUrl: string, options: Partial<PaysiteClientOptions> & { env?: Record<string, string> } = {}) {
  const { env, ...rest } = options;
  return createPaysiteClient({
    label: 'Fantia',
    endpoint: { baseUrl, hosts: [] },
    importer: readConfig({ DATA_DIR: dataDir, TROVE_ENV: 'test', IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1', ...env }).importer,
    headers: {},
    signal: new AbortController().signal,
    ...rest,
  });
}

describe('text answers', () => {
  it('answers HTML with its final URL after redirects, and sends a form body', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/old') return res.writeHead(302, { location: '/page' }).end();
      if (req.method === 'POST') {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end(`got ${req.headers['content-type']} ${body}`));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end('<meta name="csrf-token" content="t0k3n">');
    });
    const answer = await client(server.url).requestText('/old');
    expect(answer).toMatchObject({ status: 200, url: `${server.url}/page`, body: '<meta name="csrf-token" content="t0k3n">' });
    const posted = await client(server.url).requestText('/form', {
      method: 'POST',
      body: 'user%5Brating%5D=adult',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.body).toBe('got application/x-www-form-urlencoded user%5Brating%5D=adult');
  });

  it('answers a redirect by hand when asked, and statuses the caller judges itself', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/mypage') return res.writeHead(302, { location: '/sessions/signin' }).end();
      if (req.url === '/gone') return res.writeHead(404).end('not here');
      res.writeHead(401).end('{"error":"unauthorized"}');
    });
    const redirect = await client(server.url).requestText('/mypage', { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe('/sessions/signin');
    expect(await client(server.url).requestText('/gone', { allowStatuses: [404] })).toMatchObject({ status: 404, body: 'not here' });
    await expect(client(server.url).requestText('/gone')).rejects.toBeInstanceOf(PaysiteRequestError);
    await expect(client(server.url).requestText('/me')).rejects.toBeInstanceOf(KeyRejectedError);
  });
});

describe('cookies', () => {
  it('keeps the session the site rotates and the tokens it sets, and sends them back to the site only', async () => {
    // The CDN is another host: 127.0.0.2 (loopback too) against the site's 127.0.0.1.
    const cdnCookies: (string | undefined)[] = [];
    const cdn = http.createServer((req, res) => {
      cdnCookies.push(req.headers.cookie);
      res.writeHead(200).end('file');
    });
    await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.2', resolve));
    const cdnUrl = `http://127.0.0.2:${(cdn.address() as AddressInfo).port}`;
    let generation = 0;
    const site = await startServer((req, res) => {
      const cookies = req.headers.cookie ?? '';
      if (!cookies.includes(`session=gen${generation}`)) return res.writeHead(401).end();
      generation++;
      res
        .writeHead(200, {
          'set-cookie': [`session=gen${generation}; Path=/; HttpOnly`, `XSRF-TOKEN=xsrf${generation}; Path=/`],
        })
        .end(cookies);
    });
    const jar = jarWithSessionCookie(site.url, 'session', 'gen0');
    const c = client(site.url, { cookies: jar, endpoint: { baseUrl: site.url, hosts: ['127.0.0.2'] } });
    expect((await c.requestText('/api/me')).body).toBe('session=gen0');
    expect((await c.requestText('/api/me')).body).toBe('session=gen1; XSRF-TOKEN=xsrf1');
    expect(cookieValue(jar, site.url, 'XSRF-TOKEN')).toBe('xsrf2');
    await c.requestText(`${cdnUrl}/file.jpg`);
    expect(cdnCookies).toEqual([undefined]);
    cdn.close();
  });
});

describe('bytes and downloads', () => {
  it('reads bytes into memory under the size cap', async () => {
    const server = await startServer((req, res) => res.writeHead(200).end(Buffer.alloc(req.url === '/big' ? 9000 : 16, 7)));
    const answer = await client(server.url).requestBytes('/key.bin');
    expect(answer.body).toEqual(Buffer.alloc(16, 7));
    await expect(client(server.url, { env: { IMPORTER_MAX_FILE_MB: '0.004' } }).requestBytes('/big')).rejects.toBeInstanceOf(
      FileTooLargeError,
    );
  });

  it('tells how far a download got, with the announced size, and sends the given headers', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': 3 * 65536 });
      res.write(Buffer.alloc(65536));
      setTimeout(() => res.write(Buffer.alloc(65536)), 20);
      setTimeout(() => res.end(Buffer.alloc(65536)), 40);
    });
    const seen: [number, number][] = [];
    const file = await client(server.url).download('/video.mp4', path.join(dataDir, 'files'), '.mp4', {
      headers: { referer: 'https://fantia.jp/' },
      onProgress: (received, total) => seen.push([received, total]),
    });
    expect(file.size).toBe(3 * 65536);
    expect(seen.at(-1)).toEqual([3 * 65536, 3 * 65536]);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(server.requests[0].headers.referer).toBe('https://fantia.jp/');
  });
});
