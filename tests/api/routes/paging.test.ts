/**
 * Stable paging over real HTTP: a client follows the Link rel="next" cursors of
 * GET /api/v1/{service}/user/{id}/posts and GET /api/v1/posts while an import writes posts through the
 * data layer between its page fetches. Every post present at the start is seen exactly once; paging by
 * plain offsets under the same writes repeats posts (the contrast).
 */
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { readConfig } from '@api/config.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let temp: TempDb;
let app: ReturnType<typeof createApp>;
/** Posts of the creator at the start: enough for three full pages and a partial one. */
const START = 170;

function day(n: number): string {
  return new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 19);
}

/** Creator posts with ties and undated posts, so the cursor must follow the whole order. */
async function seed(): Promise<void> {
  await upsertCreator(temp.db, { service: 'patreon', id: '42', name: 'Painter' });
  for (let n = 1; n <= START; n++) {
    await upsertPost(temp.db, {
      service: 'patreon',
      user: '42',
      id: `p${String(n).padStart(3, '0')}`,
      title: `Post ${n}`,
      // Three posts share each date; every tenth post has no date (they come last).
      published: n % 10 === 0 ? null : day(Math.floor(n / 3)),
      added: day(Math.floor(n / 4)),
    });
  }
}

let imported = 0;
/** One import step between page fetches: three new posts, the newest of the archive. */
async function importSome(): Promise<void> {
  for (let k = 0; k < 3; k++) {
    imported += 1;
    await upsertPost(temp.db, {
      service: 'patreon',
      user: '42',
      id: `new${imported}`,
      title: `New ${imported}`,
      published: day(1000 + imported),
      added: day(1000 + imported),
    });
  }
}

function nextLink(answer: request.Response): string | null {
  const link = answer.headers.link as string | undefined;
  if (!link) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  expect(match).not.toBeNull();
  return match![1];
}

type Listing = (body: unknown) => Array<{ service: string; user: string; id: string }>;
const creatorBody: Listing = (body) => body as Array<{ service: string; user: string; id: string }>;
const globalBody: Listing = (body) => (body as { posts: Array<{ service: string; user: string; id: string }> }).posts;

/** Follows the Link cursors from `first`, importing between pages; returns every post id seen. */
async function pageByCursor(first: string, posts: Listing): Promise<string[]> {
  const seen: string[] = [];
  let url: string | null = first;
  while (url) {
    const answer = await request(app).get(url);
    expect(answer.status).toBe(200);
    seen.push(...posts(answer.body).map((p) => p.id));
    url = nextLink(answer);
    await importSome();
  }
  return seen;
}

/** Pages by `o` the way a kemono client does, importing between pages, until a short page. */
async function pageByOffset(path: string, posts: Listing): Promise<string[]> {
  const seen: string[] = [];
  for (let o = 0; ; o += 50) {
    const answer = await request(app).get(`${path}${path.includes('?') ? '&' : '?'}o=${o}`);
    expect(answer.status).toBe(200);
    const page = posts(answer.body);
    seen.push(...page.map((p) => p.id));
    if (page.length < 50) return seen;
    await importSome();
  }
}

function startIds(): string[] {
  return Array.from({ length: START }, (_, i) => `p${String(i + 1).padStart(3, '0')}`);
}

/** How many times each post present at the start was seen. */
function sightings(seen: string[]): Map<string, number> {
  const counts = new Map(startIds().map((id) => [id, 0]));
  for (const id of seen) if (counts.has(id)) counts.set(id, counts.get(id)! + 1);
  return counts;
}

