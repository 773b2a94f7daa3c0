/**
 * The same API answers on both engines: the demo archive (the seed `npm start` writes into an empty
 * archive, default size) on a real SQLite file and on a real throwaway PostgreSQL database, one
 * `createApp` on each on a real port, then every GET route of tests/api/route-coverage.ts with real
 * demo ids (tests/api/engine-parity-routes.ts), as a guest and as the signed-in demo accounts, and a
 * few write-then-read pairs; status, headers and body must be equal.
 *
 * PostgreSQL gets the archive by `copyToPostgres` (`npm run db:copy`) from the seeded SQLite file rather
 * than by seeding it a second time: the seed is deterministic except where it cannot be, and those
 * parts would differ between two seeds. 7-Zip draws the AES salt of the two password-protected zips
 * from /dev/urandom and the clock (so their bytes, hashes and file rows differ between runs), and
 * argon2 salts the demo passwords. The copy gives both engines the same rows, so any difference in an
 * answer is the engines'. PostgreSQL's app gets a copy of the seeded DATA_DIR (files, icons, thumbnails),
 * so that a takedown deleting files on one side leaves the other's as they were.
 *
 * Normalised, because it must differ: each server's origin ('http://127.0.0.1:<port>', in absolute file
 * URLs and Link headers) becomes '<origin>', and the ETag of a body that names it is not compared; the
 * personal feed's token, made per call, becomes '<token>'; session cookies (and the Date, Connection and
 * Content-Length headers) are not compared. Not normalised but held equal: the random routes are called
 * with Math.random fixed, and the clock (Date) is stopped for each pair of calls, so both engines draw
 * the same number and stamp writes with the same instant. Everything else (status, the other headers,
 * the body byte for byte) must be equal.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '@api/app.ts';
import { readConfig } from '@api/config.ts';
import { closeServer, listen } from '../helpers/http.ts';
import { type DemoCaller, type DemoOnBothEngines, demoOnBothEngines, ENGINE_NAMES, signInDemoCallers } from './engine-parity-archive.ts';
import { readCases, sweepCases, writeThenReadCases, type ParityCase } from './engine-parity-routes.ts';
import { ROUTE_COVERAGE } from './route-coverage.ts';

interface Server {
  name: string;
  origin: string;
  http: http.Server;
  cookies: Record<DemoCaller, string>;
}

interface Answer {
  status: number;
  /** Every header but those of the connection and the clock, and the session cookie. */
  headers: Record<string, string>;
  /** The body as sent (origin normalised): key order and number formatting count too. */
  text: string;
  body: unknown;
}

/** Headers that differ between any two answers (or servers) whatever the data. */
const UNCOMPARED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'set-cookie', 'content-length', 'transfer-encoding']);

let demo: DemoOnBothEngines | undefined;
const servers: Server[] = [];
let cases: { reads: ParityCase[]; sweeps: ParityCase[]; writes: ParityCase[] };

async function call(server: Server, parity: ParityCase): Promise<Answer> {
  const headers: Record<string, string> = { Origin: server.origin, Accept: 'application/json', ...parity.headers };
  const cookie = parity.as && parity.as !== 'guest' ? server.cookies[parity.as] : undefined;
  if (parity.as && parity.as !== 'guest' && !cookie) throw new Error(`${server.name}: ${parity.as} is not signed in`);
  if (cookie) headers.Cookie = cookie;
  if (parity.body !== undefined) headers['Content-Type'] = 'application/json';
  const method = parity.route.split(' ')[0];
  const random = parity.random === undefined ? undefined : vi.spyOn(Math, 'random').mockReturnValue(parity.random);
  try {
    const response = await fetch(`${server.origin}${parity.path}`, {
      method,
      headers,
      body: parity.body === undefined ? undefined : JSON.stringify(parity.body),
      redirect: 'manual',
    });
    // The one thing that must differ: the server's own origin (absolute file URLs, Link headers).
    const normalise = (text: string) => text.split(server.origin).join('<origin>');
    const raw = await response.text();
    let text = normalise(raw);
    // A secret made for this call (a feed token) differs by nature: replaced wherever it appears.
    const secret = parity.secret && (JSON.parse(raw) as Record<string, unknown>)[parity.secret];
    if (typeof secret === 'string' && secret) text = text.split(secret).join('<token>');
    const type = response.headers.get('content-type');
    const kept: Record<string, string> = {};
    for (const [name, value] of response.headers) if (!UNCOMPARED_HEADERS.has(name)) kept[name] = normalise(value);
    // An ETag is a digest of the body as sent: of a body naming the server's origin, it differs too.
    if (kept.etag && raw !== text) kept.etag = '<digest of a body with the origin>';
    return { status: response.status, headers: kept, text, body: type?.includes('json') && text ? JSON.parse(text) : text };
  } finally {
    random?.mockRestore();
  }
}

