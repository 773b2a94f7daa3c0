/**
 * The islands' API client against the real API application on an ephemeral port, with a test router
 * that answers the statuses asked for.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '@api/app.ts';
import { migrate, openDatabase, type Db } from '@api/data/db.ts';
import { HttpError } from '@api/http/errors.ts';
import { defineRoutes, route } from '@api/http/route.ts';
import { readConfig } from '@api/config.ts';
import { CLIENT_CACHE_MS } from '@shared/constants.ts';
import { ApiError, assertApiError, backoffDelay, createApiClient, describeError, ifModifiedSinceFor } from '@site/client/api-client.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { $session, memoryStorage, setSessionStorage } from '@site/client/stores/session.ts';

const hits = new Map<string, number>();
const hit = (key: string) => {
  const n = (hits.get(key) ?? 0) + 1;
  hits.set(key, n);
  return n;
};

const STATUS_TEXTS: Record<number, string> = { 400: 'Bad Request', 422: 'Unprocessable Entity' };

const testRoutes = defineRoutes('test', [
  route({
    method: 'get',
    version: [1, 2],
    path: '/test/status/{code}',
    summary: 'Answers the given status.',
    params: z.object({ code: z.coerce.number().int() }),
    response: z.object({ ok: z.boolean() }),
    handler: ({ params, req }) => {
      hit(req.originalUrl);
      if (params.code >= 400) throw new HttpError(params.code, 'test_type', `Server says ${params.code}`);
      return { ok: true };
    },
  }),
  route({
    method: 'post',
    version: [1, 2],
    path: '/test/status/{code}',
    summary: 'Answers the given status to a POST.',
    params: z.object({ code: z.coerce.number().int() }),
    response: z.object({ ok: z.boolean() }),
    handler: ({ params, req }) => {
      hit(`POST ${req.originalUrl}`);
      if (params.code >= 400) throw new HttpError(params.code, 'test_type', `Server says ${params.code}`);
      return { ok: true };
    },
  }),
  route({
    method: 'get',
    version: 1,
    path: '/test/flaky/{failures}',
    summary: 'Fails with 503 the first N times.',
    params: z.object({ failures: z.coerce.number().int() }),
    response: z.object({ attempt: z.number() }),
    handler: ({ params, req }) => {
      const n = hit(req.originalUrl);
      if (n <= params.failures) throw new HttpError(503, 'service_unavailable', 'Down for maintenance.');
      return { attempt: n };
    },
  }),
  route({
    method: 'get',
    version: 1,
    path: '/test/count',
    summary: 'Counts its calls.',
    response: z.object({ n: z.number() }),
    handler: () => ({ n: hit('count') }),
  }),
  route({
    method: 'post',
    version: [1, 2],
    path: '/test/echo',
    summary: 'Echoes the body and its content type.',
    body: z.object({ name: z.string().min(1, 'Name is required.') }),
    response: z.object({ name: z.string(), contentType: z.string(), raw: z.unknown() }),
    handler: ({ body, req }) => ({ name: body.name, contentType: req.headers['content-type'] ?? '', raw: req.body }),
  }),
]);

let dir: string;
let db: Db;
let server: http.Server;
let baseUrl: string;
let delays: number[];
const sleep = async (ms: number) => {
  delays.push(ms);
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-client-'));
  db = openDatabase(path.join(dir, 'trove.sqlite'));
  migrate(db);
  // A creator last updated years ago, an old post (both answer 304 to a date a year back) and a new post.
  await upsertCreator(db, { service: 'patreon', id: '7', name: 'Painter', updated: Date.UTC(2020, 0, 1) / 1000 });
  await upsertPost(db, {
    service: 'patreon',
    user: '7',
    id: 'old',
    title: 'Old',
    published: '2020-01-01T00:00:00',
    added: '2020-01-01T00:00:00',
  });
  await upsertPost(db, {
    service: 'patreon',
    user: '7',
    id: 'new',
    title: 'New',
    published: new Date().toISOString().slice(0, 19),
    added: new Date().toISOString().slice(0, 19),
  });
  const app = createApp({
    db,
    config: readConfig({ DATA_DIR: dir, TROVE_ENV: 'test' }),
    build: { version: '0.0.0', commit: 'c0ffee', environment: 'test' },
    routes: [testRoutes],
    logger: { error: () => {} },
  });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  hits.clear();
  delays = [];
});

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the request to fail');
}

describe('answers', () => {
  it('GET returns the JSON answer (v1) and the unwrapped data (v2)', async () => {
    const client = createApiClient({ baseUrl, sleep });
    expect(await client.v1.get('/app_version')).toBe('c0ffee');
    expect(await client.v2.get('/test/status/200')).toEqual({ ok: true });
  });

  it('a JSON body sets the content type; v2 bodies go wrapped as {type, data}', async () => {
    const client = createApiClient({ baseUrl, sleep });
    const v1 = await client.v1.post<{ name: string; contentType: string; raw: unknown }>('/test/echo', { name: 'ann' });
    expect(v1.contentType).toBe('application/json');
    expect(v1.raw).toEqual({ name: 'ann' });
    const v2 = await client.v2.post<{ name: string; raw: unknown }>('/test/echo', { name: 'bo' });
    expect(v2.name).toBe('bo');
    expect(v2.raw).toEqual({ type: 'api_request', data: { name: 'bo' } });
  });

  it('query parameters repeat for lists and skip empty values', async () => {
    const seen: string[] = [];
    const client = createApiClient({
      baseUrl,
      sleep,
      fetch: (url, init) => {
        seen.push(String(url));
        return fetch(url, init);
      },
    });
    await client.v1.get('/test/count', { query: { o: 50, tag: ['a b', 'c'], q: undefined, x: null } });
    expect(seen).toEqual([`${baseUrl}/api/v1/test/count?o=50&tag=a+b&tag=c`]);
  });
});

describe('section 8 messages', () => {
  it('400 and 422 name the status and carry the body', async () => {
    const client = createApiClient({ baseUrl, sleep });
    for (const code of [400, 422]) {
      const error = await failure(client.v1.get(`/test/status/${code}`));
      expect(error.message).toBe(
        `Failed to fetch from API due to client inputs. Reason: ${code} - ${STATUS_TEXTS[code]}. {"error":"Server says ${code}"}`,
      );
      expect(error.status).toBe(code);
      expect(error.method).toBe('GET');
      expect(error.url).toBe(`${baseUrl}/api/v1/test/status/${code}`);
      expect(error.serverMessage).toBe(`Server says ${code}`);
      expect(error.origin).toBe('client');
    }
    const invalid = await failure(client.v1.post('/test/echo', { name: '' }));
    expect(invalid.message).toBe('Failed to fetch from API due to client inputs. Reason: 400 - Bad Request. {"error":"Name is required."}');
    expect(describeError(invalid)).toBe('Name is required.');
    expect(assertApiError(invalid)).toBe(invalid);
    expect(() => assertApiError(new Error('other'))).toThrow('Invalid input error type.');
  });

  it('404 names the path', async () => {
    const client = createApiClient({ baseUrl, sleep });
    const error = await failure(client.v1.get('/no/such/path', { query: { o: 50 } }));
    expect(error.message).toBe("Failed to fetch from API because path /api/v1/no/such/path?o=50 doesn't exist.");
    expect(error.status).toBe(404);
  });

  it('503 is maintenance, other 5xx a server error, others unknown', async () => {
    const client = createApiClient({ baseUrl, sleep });
    const unavailable = await failure(client.v1.get('/test/status/503'));
    expect(unavailable.message).toBe('API is in maintenance or not available.');
    expect(unavailable.origin).toBe('server');
    const server = await failure(client.v1.get('/test/status/500'));
    expect(server.message).toBe('Failed to fetch from API due to server error.');
    const gateway = await failure(client.v1.get('/test/status/502'));
    expect(gateway.message).toBe('Failed to fetch from API due to server error.');
    for (const code of [403, 405, 409, 418]) {
      const other = await failure(client.v1.post(`/test/status/${code}`));
      expect(other.message).toBe('Failed to fetch from API for unknown reasons.');
      expect(other.status).toBe(code);
    }
  });

  it('a network failure blames the client settings', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = createApiClient({ baseUrl: `http://127.0.0.1:${port}`, sleep });
    const error = await failure(client.v1.get('/app_version'));
    expect(error.message).toBe('Failed to fetch due to client settings.');
    expect(error.status).toBe(0);
    expect(error.isNetworkError).toBe(true);
    expect(delays).toEqual([1000, 2000, 4000]);
  });

  it('v2 errors carry the server error type and message', async () => {
    const client = createApiClient({ baseUrl, sleep });
    const error = await failure(client.v2.get('/test/status/409'));
    expect(error.message).toBe('Failed to fetch from API for unknown reasons.');
    expect(error.serverType).toBe('test_type');
    expect(error.serverMessage).toBe('Server says 409');
    expect(error.version).toBe(2);
    const missing = await failure(client.v2.get('/nothing'));
    expect(missing.serverType).toBe('not_found');
    expect(missing.message).toBe("Failed to fetch from API because path /api/v2/nothing doesn't exist.");
  });

  it('401 clears the local login state and raises lack of credentials', async () => {
    const storage = memoryStorage({ logged_in: 'yes', role: 'consumer', favs: '[]', post_favs: '[]', sidebar_state: 'open' });
    setSessionStorage(storage);
    const unsubscribe = $session.listen(() => {});
    try {
      expect($session.get()).toEqual({ loggedIn: true, role: 'consumer' });
      const client = createApiClient({ baseUrl, sleep });
      const error = await failure(client.v1.get('/test/status/401'));
      expect(error.message).toBe('lack of credentials');
      expect(error.status).toBe(401);
      expect($session.get()).toEqual({ loggedIn: false, role: null });
      expect(storage.dump()).toEqual({ sidebar_state: 'open' });
      expect(delays).toEqual([]);
    } finally {
      unsubscribe();
      setSessionStorage(undefined);
    }
  });
});

describe('retries', () => {
  it('retries 5xx GETs with a doubling backoff, then succeeds', async () => {
    const client = createApiClient({ baseUrl, sleep });
    expect(await client.v1.get('/test/flaky/2')).toEqual({ attempt: 3 });
    expect(delays).toEqual([1000, 2000]);
  });

  it('gives up after 3 retries', async () => {
    const client = createApiClient({ baseUrl, sleep });
    const error = await failure(client.v1.get('/test/flaky/10'));
    expect(error.message).toBe('API is in maintenance or not available.');
    expect(hits.get('/api/v1/test/flaky/10')).toBe(4);
    expect(delays).toEqual([1000, 2000, 4000]);
  });

  it('does not retry 4xx, nor POSTs unless asked', async () => {
    const client = createApiClient({ baseUrl, sleep });
    await failure(client.v1.get('/test/status/400'));
    expect(hits.get('/api/v1/test/status/400')).toBe(1);
    await failure(client.v1.post('/test/status/500'));
    expect(hits.get('POST /api/v1/test/status/500')).toBe(1);
    await failure(client.request(1, 'POST', '/test/status/502', { retry: true }));
    expect(hits.get('POST /api/v1/test/status/502')).toBe(4);
    expect(delays).toEqual([1000, 2000, 4000]);
  });

  it('backoff doubles from 1000 ms and is capped at 30000 ms', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(backoffDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});

describe('If-Modified-Since on profile and post requests', () => {
  /** The real fetch, recording each request's If-Modified-Since and the answer's status. */
  function recordingFetch() {
    const seen: { url: string; since: string | null; status: number }[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      seen.push({ url: String(input), since: new Headers(init?.headers).get('if-modified-since'), status: response.status });
      return response;
    };
    return { seen, fetch };
  }
  const NOW = Date.UTC(2025, 5, 15, 12, 0, 0);

  it('is one year back for a profile and a post, and absent elsewhere', () => {
    expect(ifModifiedSinceFor('/patreon/user/7/profile', undefined, NOW)).toBe('Sat, 15 Jun 2024 12:00:00 GMT');
    expect(ifModifiedSinceFor('/patreon/user/7/post/123', undefined, NOW)).toBe('Sat, 15 Jun 2024 12:00:00 GMT');
    for (const path of [
      '/patreon/user/7/post/123/comments',
      '/patreon/user/7/post/123/flag',
      '/patreon/user/7/posts',
      '/patreon/user/7/post/1/revision/2',
      '/creators.txt',
    ]) {
      expect(ifModifiedSinceFor(path, undefined, NOW), path).toBeUndefined();
    }
    expect(ifModifiedSinceFor('/patreon/user/7/profile', { 'if-modified-since': 'x' }, NOW)).toBeUndefined();
  });

  it('is sent with profile and post GETs, and a 304 is asked again for the answer', async () => {
    const { seen, fetch } = recordingFetch();
    const client = createApiClient({ baseUrl, sleep, fetch });
    const yearBack = new Date(Date.now());
    yearBack.setUTCFullYear(yearBack.getUTCFullYear() - 1);

    const fresh = await client.v1.get<{ post: { id: string } }>('/patreon/user/7/post/new');
    expect(fresh.post.id).toBe('new');
    expect(seen).toHaveLength(1);
    expect(seen[0].status).toBe(200);
    expect(Math.abs(Date.parse(seen[0].since!) - yearBack.getTime())).toBeLessThan(5_000);

    seen.length = 0;
    const old = await client.v1.get<{ post: { id: string } }>('/patreon/user/7/post/old');
    expect(old.post.id).toBe('old');
    expect(seen.map((s) => [s.status, s.since === null])).toEqual([
      [304, false],
      [200, true],
    ]);

    seen.length = 0;
    const profile = await client.v1.get<{ id: string }>('/patreon/user/7/profile');
    expect(profile.id).toBe('7');
    expect(seen.map((s) => s.status)).toEqual([304, 200]);

    seen.length = 0;
    await client.v1.get('/patreon/user/7/post/old/comments');
    expect(seen).toEqual([expect.objectContaining({ since: null, status: 200 })]);
  });
});