beforeEach(async () => {
  temp = tempDb();
  imported = 0;
  await seed();
  app = createApp({ db: temp.db, config: readConfig({ DATA_DIR: temp.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
});
afterEach(() => temp.cleanup());

describe('paging with cursors while an import adds posts', () => {
  it('GET /api/v1/{service}/user/{id}/posts: every post present at the start is seen exactly once', async () => {
    const seen = await pageByCursor('/api/v1/patreon/user/42/posts', creatorBody);
    expect([...sightings(seen).values()].every((n) => n === 1)).toBe(true);
    // The undated posts come last, after every dated one, as in the offset listing.
    const undated = startIds().filter((_, i) => (i + 1) % 10 === 0);
    expect(seen.slice(-undated.length).sort()).toEqual(undated.sort());
    expect(imported).toBeGreaterThan(0);
  });

  it('GET /api/v1/{service}/user/{id}/posts by plain offsets repeats posts under the same writes (the contrast)', async () => {
    const seen = await pageByOffset('/api/v1/patreon/user/42/posts', creatorBody);
    const repeated = [...sightings(seen).values()].filter((n) => n > 1);
    expect(repeated.length).toBeGreaterThan(0);
  });

  it('GET /api/v1/posts: every post present at the start is seen exactly once', async () => {
    const seen = await pageByCursor('/api/v1/posts', globalBody);
    expect([...sightings(seen).values()].every((n) => n === 1)).toBe(true);
  });

  it('GET /api/v1/posts by plain offsets repeats posts under the same writes (the contrast)', async () => {
    const seen = await pageByOffset('/api/v1/posts', globalBody);
    expect([...sightings(seen).values()].filter((n) => n > 1).length).toBeGreaterThan(0);
  });

  it('GET /api/v1/posts with a tag pages by cursor too (newest archived first)', async () => {
    for (let n = 1; n <= 60; n++) {
      await upsertPost(temp.db, { service: 'patreon', user: '42', id: `t${n}`, title: `Tagged ${n}`, published: day(n), tags: ['ink'] });
    }
    const seen: string[] = [];
    let url: string | null = '/api/v1/posts?tag=ink';
    while (url) {
      const answer = await request(app).get(url);
      seen.push(...globalBody(answer.body).map((p) => p.id));
      url = nextLink(answer);
      await upsertPost(temp.db, { service: 'patreon', user: '42', id: `t-new-${seen.length}`, title: 'New', tags: ['ink'] });
    }
    const tagged = seen.filter((id) => /^t\d+$/.test(id));
    expect(tagged).toHaveLength(60);
    expect(new Set(tagged).size).toBe(60);
  });
});

describe('the answers of a cursor request', () => {
  it('keeps the body of the offset answer and names the next page in a Link header', async () => {
    const byOffset = await request(app).get('/api/v1/patreon/user/42/posts?o=50');
    const first = await request(app).get('/api/v1/patreon/user/42/posts');
    const next = nextLink(first)!;
    expect(next).toMatch(/^\/api\/v1\/patreon\/user\/42\/posts\?after=/);
    const byCursor = await request(app).get(next);
    expect(byCursor.body).toEqual(byOffset.body);
    expect(Array.isArray(byCursor.body)).toBe(true);
  });

  it('ignores o beside a cursor, keeps q and tag in the next link, and sends no link on the last page', async () => {
    const first = await request(app).get('/api/v1/patreon/user/42/posts');
    const next = nextLink(first)!;
    const withO = await request(app).get(`${next}&o=150`);
    expect(withO.body).toEqual((await request(app).get(next)).body);
    const search = await request(app).get('/api/v1/patreon/user/42/posts?q=Post');
    expect(nextLink(search)).toMatch(/^\/api\/v1\/patreon\/user\/42\/posts\?q=Post&after=/);
    const last = await request(app).get('/api/v1/patreon/user/42/posts?o=150');
    expect(last.body).toHaveLength(START - 150);
    expect(last.headers.link).toBeUndefined();
  });

  it('refuses malformed cursors with 400 and a clear message', async () => {
    const cases: Array<[string, RegExp]> = [
      ['/api/v1/patreon/user/42/posts?after=2024-01-01T00:00:00', /Cursor "2024-01-01T00:00:00" is not <date>_<id>/],
      ['/api/v1/patreon/user/42/posts?after=yesterday_p001', /Cursor date "yesterday" is not a date/],
      ['/api/v1/patreon/user/42/posts?after=2024-01-01T00:00:00_', /Cursor has no id/],
      [`/api/v1/patreon/user/42/posts?after=_${'x'.repeat(400)}`, /Cursor is longer than 300 characters/],
      ['/api/v1/posts?after=_12', /needs the date the post was added/],
      ['/api/v1/posts?after=2024-01-01T00:00:00_p001', /not an archive number/],
      ['/api/v1/posts?after=2024-01-01T00:00:00_0', /not an archive number/],
    ];
    for (const [url, message] of cases) {
      const answer = await request(app).get(url);
      expect(answer.status, url).toBe(400);
      expect((answer.body as { error: string }).error, url).toMatch(message);
    }
  });

  it('an undated cursor continues among the undated posts', async () => {
    const answer = await request(app).get('/api/v1/patreon/user/42/posts?after=_p100');
    expect(answer.status).toBe(200);
    expect((answer.body as Array<{ id: string }>).map((p) => p.id)).toEqual([
      'p090',
      'p080',
      'p070',
      'p060',
      'p050',
      'p040',
      'p030',
      'p020',
      'p010',
    ]);
  });
});
