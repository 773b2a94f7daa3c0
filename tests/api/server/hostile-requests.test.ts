/**
 * Request targets anyone can send: the asterisk form (`OPTIONS *`, `GET *`), junk targets, and paths
 * with broken or doubled percent-encoding on every prefix (pages, /api, media, built assets). Each is a
 * quiet 400 (or a media 404): no 500, no stack trace, and not one log line, from our log or Astro's.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { httpRequest, type RawAnswer } from '../../helpers/http.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';

let site: TestSite;
let base: string;
const frontLog: string[] = [];

/** Sends `target` exactly as written (no URL parsing on the way). */
function send(target: string, method = 'GET'): Promise<RawAnswer> {
  return httpRequest(base, { path: target, method, headers: { 'accept-encoding': 'identity' } });
}

/** Everything written to the console while `run` runs (Astro's logger writes through console.error and console.info). */
async function consoleLines(run: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const spies = (['error', 'warn', 'info', 'log', 'debug'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    }),
  );
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines;
}

beforeAll(async () => {
  site = await createTestSite('hostile');
  await upsertCreator(site.db, {
    service: 'fanbox',
    id: 'artist1',
    name: 'Hostile Test Artist',
    indexed: 1_700_000_000,
    updated: 1_700_000_000,
  });
  await upsertPost(site.db, {
    service: 'fanbox',
    user: 'artist1',
    id: 'p1',
    title: 'A post',
    content: '<p>Hi</p>',
    published: '2024-05-01T10:00:00',
  });
  base = await site.start({}, { log: (line) => frontLog.push(line) });
}, 300_000);

afterAll(() => site?.close());

describe('the asterisk form and other non-path targets', () => {
  it.each(['OPTIONS', 'GET', 'HEAD', 'POST', 'DELETE'])('%s * answers 400 quietly', async (method) => {
    frontLog.length = 0;
    let answer: RawAnswer | undefined;
    const lines = await consoleLines(async () => {
      answer = await send('*', method);
    });
    expect(answer!.status).toBe(400);
    expect(answer!.headers['content-type']).toBe('text/plain; charset=utf-8');
    if (method !== 'HEAD') expect(answer!.body.toString()).toBe('Bad request: the request target must be a path.');
    expect(lines).toEqual([]);
    expect(frontLog).toEqual([]);
  });

  it.each(['posts', 'javascript:alert(1)', '?o=50', 'ftp://example.org/posts', '//fanbox/user/artist1', '//a/fanbox/user/artist1'])(
    'GET %s answers 400 quietly',
    async (target) => {
      frontLog.length = 0;
      let answer: RawAnswer | undefined;
      // Node's parser refuses some of these itself (a bare 400); the rest are ours.
      const lines = await consoleLines(async () => {
        answer = await send(target);
      });
      expect(answer!.status).toBe(400);
      expect(answer!.body.toString()).not.toMatch(/\bat \S+ \(|Error/);
      expect(lines).toEqual([]);
      expect(frontLog).toEqual([]);
    },
  );

  it('still answers the absolute form a proxy may send', async () => {
    const answer = await send(`${base}/fanbox/user/artist1`);
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toContain('Hostile Test Artist');
  });
});

describe('broken percent-encoding in the path', () => {
  const broken = [
    '/%ff',
    '/%',
    '/%zz',
    '/%E0%A4%A',
    '/posts/%E0%A4%A',
    '/posts/%ff?o=50',
    '/fanbox/user/%ff',
    '/fanbox/user/artist1/post/%E0%A4%A',
    '/fanbox/user/artist1/post/%ED%A0%80',
    '/artists/%C0%AF',
    '/_astro/%ff.js',
    '/api/%ff',
    '/api/v1/%ff',
    '/api/v1/fanbox/user/%E0%A4%A/profile',
    '/data/%ff',
    '/data/ab/cd/%ff.png',
    '/thumbnail/data/%E0%A4%A',
    '/icons/fanbox/%ff',
    '/banners/fanbox/%E0%A4%A',
    '/ab/cd/%ff',
  ];
  const doubled = ['/%252e%252e/account', '/fanbox/user/%2561rtist1', '/posts/%C3%A9%252F', '/fanbox/user/artist1/post/p%25%31'];

  it.each([...broken, ...doubled])('%s answers 400 or 404 without a log line', async (target) => {
    frontLog.length = 0;
    const answers: RawAnswer[] = [];
    const lines = await consoleLines(async () => {
      for (let n = 0; n < 3; n += 1) answers.push(await send(target));
      answers.push(await send(target, 'HEAD'));
    });
    for (const answer of answers) {
      expect([400, 404]).toContain(answer.status);
      expect(answer.body.toString()).not.toMatch(/\bat \S+ \(|Error:/);
    }
    expect(lines).toEqual([]);
    expect(frontLog).toEqual([]);
  });

  it('gives pages a plain 400 that says why', async () => {
    const answer = await send('/posts/%E0%A4%A');
    expect(answer.status).toBe(400);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body.toString()).toBe('Bad request: the path is not valid percent-encoding.');
  });

  it('keeps well-encoded paths working, including escapes in the query', async () => {
    expect((await send('/fanbox/user/artist1/post/p1')).status).toBe(200);
    expect((await send('/fanbox/user/%61rtist1')).status).toBe(200);
    expect((await send('/api/v1/fanbox/user/artist1/post/p1')).status).toBe(200);
    // A broken escape in the query is the page's business (decoded leniently), not a refused target.
    expect((await send('/fanbox/user/artist1?q=%ff%E0')).status).not.toBe(500);
  });
});