describe('cache', () => {
  it('serves a GET from the cache for 5 minutes', async () => {
    let time = 1_000_000;
    const client = createApiClient({ baseUrl, sleep, now: () => time });
    expect(await client.v1.get('/test/count')).toEqual({ n: 1 });
    time += CLIENT_CACHE_MS - 1;
    expect(await client.v1.get('/test/count')).toEqual({ n: 1 });
    time += 2;
    expect(await client.v1.get('/test/count')).toEqual({ n: 2 });
    expect(await client.v1.get('/test/count', { cache: false })).toEqual({ n: 3 });
  });

  it('shares one request between concurrent identical GETs', async () => {
    const client = createApiClient({ baseUrl, sleep });
    const [a, b] = await Promise.all([client.v1.get('/test/count'), client.v1.get('/test/count')]);
    expect(a).toEqual({ n: 1 });
    expect(b).toEqual({ n: 1 });
  });

  it('forgets everything after a non-GET request, and does not keep failures', async () => {
    const client = createApiClient({ baseUrl, sleep });
    expect(await client.v1.get('/test/count')).toEqual({ n: 1 });
    await client.v1.post('/test/echo', { name: 'x' });
    expect(await client.v1.get('/test/count')).toEqual({ n: 2 });
    await failure(client.v1.get('/test/status/400'));
    await failure(client.v1.get('/test/status/400'));
    expect(hits.get('/api/v1/test/status/400')).toBe(2);
  });
});
