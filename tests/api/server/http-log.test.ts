/**
 * The structured log of the real front server (pino, JSON lines into a stream the test reads): a
 * request id per request (the caller's when it is short and plain), one completion line per answer
 * with method, path without its query, status and duration; no line at all for refused request
 * targets; a 500's error line carries the request id; and submitted keys, cookies, passwords and
 * bearer tokens never reach the log, through the server or the import worker, while '[redacted]'
 * shows where a header was.
 */
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRoutes, route } from '@api/http/route.ts';
import type { PaysiteImporter } from '@api/importer/context.ts';
import { startImportWorker } from '@api/importer/worker.ts';
import { createLogger, lineLogger, REDACTED } from '@api/server/logger.ts';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { httpRequest } from '../../helpers/http.ts';
import { collectLines, startObserved, type ObservedServer } from '../../helpers/observed-server.ts';
import { signIn } from '../../helpers/session.ts';

const KEY = 'HttpLogLeakTestKey_x9Q2mV7bN4cZ8wR1tY5uI3oP';
const PASSWORD = 'correct-horse-http-log-7731';
const BEARER = 'bearer-http-log-5521';

const failing = defineRoutes('test-failing', [
  route({
    method: 'get',
    version: 1,
    path: '/test/explode',
    summary: 'Always fails.',
    response: z.object({}),
    handler: () => {
      throw new Error('kaboom');
    },
  }),
]);

let site: TestSite;
let front: ObservedServer;
let log: ReturnType<typeof collectLines>;
const entries = () => log.lines().map((line) => JSON.parse(line) as Record<string, unknown>);
const linesFor = (id: string) => entries().filter((entry) => entry.request_id === id);

beforeAll(async () => {
  site = await createTestSite('http-log');
  log = collectLines();
  front = await startObserved(site, { destination: log.stream, routes: [failing] });
}, 300_000);
afterAll(async () => {
  await front?.close();
  await site?.close();
});

describe('request ids', () => {
  it('reuses a short plain X-Request-Id and sends it back', async () => {
    const answer = await httpRequest(`${front.base}/healthz`, { headers: { 'x-request-id': 'lb-42.a_B-c' } });
    expect(answer.headers['x-request-id']).toBe('lb-42.a_B-c');
    expect(linesFor('lb-42.a_B-c')).toHaveLength(1);
  });

  it.each(['<script>', 'a b', 'x'.repeat(65), ''])('replaces %j with a new id', async (incoming) => {
    const answer = await httpRequest(`${front.base}/healthz`, { headers: { 'x-request-id': incoming } });
    const id = String(answer.headers['x-request-id']);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(linesFor(id)).toHaveLength(1);
  });
});

describe('completion lines', () => {
  it('log method, path without the query, status and duration', async () => {
    const answer = await httpRequest(`${front.base}/api/v1/app_version?q=private-search-words`, {
      headers: { referer: 'http://archive.example/artists?q=private-referer-words' },
    });
    const id = String(answer.headers['x-request-id']);
    const [line] = linesFor(id);
    expect(line).toMatchObject({ level: 30, msg: expect.stringMatching(/^GET \/api\/v1\/app_version 200 \d+ ms$/) });
    expect(line.req).toMatchObject({ method: 'GET', path: '/api/v1/app_version' });
    expect(line.res).toMatchObject({ status: 200 });
    expect(typeof line.duration_ms).toBe('number');
    expect(log.lines().join('\n')).not.toContain('private-search-words');
    expect(log.lines().join('\n')).not.toContain('private-referer-words');
    expect((line.req as { headers: Record<string, string> }).headers.referer).toBe('http://archive.example/artists');
  });

  it.each(['/%ff', '/posts/%E0%A4%A', '/%252e%252e/account', '*'])('write no line for the refused target %s', async (target) => {
    const before = log.lines().length;
    const answer = await httpRequest(front.base, { path: target });
    expect(answer.status).toBe(400);
    expect(log.lines().slice(before)).toEqual([]);
  });

  it("log a 500 with the request's id on the error line", async () => {
    const answer = await httpRequest(`${front.base}/api/v1/test/explode`);
    expect(answer.status).toBe(500);
    const id = String(answer.headers['x-request-id']);
    const lines = linesFor(id);
    expect(lines.map((line) => line.msg)).toEqual(['Unexpected error answering GET /api/v1/test/explode', 'GET /api/v1/test/explode 500']);
    expect(lines[0]).toMatchObject({ level: 50, message: 'kaboom' });
  });
});

describe('secrets never reach the log', () => {
  it('redacts cookies, authorization and credential fields, through the server and the worker', async () => {
    const alice = await signIn(site.db, { username: 'http-log-alice' });
    const submitted = await new Promise<{ status: number; body: string; id: string }>((resolve, reject) => {
      const body = JSON.stringify({ service: 'patreon', session_key: KEY, save_session_key: '1' });
      fetch(`${front.base}/api/v1/importer/submit?session_key=${KEY}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: alice.cookie, authorization: `Bearer ${BEARER}` },
        body,
      }).then(
        async (answer) => resolve({ status: answer.status, body: await answer.text(), id: answer.headers.get('x-request-id') ?? '' }),
        reject,
      );
    });
    expect(submitted.status).toBe(200);
    const importId = (JSON.parse(submitted.body) as { import_id: string }).import_id;

    // The worker's lines go through a pino logger into the same stream, as `npm run worker` wires it.
    const workerLog = createLogger({ logLevel: 'debug', logFormat: 'json' }, { destination: log.stream, name: 'worker' });
    const leaky: PaysiteImporter = {
      async run(ctx) {
        await ctx.log(`Signing in with ${ctx.key}`);
        throw new Error(`unexpected with ${ctx.key}`);
      },
    };
    const worker = startImportWorker(
      { db: site.db, config: site.config, log: lineLogger(workerLog) },
      { autoStart: false, importers: () => leaky, backoffMs: 1 },
    );
    while (await worker.runOnce());
    await worker.stop();
    // Anything logged as an object is redacted by field name, at depth.
    workerLog.info(
      { password: PASSWORD, form: { session_key: KEY, nested: { token: BEARER, cookie: alice.cookie } } },
      'object with secrets',
    );

    const text = log.lines().join('\n');
    expect(text).toContain(`Import ${importId} (patreon) claimed.`);
    for (const secret of [KEY, PASSWORD, BEARER, alice.cookie, alice.cookie.split('=')[1]]) expect(text).not.toContain(secret);
    const [line] = linesFor(submitted.id);
    expect(line.req).toMatchObject({ path: '/api/v1/importer/submit', headers: { cookie: REDACTED, authorization: REDACTED } });
    expect(text).toContain(`"password":"${REDACTED}"`);
  });
});
