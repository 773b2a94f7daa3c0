/**
 * GET /metrics on the real front server: who may read it (loopback clients, or anyone with the
 * METRICS_TOKEN bearer token; never a session cookie), what it counts (answers by route pattern, never
 * by raw path; page-store hits and renders; media files and bytes; the import queue from the
 * database), and the permission matrix of the operator's three paths for every role.
 *
 * A "non-loopback client" is real: the server listens on every address and the test connects to the
 * machine's own non-loopback address (os.networkInterfaces()), so the socket's peer is that address.
 * On a machine without one, the server trusts a proxy and the client is named by X-Forwarded-For.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@api/data/accounts.ts';
import { createImport } from '@api/data/imports.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { httpRequest, type RawAnswer } from '../../helpers/http.ts';
import { outsideAddress, startObserved, type ObservedServer } from '../../helpers/observed-server.ts';
import { signIn } from '../../helpers/session.ts';

const TOKEN = 'metrics-token-for-tests-7f3a';
let site: TestSite;
let front: ObservedServer;
let loopback: string;
let outside: { base: string; headers: Record<string, string> };

beforeAll(async () => {
  site = await createTestSite('metrics');
  await upsertCreator(site.db, {
    service: 'fanbox',
    id: 'artist1',
    name: 'Metrics Artist',
    indexed: 1_700_000_000,
    updated: 1_700_000_000,
  });
  const address = outsideAddress();
  front = await startObserved(site, {
    host: '0.0.0.0',
    settings: { metricsToken: TOKEN, minFreeDiskMb: 0, trustProxy: address === undefined },
  });
  const port = new URL(front.base).port;
  loopback = `http://127.0.0.1:${port}`;
  outside = address
    ? { base: `http://${address}:${port}`, headers: {} }
    : { base: loopback, headers: { 'x-forwarded-for': '203.0.113.7' } };
}, 300_000);
afterAll(async () => {
  await front?.close();
  await site?.close();
});

const fromOutside = (target: string, headers: Record<string, string> = {}) =>
  httpRequest(`${outside.base}${target}`, { headers: { ...outside.headers, ...headers } });

async function scrape(): Promise<string> {
  const answer = await httpRequest(`${loopback}/metrics`);
  expect(answer.status).toBe(200);
  return answer.body.toString();
}

/** The sum of a metric's samples whose labels include all of `labels`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(\{.*\})? ([0-9.e+-]+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const has = Object.entries(labels).every(([key, value]) => (match[2] ?? '').includes(`${key}="${value}"`));
    if (has) total += Number(match[3]);
  }
  return total;
}

describe('who may read /metrics', () => {
  it('serves a loopback client without a token, as Prometheus text, never cached', async () => {
    const answer = await httpRequest(`${loopback}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body.toString()).toContain('# TYPE trove_http_requests_total counter');
    expect(answer.body.toString()).toContain('process_cpu_seconds_total');
  });

  it('refuses a non-loopback client without a token (403) and lets the right token in', async () => {
    const refused = await fromOutside('/metrics');
    expect(refused.status).toBe(403);
    expect(refused.body.toString()).not.toContain('trove_');
    const allowed = await fromOutside('/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(allowed.status).toBe(200);
    expect(allowed.body.toString()).toContain('trove_http_requests_total');
  });

  it('answers a wrong token 401 with WWW-Authenticate: Bearer, from anywhere', async () => {
    for (const answer of [
      await fromOutside('/metrics', { authorization: 'Bearer not-the-token' }),
      await fromOutside('/metrics', { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }),
      await httpRequest(`${loopback}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } }),
    ]) {
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer');
      expect(answer.body.toString()).not.toContain('trove_');
    }
  });

  it('refuses a forwarded client behind a trusted proxy even when the proxy is on loopback', async () => {
    const proxied = await startObserved(site, { settings: { metricsToken: TOKEN, trustProxy: true } });
    try {
      const forwarded = await httpRequest(`${proxied.base}/metrics`, { headers: { 'x-forwarded-for': '127.0.0.1, 198.51.100.4' } });
      expect(forwarded.status).toBe(403);
      const local = await httpRequest(`${proxied.base}/metrics`, { headers: { 'x-forwarded-for': '127.0.0.1' } });
      expect(local.status).toBe(200);
      const withToken = await httpRequest(`${proxied.base}/metrics`, {
        headers: { 'x-forwarded-for': '198.51.100.4', authorization: `Bearer ${TOKEN}` },
      });
      expect(withToken.status).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('opens to nobody from outside when no token is set, not even with an empty bearer', async () => {
    const closed = await startObserved(site, { host: '0.0.0.0', settings: { metricsToken: '', trustProxy: outside.base === loopback } });
    try {
      const base = outside.base.replace(/:\d+$/, `:${new URL(closed.base).port}`);
      expect((await httpRequest(`${base}/metrics`, { headers: outside.headers })).status).toBe(403);
      expect((await httpRequest(`${base}/metrics`, { headers: { ...outside.headers, authorization: 'Bearer ' } })).status).toBe(401);
    } finally {
      await closed.close();
    }
  });
});

describe('permission matrix of /healthz, /readyz and /metrics (non-loopback client)', () => {
  const roles: Array<Role | 'guest'> = ['guest', 'consumer', 'moderator', 'administrator'];
  it.each(roles)('%s: health and readiness answer, metrics stay closed without the token', async (role) => {
    const cookie: Record<string, string> =
      role === 'guest' ? {} : { cookie: (await signIn(site.db, { username: `m-${role}`, role })).cookie };
    const answers: Record<string, RawAnswer> = {};
    for (const target of ['/healthz', '/readyz', '/metrics']) answers[target] = await fromOutside(target, cookie);
    expect(answers['/healthz'].status).toBe(200);
    expect(answers['/readyz'].status).toBe(200);
    expect(answers['/metrics'].status).toBe(403);
    const wrong = await fromOutside('/metrics', { ...cookie, authorization: 'Bearer wrong' });
    expect(wrong.status).toBe(401);
  });
});

describe('what /metrics counts', () => {
  it('labels answers by route pattern, never by raw path', async () => {
    await httpRequest(`${loopback}/api/v1/fanbox/user/artist1/profile`);
    await httpRequest(`${loopback}/api/v1/fanbox/user/no-such-${crypto.randomUUID()}/profile`);
    await httpRequest(`${loopback}/api/v1/nothing/here`);
    await httpRequest(`${loopback}/no-such-page-${crypto.randomUUID()}`);
    await httpRequest(`${loopback}/data/ab/cd/${'ab'.padEnd(64, 'c')}.png`);
    const text = await scrape();
    expect(sample(text, 'trove_http_requests_total', { method: 'GET', route: '/api/v1/{service}/user/{id}/profile', status: '200' })).toBe(
      1,
    );
    expect(sample(text, 'trove_http_requests_total', { route: '/api/v1/{service}/user/{id}/profile', status: '404' })).toBe(1);
    expect(sample(text, 'trove_http_requests_total', { route: 'api:unmatched', status: '404' })).toBe(1);
    expect(sample(text, 'trove_http_requests_total', { route: 'page', status: '404' })).toBe(1);
    expect(sample(text, 'trove_http_requests_total', { route: 'media', status: '404' })).toBe(1);
    expect(sample(text, 'trove_http_request_duration_seconds_count', { route: '/api/v1/{service}/user/{id}/profile' })).toBe(2);
    expect(text).not.toMatch(/route="[^"]*(artist1|no-such|nothing)/);
  });

  it('counts page-store renders and hits', async () => {
    const before = await scrape();
    expect((await httpRequest(`${loopback}/fanbox/user/artist1`)).status).toBe(200);
    expect((await httpRequest(`${loopback}/fanbox/user/artist1`)).status).toBe(200);
    const after = await scrape();
    expect(sample(after, 'trove_page_renders_total') - sample(before, 'trove_page_renders_total')).toBe(1);
    expect(sample(after, 'trove_page_store_hits_total') - sample(before, 'trove_page_store_hits_total')).toBe(1);
    expect(sample(after, 'trove_http_requests_total', { route: 'page:creator-posts', status: '200' })).toBe(1);
    expect(sample(after, 'trove_http_requests_total', { route: 'page_store', status: '200' })).toBe(1);
  });

  it('counts media files served and the bytes sent', async () => {
    const body = crypto.randomBytes(5000);
    const hash = crypto.createHash('sha256').update(body).digest('hex');
    const file = path.join(site.paths.files, hash.slice(0, 2), hash.slice(2, 4), `${hash}.bin`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, body);
    const before = await scrape();
    const target = `${loopback}/data/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}.bin`;
    expect((await httpRequest(target, { headers: { 'accept-encoding': 'identity' } })).body.length).toBe(5000);
    expect((await httpRequest(target, { method: 'HEAD' })).status).toBe(200);
    const after = await scrape();
    expect(sample(after, 'trove_files_served_total') - sample(before, 'trove_files_served_total')).toBe(2);
    expect(sample(after, 'trove_file_bytes_served_total') - sample(before, 'trove_file_bytes_served_total')).toBe(5000);
  });

  it('reads the import queue and outcomes from the database at scrape time', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19);
    const past = '2020-01-01T00:00:00';
    const ids: string[] = [];
    for (let n = 0; n < 7; n += 1) ids.push(await createImport(site.db, { service: 'patreon' }));
    const set = (id: string, sql: string, ...values: unknown[]) =>
      site.db.prepare(`UPDATE imports SET ${sql} WHERE id = ?`).run(...values, id);
    set(ids[1], 'lease_owner = ?, lease_expires_at = ?', 'w1', future); // running
    set(ids[2], 'resuming_at = ?', future); // waiting
    set(ids[3], 'lease_owner = ?, lease_expires_at = ?, resuming_at = ?', 'w0', past, past); // lease expired: queued
    set(ids[4], 'finished_at = ?', past);
    set(ids[5], 'gave_up_at = ?', past);
    set(ids[6], 'cancelled_at = ?, finished_at = ?', past, past);
    const text = await scrape();
    expect(sample(text, 'trove_import_queue', { state: 'queued' })).toBe(2);
    expect(sample(text, 'trove_import_queue', { state: 'running' })).toBe(1);
    expect(sample(text, 'trove_import_queue', { state: 'waiting' })).toBe(1);
    expect(sample(text, 'trove_imports_total', { service: 'patreon', outcome: 'finished' })).toBe(1);
    expect(sample(text, 'trove_imports_total', { service: 'patreon', outcome: 'failed' })).toBe(1);
    expect(sample(text, 'trove_imports_total', { service: 'patreon', outcome: 'cancelled' })).toBe(1);
    site.db.prepare('UPDATE imports SET finished_at = ? WHERE id = ?').run(past, ids[0]);
    expect(sample(await scrape(), 'trove_imports_total', { outcome: 'finished' })).toBe(2);
  });
});

describe('a load run', () => {
  it('counts at least every 2xx answer autocannon saw', async () => {
    const route = '/api/v1/{service}/user/{id}/profile';
    const before = sample(await scrape(), 'trove_http_requests_total', { route, status: '200' });
    const run = autocannon({ url: `${loopback}/api/v1/fanbox/user/artist1/profile`, connections: 4, duration: 2 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const during = sample(await scrape(), 'trove_http_requests_total', { route, status: '200' });
    const result = await run;
    const after = sample(await scrape(), 'trove_http_requests_total', { route, status: '200' });
    expect(result['2xx']).toBeGreaterThan(50);
    expect(during).toBeGreaterThan(before);
    expect(after - before).toBeGreaterThanOrEqual(result['2xx']);
    expect(sample(await scrape(), 'trove_http_request_duration_seconds_count', { route })).toBeGreaterThanOrEqual(after);
  }, 30_000);
});
