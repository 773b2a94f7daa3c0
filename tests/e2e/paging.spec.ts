/**
 * Stable paging in a real browser (docs/product.md#stable-paging): following the Next links through a
 * creator's posts and through /posts, at desktop and phone widths, with the keyboard and without
 * JavaScript. Next links carry `o` and the cursor; an import between two pages neither repeats nor
 * skips a post.
 */
import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import { openDatabase } from '@api/data/db.ts';
import { upsertPost } from '@api/data/posts.ts';
import { PageStore } from '@api/server/page-store.ts';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import { E2E_DB_FILE, e2eRow } from './e2e-db.ts';

const store = new PageStore(path.join(E2E_DATA_DIR, 'pages'));
/** Posts the paged creator has at least (three pages and a bit). */
const AT_LEAST = 160;

/** The creator with the most posts, topped up to AT_LEAST with old posts so it has several pages. */
async function pagedCreator(): Promise<{ service: string; user: string; path: string }> {
  const top = e2eRow<{ service: string; user: string; n: number }>(
    'SELECT service, "user", count(*) AS n FROM posts WHERE service <> \'discord\' GROUP BY service, "user" ORDER BY n DESC LIMIT 1',
  );
  const db = openDatabase(E2E_DB_FILE);
  try {
    for (let n = top.n; n < AT_LEAST; n++) {
      await upsertPost(db, {
        service: top.service,
        user: top.user,
        id: `e2e-paging-${n}`,
        title: `Paging filler ${n}`,
        published: new Date(Date.UTC(2001, 0, 1) + n * 3_600_000).toISOString().slice(0, 19),
      });
    }
  } finally {
    db.close();
  }
  const listing = `/${top.service}/user/${top.user}`;
  // What the rebuild would do after those writes: drop the listing's stored pages.
  for (const file of store.listingFiles(listing)) store.removeFile(file);
  return { ...top, path: listing };
}

async function cardIds(page: Page): Promise<string[]> {
  const hrefs = await page.locator('.post-card a').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  return [...new Set(hrefs.filter((href) => href.includes('/post/')))];
}

/** Follows Next (focused and activated with Enter) from `start`, calling `between` after each page. */
async function followNext(page: Page, start: string, maxPages: number, between: () => void | Promise<void> = () => {}): Promise<string[]> {
  const seen: string[] = [];
  await page.goto(start);
  for (let n = 0; n < maxPages; n++) {
    seen.push(...(await cardIds(page)));
    const next = page.getByRole('navigation', { name: 'Pages', exact: true }).getByRole('link', { name: 'Next page' });
    if ((await next.count()) === 0) break;
    const href = await next.getAttribute('href');
    expect(href).toMatch(/[?&]o=\d+&after=[^&]+/);
    await between();
    await next.focus();
    const target = new URL(href!, page.url()).toString();
    await Promise.all([page.waitForURL(target, { waitUntil: 'load' }), page.keyboard.press('Enter')]);
  }
  return seen;
}

/** Writes a post newer than every other of the creator, as an import does; returns its card link. */
async function importNewest(creator: { service: string; user: string; path: string }, n: number): Promise<string> {
  const db = openDatabase(E2E_DB_FILE);
  try {
    const now = Date.now();
    const id = `e2e-paging-new-${now}-${n}`;
    await upsertPost(db, {
      service: creator.service,
      user: creator.user,
      id,
      title: `Imported while paging ${n}`,
      published: new Date(now + 10 * 365 * 86_400_000 + n * 1000).toISOString().slice(0, 19),
    });
    return `${creator.path}/post/${id}`;
  } finally {
    db.close();
  }
}

for (const [name, viewport] of [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test.describe(`paging by Next links (${name})`, () => {
    test.use({ viewport });

    test("through a creator's posts while an import adds posts: every post once", async ({ page }) => {
      const creator = await pagedCreator();
      const before = e2eRow<{ n: number }>(
        'SELECT count(*) AS n FROM posts WHERE service = ? AND "user" = ?',
        creator.service,
        creator.user,
      ).n;
      const imported = new Set<string>();
      const seen = await followNext(page, creator.path, 20, async () => void imported.add(await importNewest(creator, imported.size)));
      expect(imported.size).toBeGreaterThan(1);
      const original = seen.filter((href) => !imported.has(href));
      expect(new Set(seen).size).toBe(seen.length);
      expect(original.length).toBe(before);
      await expect(page.locator('.paginator').first()).toBeVisible();
    });

    test('through /posts: no post twice over three pages', async ({ page }) => {
      const seen = await followNext(page, '/posts', 3);
      expect(seen.length).toBeGreaterThan(100);
      expect(new Set(seen).size).toBe(seen.length);
    });
  });
}

test.describe('paging without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the Next links work as plain links', async ({ page }) => {
    const creator = await pagedCreator();
    await page.goto(creator.path);
    const first = await cardIds(page);
    await page.getByRole('navigation', { name: 'Pages', exact: true }).getByRole('link', { name: 'Next page' }).click();
    await expect(page).toHaveURL(/o=50&after=/);
    const second = await cardIds(page);
    expect(second).toHaveLength(50);
    expect(second.some((href) => first.includes(href))).toBe(false);
  });
});
