/**
 * Stable paging through the front server over real HTTP: the listing pages' Next links carry `o` and
 * the cursor; the stored `o` page answers a Next link whose cursor it continues from, and a cursor it
 * does not continue from (posts were added since) renders on demand, so no post is skipped or repeated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { httpRequest } from '../../helpers/http.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';

let site: TestSite;
let base: string;
const TOTAL = 130;

function day(n: number): string {
  return new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 19);
}

async function page(pathname: string): Promise<{ status: number; html: string; ids: string[]; next: string | null }> {
  const answer = await httpRequest(`${base}${pathname}`, { headers: { 'accept-encoding': 'identity' } });
  const html = answer.body.toString();
  const ids = [...new Set([...html.matchAll(/href="\/patreon\/user\/42\/post\/([^"/?]+)"/g)].map((m) => m[1]))];
  const next = /<a href="([^"]+)" rel="next"/.exec(html)?.[1].replace(/&#38;|&amp;/g, '&') ?? null;
  return { status: answer.status, html, ids, next };
}

beforeAll(async () => {
  site = await createTestSite('front-paging');
  await upsertCreator(site.db, { service: 'patreon', id: '42', name: 'Paging Artist' });
  for (let n = 1; n <= TOTAL; n++) {
    await upsertPost(site.db, { service: 'patreon', user: '42', id: `p${n}`, title: `Post ${n}`, published: day(n), added: day(n) });
  }
  base = await site.start();
}, 300_000);

afterAll(() => site?.close());

describe('Next links of the stored listing pages', () => {
  it('carry o and the cursor of the last post, and the stored o page answers them', async () => {
    const first = await page('/patreon/user/42');
    expect(first.ids).toHaveLength(50);
    expect(first.next).toBe(`/patreon/user/42?o=50&after=${encodeURIComponent(`${day(81)}_p81`)}`);
    const second = await page(first.next!);
    expect(second.ids[0]).toBe('p80');
    // The Next link rendered the o=50 page into the store, which now answers it: prove it by its bytes.
    const key = '/patreon/user/42?o=50';
    expect(site.store.continuesFrom(key)).toBe(`${day(81)}_p81`);
    const stored = (await httpRequest(`${base}${key}`, { headers: { 'accept-encoding': 'identity' } })).body.toString();
    await site.store.write(key, stored.replace('</body>', '<p>served from the store</p></body>'));
    expect((await page(first.next!)).html).toContain('served from the store');
    expect((await page(`/patreon/user/42?o=50&after=${encodeURIComponent(`${day(82)}_p82`)}`)).html).not.toContain('served from the store');
  });

  it('a visitor paging while an import adds posts sees every post once', async () => {
    site.store.remove('/patreon/user/42');
    site.store.remove('/patreon/user/42?o=50');
    site.store.remove('/patreon/user/42?o=100');
    const seen: string[] = [];
    let url: string | null = '/patreon/user/42';
    let added = 0;
    while (url) {
      const current = await page(url);
      expect(current.status).toBe(200);
      seen.push(...current.ids);
      url = current.next;
      // The import adds two newer posts, and the rebuild re-renders the pages they moved.
      for (let k = 0; k < 2; k++) {
        added += 1;
        await upsertPost(site.db, {
          service: 'patreon',
          user: '42',
          id: `new${added}`,
          title: `New ${added}`,
          published: day(500 + added),
        });
      }
      for (const o of [0, 50, 100, 150]) site.store.remove(o ? `/patreon/user/42?o=${o}` : '/patreon/user/42');
    }
    const original = seen.filter((id) => /^p\d+$/.test(id));
    expect(original).toHaveLength(TOTAL);
    expect(new Set(original).size).toBe(TOTAL);
  });

  it('/posts pages by cursor too, and a bad cursor is a 400 page', async () => {
    const first = await page('/posts');
    expect(first.next).toMatch(/^\/posts\?o=50&after=/);
    const second = await page(first.next!);
    expect(second.status).toBe(200);
    expect(second.ids.some((id) => first.ids.includes(id))).toBe(false);
    const bad = await page('/posts?o=50&after=2024-01-01T00:00:00_p1');
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('not an archive number');
  });
});
