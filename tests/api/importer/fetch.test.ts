/**
 * The paysite HTTP client (api/importer/fetch.ts) against real local servers: the host allowlist on
 * every URL and redirect hop, the resolved-address check at connect time, the mapping of paysite answers
 * onto the worker's errors (key refused, rate limits, 5xx, timeouts, aborts) and streamed downloads into
 * the content-addressed store with the size cap.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyRejectedError, TransientError } from '@api/importer/errors.ts';
import {
  ForbiddenHostError,
  PaysiteRequestError,
  createPaysiteClient,
  isAllowedHost,
  isRefusedAddress,
  type PaysiteClientOptions,
} from '@api/importer/fetch.ts';
import { FileTooLargeError } from '@api/media/store.ts';
import { readConfig } from '@api/config.ts';
import { closeAll, sendJson, startServer, startTcpCounter } from './local-server.ts';

let dataDir: string;
let filesDir: string;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-fetch-'));
  filesDir = path.join(dataDir, 'files');
});
afterEach(async () => {
  await closeAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function importerConfig(env: Record<string, string> = {}) {
  return readConfig({ DATA_DIR: dataDir, TROVE_ENV: 'test', IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1', ...env }).importer;
}

function client(baseUrl: string, options: Partial<PaysiteClientOptions> & { hosts?: string[]; env?: Record<string, string> } = {}) {
  const { hosts = [], env, ...rest } = options;
  return createPaysiteClient({
    label: 'Patreon',
    endpoint: { baseUrl, hosts },
    importer: importerConfig(env),
    headers: { cookie: 'session_id=SECRET' },
    signal: new AbortController().signal,
    ...rest,
  });
}

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

/** Every file under dir (recursively), relative to it. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((entry) => fs.statSync(path.join(dir, entry)).isFile());
}

describe('host allowlist', () => {
  it('allows the base URL host, listed names and .suffix subdomains only', () => {
    const endpoint = { baseUrl: 'https://www.patreon.com', hosts: ['.patreonusercontent.com', 'patreon.com', '[::1]'] };
    const table: [string, boolean][] = [
      ['www.patreon.com', true],
      ['WWW.Patreon.COM', true],
      ['patreon.com', true],
      ['c10.patreonusercontent.com', true],
      ['a.b.patreonusercontent.com', true],
      ['patreonusercontent.com', false],
      ['evilpatreonusercontent.com', false],
      ['patreonusercontent.com.evil.net', false],
      ['api.patreon.com', false],
      ['evil.com', false],
      ['[::1]', true],
    ];
    for (const [host, allowed] of table) expect([host, isAllowedHost(endpoint, host)]).toEqual([host, allowed]);
  });

  it('answers JSON from the base URL host, sending the session headers', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, { data: [1, 2] }, { link: '<next>; rel="next"' }));
    const answer = await client(server.url).requestJson<{ data: number[] }>('/api/current_user?include=campaign');
    expect(answer).toMatchObject({ status: 200, body: { data: [1, 2] } });
    expect(answer.headers.link).toBe('<next>; rel="next"');
    expect(server.requests).toEqual([expect.objectContaining({ method: 'GET', url: '/api/current_user?include=campaign' })]);
    expect(server.requests[0].headers).toMatchObject({ cookie: 'session_id=SECRET', accept: 'application/json' });
  });

  it('sends the session headers only to credential hosts, never to a file host it was redirected to', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const cdn = http.createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'image/png' }).end('png-bytes');
    });
    await new Promise<void>((resolve) => cdn.listen(0, '::1', resolve));
    try {
      const cdnUrl = `http://[::1]:${(cdn.address() as AddressInfo).port}/file.png`;
      const server = await startServer((_req, res) => res.writeHead(302, { location: cdnUrl }).end());
      const api = client(server.url, { hosts: ['[::1]'], publicHeaders: { 'user-agent': 'trove-test' } });
      await api.download('/redirect', filesDir, '.png');
      expect(server.requests[0].headers.cookie).toBe('session_id=SECRET');
      expect(seen).toHaveLength(1);
      expect(seen[0].cookie).toBeUndefined();
      expect(seen[0]['user-agent']).toBe('trove-test');

      await client(server.url, { hosts: ['[::1]'], credentialHosts: ['[::1]'] }).download('/redirect', filesDir, '.png');
      expect(seen[1].cookie).toBe('session_id=SECRET');
    } finally {
      cdn.closeAllConnections();
      await new Promise<void>((resolve) => cdn.close(() => resolve()));
    }
  });

  it('refuses a URL on another host before any connection', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, {}));
    const foreign = await startTcpCounter();
    const error = await failure(client(server.url).getJson(`http://localhost:${foreign.port}/steal`));
    expect(error).toBeInstanceOf(ForbiddenHostError);
    expect(error.message).toBe('Patreon pointed at localhost, which is not one of its hosts.');
    expect(foreign.connections()).toBe(0);
    expect(server.connections).toBe(0);
  });

  for (const status of [301, 302, 307]) {
    it(`refuses a ${status} redirect to a foreign host without contacting it`, async () => {
      const foreign = await startTcpCounter();
      const server = await startServer((_req, res) => {
        res.writeHead(status, { location: `http://localhost:${foreign.port}/x?token=abc` });
        res.end();
      });
      const error = await failure(client(server.url).getJson('/start'));
      expect(error).toBeInstanceOf(ForbiddenHostError);
      expect(error.message).not.toContain('token');
      expect(foreign.connections()).toBe(0);
    });
  }

  it('follows redirects within the allowlist, relative and to another allowed server', async () => {
    const target = await startServer((req, res) => sendJson(res, 200, { at: req.url }));
    const server = await startServer((req, res) => {
      if (req.url === '/a') res.writeHead(302, { location: '/b' }).end();
      else res.writeHead(307, { location: `${target.url}/c` }).end();
    });
    expect(await client(server.url).getJson('/a')).toEqual({ at: '/c' });
    expect(server.requests.map((r) => r.url)).toEqual(['/a', '/b']);
    expect(target.requests).toHaveLength(1);
  });

  it('follows five redirects and gives up on the sixth as a transient failure', async () => {
    const server = await startServer((req, res) => {
      const n = Number(req.url!.slice(1));
      if (n === 0) return sendJson(res, 200, { done: true });
      res.writeHead(302, { location: `/${n - 1}` }).end();
    });
    expect(await client(server.url).getJson('/5')).toEqual({ done: true });
    server.requests.length = 0;
    const error = await failure(client(server.url).getJson('/6'));
    expect(error).toBeInstanceOf(TransientError);
    expect(error.message).toBe('Patreon redirected too many times');
    expect(server.requests).toHaveLength(6);
  });

  it('requires https for public hosts and for host names, http only for a private test address', async () => {
    const public1 = await failure(client('http://www.patreon.com').getJson('/api'));
    expect(public1).toBeInstanceOf(ForbiddenHostError);
    expect(public1.message).toBe('Patreon URL must use https.');
    const counter = await startTcpCounter();
    // A host name is never trusted over plain http, even when private addresses are allowed.
    const named = await failure(client(`http://localhost:${counter.port}`).getJson('/api'));
    expect(named).toBeInstanceOf(ForbiddenHostError);
    // Without the test switch a private literal needs https too (and is then refused as an address).
    const strict = await failure(
      client(`http://127.0.0.1:${counter.port}`, { env: { IMPORTER_ALLOW_PRIVATE_ADDRESSES: '0' } }).getJson('/api'),
    );
    expect(strict).toBeInstanceOf(ForbiddenHostError);
    expect(counter.connections()).toBe(0);
  });

  it('refuses URLs with credentials or that do not parse', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, {}));
    const withUser = await failure(client(server.url).getJson(server.url.replace('http://', 'http://user:pass@') + '/x'));
    expect(withUser).toBeInstanceOf(ForbiddenHostError);
    expect(withUser.message).not.toContain('pass');
    expect(await failure(client(server.url).getJson('http://[nope/'))).toBeInstanceOf(ForbiddenHostError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('resolved addresses', () => {
  const strict = { IMPORTER_ALLOW_PRIVATE_ADDRESSES: '0' };

  it('refuses an allowed host name that resolves to loopback, at connect time', async () => {
    const counter = await startTcpCounter();
    const error = await failure(client(`https://localhost:${counter.port}`, { env: strict }).getJson('/api'));
    expect(error).toBeInstanceOf(ForbiddenHostError);
    expect(error.message).toBe('Patreon host localhost resolves to a refused address.');
    expect(counter.connections()).toBe(0);
  });

  it('does connect to that host when private addresses are allowed (so the lookup was what refused)', async () => {
    const counter = await startTcpCounter();
    const error = await failure(client(`https://localhost:${counter.port}`).getJson('/api'));
    // The counter speaks no TLS: the handshake fails, which is a network failure.
    expect(error).toBeInstanceOf(TransientError);
    expect(counter.connections()).toBe(1);
  });

  it('refuses literal private addresses without connecting', async () => {
    const counter = await startTcpCounter();
    for (const base of [
      `https://127.0.0.1:${counter.port}`,
      `https://[::1]:${counter.port}`,
      'https://10.1.2.3',
      'https://169.254.169.254',
      'https://[::ffff:127.0.0.1]',
    ]) {
      const error = await failure(client(base, { env: strict }).getJson('/latest/meta-data'));
      expect([base, error.name]).toEqual([base, 'ForbiddenHostError']);
    }
    expect(counter.connections()).toBe(0);
  });

  it('classifies addresses', () => {
    const table: [string, boolean][] = [
      ['127.0.0.1', true],
      ['127.255.0.9', true],
      ['10.0.0.1', true],
      ['172.16.0.1', true],
      ['172.31.255.255', true],
      ['172.32.0.1', false],
      ['192.168.1.1', true],
      ['169.254.169.254', true],
      ['100.64.0.1', true],
      ['0.0.0.0', true],
      ['224.0.0.1', true],
      ['255.255.255.255', true],
      ['8.8.8.8', false],
      ['104.16.0.1', false],
      ['::1', true],
      ['::', true],
      ['fc00::1', true],
      ['fd12:3456::1', true],
      ['fe80::1', true],
      ['ff02::1', true],
      ['::ffff:127.0.0.1', true],
      ['::ffff:7f00:1', true],
      ['::ffff:10.0.0.1', true],
      ['::ffff:8.8.8.8', false],
      ['2606:4700:4700::1111', false],
      ['not-an-ip', true],
    ];
    for (const [address, refusedAddress] of table) expect([address, isRefusedAddress(address)]).toEqual([address, refusedAddress]);
  });
});

describe('answers and errors', () => {
  it('maps 401 and the configured key statuses to KeyRejectedError, other 4xx to PaysiteRequestError', async () => {
    const server = await startServer((req, res) => sendJson(res, Number(req.url!.slice(1)), { errors: [{ code: 1 }] }));
    const unauthorized = await failure(client(server.url).getJson('/401'));
    expect(unauthorized).toBeInstanceOf(KeyRejectedError);
    expect(unauthorized.message).not.toContain('SECRET');
    expect(await failure(client(server.url, { keyRejectedStatuses: [401, 403] }).getJson('/403'))).toBeInstanceOf(KeyRejectedError);
    const forbidden = await failure(client(server.url).getJson('/403'));
    expect(forbidden).toBeInstanceOf(PaysiteRequestError);
    const missing = await failure(client(server.url).getJson('/404'));
    expect(missing).toBeInstanceOf(PaysiteRequestError);
    expect((missing as PaysiteRequestError).status).toBe(404);
  });

  it('waits out a 429 with Retry-After: 1 and asks again', async () => {
    const server = await startServer((_req, res, seen) => {
      if (seen.requests.length === 1) return sendJson(res, 429, { errors: [] }, { 'retry-after': '1' });
      sendJson(res, 200, { ok: true });
    });
    const started = Date.now();
    expect(await client(server.url).getJson('/posts')).toEqual({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it('waits out a Discord-style 429 whose wait is only in the JSON body', async () => {
    const server = await startServer((_req, res, seen) => {
      if (seen.requests.length === 1)
        return sendJson(res, 429, { message: 'You are being rate limited.', retry_after: 0.3, global: false });
      sendJson(res, 200, []);
    });
    const started = Date.now();
    expect(await client(server.url).getJson('/channels/1/messages')).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(server.requests).toHaveLength(2);
  });

  it('ends the try on a long 429, carrying the wait for the worker', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/header') return sendJson(res, 429, {}, { 'retry-after': '3600' });
      if (req.url === '/date') return sendJson(res, 429, {}, { 'retry-after': new Date(Date.now() + 7200_000).toUTCString() });
      sendJson(res, 429, { retry_after: 120.5 });
    });
    const header = await failure(client(server.url).getJson('/header'));
    expect(header).toBeInstanceOf(TransientError);
    expect((header as TransientError).retryAfterMs).toBe(3600_000);
    const date = (await failure(client(server.url).getJson('/date'))) as TransientError;
    expect(Math.abs(date.retryAfterMs! - 7200_000)).toBeLessThan(5000);
    const body = (await failure(client(server.url).getJson('/body'))) as TransientError;
    expect(body.retryAfterMs).toBe(120_500);
    expect(server.requests).toHaveLength(3);
  });

  it('stops asking after six rate-limited answers in a row', async () => {
    const server = await startServer((_req, res) => sendJson(res, 429, {}, { 'retry-after': '0' }));
    expect(await failure(client(server.url).getJson('/x'))).toBeInstanceOf(TransientError);
    expect(server.requests).toHaveLength(6);
  });

  it('maps 5xx to TransientError with its Retry-After', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/busy') return sendJson(res, 503, {}, { 'retry-after': '30' });
      res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    });
    const busy = (await failure(client(server.url).getJson('/busy'))) as TransientError;
    expect(busy).toBeInstanceOf(TransientError);
    expect(busy.message).toBe('Patreon answered 503');
    expect(busy.retryAfterMs).toBe(30_000);
    expect(await failure(client(server.url).getJson('/gateway'))).toBeInstanceOf(TransientError);
  });

  it('treats a 200 that is not JSON as transient', async () => {
    const server = await startServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Just a moment...</html>'),
    );
    const error = await failure(client(server.url).getJson('/x'));
    expect(error).toBeInstanceOf(TransientError);
    expect(error.message).toBe('Patreon answered something that is not JSON');
  });

  it('gives up on a server that never answers, or stalls mid-answer, after IMPORTER_TIMEOUT_SECONDS', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/stall') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"data": [');
      }
    });
    const env = { IMPORTER_TIMEOUT_SECONDS: '0.3' };
    for (const url of ['/silent', '/stall']) {
      const started = Date.now();
      const error = await failure(client(server.url, { env }).getJson(url));
      expect([url, error.name, error.message]).toEqual([url, 'TransientError', 'Patreon did not answer in time']);
      expect(Date.now() - started).toBeLessThan(3000);
    }
  });

  it('refuses a JSON answer over 32 MB as transient', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        while (sent < 40 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => undefined);
      more();
    });
    const error = await failure(client(server.url).getJson('/huge'));
    expect(error).toBeInstanceOf(TransientError);
    expect(error.message).toBe('Patreon answer too large');
  });

  it('says a closed port could not be reached', async () => {
    const server = await startServer(() => undefined);
    await server.close();
    const error = await failure(client(server.url).getJson('/x'));
    expect(error).toBeInstanceOf(TransientError);
    expect(error.message).toBe('Patreon could not be reached (ECONNREFUSED)');
  });

  it('stops when the import is aborted, while waiting for an answer or a rate limit', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/limited') sendJson(res, 429, {}, { 'retry-after': '30' });
    });
    for (const url of ['/hang', '/limited']) {
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 200);
      const error = await failure(client(server.url, { signal: controller.signal }).getJson(url));
      // Not a TransientError: the worker is stopping, nothing is to be retried by this try.
      expect([url, error.name]).toEqual([url, 'AbortError']);
      expect(Date.now() - started).toBeLessThan(3000);
    }
  });
});

describe('downloads', () => {
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(3000, 7)]);
  const sha = createHash('sha256').update(png).digest('hex');

  it('streams a file to files/ab/cd/<sha256>.<ext> with its type', async () => {
    const server = await startServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'image/png; charset=binary', 'content-length': png.length }).end(png),
    );
    const file = await client(server.url).download('/media/a.png?token=t', filesDir, '.png');
    expect(file).toMatchObject({
      sha256: sha,
      size: png.length,
      path: `/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}.png`,
      mime: 'image/png',
      written: true,
    });
    const onDisk = fs.readFileSync(path.join(filesDir, sha.slice(0, 2), sha.slice(2, 4), `${sha}.png`));
    expect(createHash('sha256').update(onDisk).digest('hex')).toBe(sha);
    expect(server.requests[0].headers.accept).toBe('*/*');
    const again = await client(server.url).download('/media/a.png', filesDir, 'png');
    expect(again).toMatchObject({ sha256: sha, written: false });
  });

  it('refuses a declared Content-Length over the cap without writing anything', async () => {
    const server = await startServer((_req, res) => res.writeHead(200, { 'content-length': 5000 }).end(Buffer.alloc(5000)));
    // 0.004 MB = 4194 bytes.
    const error = await failure(client(server.url, { env: { IMPORTER_MAX_FILE_MB: '0.004' } }).download('/big.bin', filesDir, '.bin'));
    expect(error).toBeInstanceOf(FileTooLargeError);
    expect(filesUnder(filesDir)).toEqual([]);
  });

  it('refuses a chunked body growing past the cap and leaves no temporary file', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      let sent = 0;
      const timer = setInterval(() => {
        if (res.destroyed || sent > 100_000) return (clearInterval(timer), res.end());
        res.write(Buffer.alloc(1024, 1));
        sent += 1024;
      }, 1);
    });
    const error = await failure(client(server.url, { env: { IMPORTER_MAX_FILE_MB: '0.004' } }).download('/grows.bin', filesDir, '.bin'));
    expect(error).toBeInstanceOf(FileTooLargeError);
    expect(filesUnder(filesDir)).toEqual([]);
  });

  it('maps a missing file to PaysiteRequestError and waits out a short rate limit', async () => {
    const server = await startServer((req, res, seen) => {
      if (req.url === '/gone.png') return res.writeHead(404).end('not found');
      if (seen.requests.filter((r) => r.url === '/limited.png').length === 1) return res.writeHead(429, { 'retry-after': '0' }).end();
      res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    const gone = await failure(client(server.url).download('/gone.png', filesDir, '.png'));
    expect(gone).toBeInstanceOf(PaysiteRequestError);
    expect((gone as PaysiteRequestError).status).toBe(404);
    expect(await client(server.url).download('/limited.png', filesDir, '.png')).toMatchObject({ sha256: sha });
    expect(server.requests.map((r) => r.url)).toEqual(['/gone.png', '/limited.png', '/limited.png']);
  });

  it('refuses a download redirected to a foreign host', async () => {
    const foreign = await startTcpCounter();
    const server = await startServer((_req, res) => res.writeHead(302, { location: `http://localhost:${foreign.port}/f.png` }).end());
    expect(await failure(client(server.url).download('/f.png', filesDir, '.png'))).toBeInstanceOf(ForbiddenHostError);
    expect(foreign.connections()).toBe(0);
    expect(filesUnder(filesDir)).toEqual([]);
  });
});