/**
 * The same call on both servers, SQLite first (its answer is the reference), with the clock (Date)
 * stopped for the pair: a write stamps both rows with the same instant, and "today" is the same day.
 */
async function both(parity: ParityCase): Promise<[Answer, Answer]> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  try {
    const reference = await call(servers[0], parity);
    const other = await call(servers[1], parity);
    return [reference, other];
  } finally {
    vi.useRealTimers();
  }
}

/**
 * Read-only calls, several at a time and each on both servers at once (the clock runs: nothing is
 * written, and "today" cannot move between two calls of a pair by more than the test's run time).
 */
async function compareReads(list: ParityCase[], concurrency: number): Promise<void> {
  let next = 0;
  const work = async () => {
    while (next < list.length) {
      const parity = list[next++];
      expectSame(parity, (await Promise.all(servers.map((server) => call(server, parity)))) as [Answer, Answer]);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, work));
}

/** rel="next" of a Link header, as a request target. */
function nextOf(link: string | undefined): string | undefined {
  const next = link && /<([^>]+)>;\s*rel="next"/.exec(link)?.[1];
  return next ? next.replace('<origin>', '') : undefined;
}

function expectSame(parity: ParityCase, [reference, other]: [Answer, Answer]): void {
  const label = `${parity.as ?? 'guest'} ${parity.route.split(' ')[0]} ${parity.path}`;
  expect(other.status, `${label}: status`).toBe(reference.status);
  expect(other.body, `${label}: body`).toEqual(reference.body);
  expect(other.text === reference.text, `${label}: the same bytes (key order, number formatting)`).toBe(true);
  expect(other.headers, `${label}: headers`).toEqual(reference.headers);
}

describe('the API on PostgreSQL answers as on SQLite (the demo archive)', () => {
  beforeAll(async () => {
    demo = await demoOnBothEngines('engine-parity');
    for (const name of ENGINE_NAMES) {
      const db = name === 'SQLite' ? demo.sqlite : demo.postgres;
      const config = readConfig({ DATA_DIR: demo.dataDirs[name], TROVE_ENV: 'test' });
      const server = http.createServer(createApp({ db, config, logger: { error: () => {}, warn: () => {} } }));
      const origin = await listen(server);
      servers.push({ name, origin, http: server, cookies: await signInDemoCallers(origin) });
    }
    cases = { reads: readCases(demo.ids), sweeps: sweepCases(demo.ids), writes: writeThenReadCases(demo.ids) };
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => closeServer(server.http)));
    await demo?.close();
  });

  it('every case calls the route it names', () => {
    for (const parity of [...cases.reads, ...cases.sweeps, ...cases.writes]) {
      const [method, template] = parity.route.split(' ');
      expect(ROUTE_COVERAGE, parity.route).toHaveProperty([parity.route]);
      const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[a-z]+\}/g, '[^/?]+')}(\\?|$)`);
      expect(parity.path, `${method} ${template}`).toMatch(pattern);
    }
  });

  it('visits every GET route of the route list', () => {
    const visited = new Set([...cases.reads, ...cases.writes].map((parity) => parity.route));
    const missing = Object.keys(ROUTE_COVERAGE).filter((route) => route.startsWith('GET ') && !visited.has(route));
    expect(missing).toEqual([]);
  });

  it('answers every GET the same on both engines, following next links', async () => {
    let compared = 0;
    const ok = new Set<number>();
    for (const parity of cases.reads) {
      const answers = await both(parity);
      expectSame(parity, answers);
      compared += 1;
      ok.add(answers[0].status);
      const next = parity.followNext ? nextOf(answers[0].headers.link) : undefined;
      if (parity.followNext) expect(next, `${parity.path}: a next page`).toBeDefined();
      if (next) {
        const following = { ...parity, path: next, followNext: false };
        expectSame(following, await both(following));
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(cases.reads.length);
    // Successes and refusals both: two servers answering only errors cannot pass for parity.
    expect([...ok].sort()).toEqual(expect.arrayContaining([200, 400, 404]));
  }, 60_000);

  it('answers the same for every creator, every page of the recent posts, a sample of posts, every chat', async () => {
    await compareReads(cases.sweeps, 4);
    expect(cases.sweeps.length).toBeGreaterThan(300);
  }, 60_000);

  it('agrees after writes: favourites, hiding, DM review, link requests, roles, registration, flags, takedowns, an archive password', async () => {
    for (const parity of cases.writes) {
      const answers = await both(parity);
      expectSame(parity, answers);
      // Every write succeeds (reads after a takedown may answer 404, on both engines alike).
      if (!parity.route.startsWith('GET ')) expect(answers[0].status, `${parity.route} ${parity.path}`).toBeLessThan(400);
    }
  }, 60_000);
});
