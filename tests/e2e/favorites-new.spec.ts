/**
 * "New from your favourites" in Chromium against the demo archive, at 1280 and 390 px: an account with
 * a favourite creator sees the count of new posts beside Favorites in the sidebar, follows it (with the
 * keyboard) to /account/favorites/new, sees those posts as cards, and the count is gone afterwards; the
 * personal feed link is made on the page, shown with Copy, and answers XML with those posts.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { parseFeed } from '@rowanmanning/feed-parser';
import { E2E_DB_FILE, readE2eDb, signInBrowser } from './e2e-db.ts';
import { openDatabase } from '@api/data/db.ts';
import { addFavoriteCreator } from '@api/data/favorites.ts';
import { recordNewsVisit } from '@api/data/favorites-news.ts';
import { PAGE_SIZE } from '@shared/constants.ts';

interface Creator {
  service: string;
  id: string;
  posts: number;
}

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** A creator with a handful of posts (a count under the cap), not Discord. */
const creator = () =>
  readE2eDb(
    (db) =>
      db
        .prepare(
          `SELECT c.service, c.id, count(*) AS posts FROM creators c JOIN posts p ON p.service = c.service AND p."user" = c.id
            WHERE c.service IN ('patreon', 'fanbox', 'fantia') GROUP BY c.service, c.id HAVING count(*) BETWEEN 2 AND 60
            ORDER BY c.service, c.id LIMIT 1`,
        )
        .get() as Creator,
  );

/** A fresh account whose favourite is `fav`, last here long ago: every post of the creator is new. */
async function accountWithFavourite(context: BrowserContext, fav: Creator) {
  const session = await signInBrowser(context);
  const db = openDatabase(E2E_DB_FILE);
  try {
    await addFavoriteCreator(db, session.account.id, fav.service, fav.id);
    await recordNewsVisit(db, session.account.id, '2000-01-01T00:00:00');
  } finally {
    db.close();
  }
  await context.addInitScript(() => localStorage.setItem('logged_in', 'yes'));
  return session;
}

async function openSidebar(page: Page) {
  const toggle = page.locator('button[aria-controls="sidebar"]').first();
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(page.locator('#sidebar')).toBeVisible();
}

const countPath = '**/api/v1/account/favorites/new/count';

for (const size of WIDTHS) {
  test(`the sidebar count leads to the new posts and goes away (${size.name})`, async ({ page, context }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const fav = creator();
    await accountWithFavourite(context, fav);

    const counted = page.waitForResponse(countPath);
    await page.goto('/posts');
    await counted;
    await openSidebar(page);
    const count = page.locator('#sidebar .news-count');
    await expect(count).toHaveText(String(fav.posts));
    await expect(count).toHaveAccessibleName(`${fav.posts} new posts from your favorites`);
    // Beside Favorites, in the same item.
    await expect(
      page.locator('#sidebar .auth-user li', { has: page.locator('a[href="/account/favorites"]') }).locator('.news-count'),
    ).toHaveCount(1);

    await count.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/account\/favorites\/new$/);
    await expect(page.getByRole('heading', { level: 1, name: 'New from your favorites' })).toBeVisible();
    await expect(page.locator('.news-summary')).toContainText(`${fav.posts} posts added from your favorite creators since`);
    await expect(page.locator('.news-summary')).toContainText('(your last visit)');
    const cards = page.locator('.card-grid .post-card');
    await expect(cards).toHaveCount(Math.min(fav.posts, PAGE_SIZE));
    await expect(cards.first()).toHaveAttribute('data-user', fav.id);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);

    // The visit is recorded: on the next page the count is gone.
    const recounted = page.waitForResponse(countPath);
    await page.goto('/posts');
    await recounted;
    await openSidebar(page);
    await expect(page.locator('#sidebar .auth-user a[href="/account/favorites"]')).toBeVisible();
    await expect(count).toHaveCount(0);

    // A date picked in the form shows the posts since then.
    await page.goto('/account/favorites/new');
    await expect(cards).toHaveCount(0);
    await page.getByLabel('Since').fill('2000-01-01');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(/since=2000-01-01/);
    await expect(cards).toHaveCount(Math.min(fav.posts, PAGE_SIZE));
  });

  test(`the feed link is shown once and answers XML (${size.name})`, async ({ page, context }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const fav = creator();
    await accountWithFavourite(context, fav);
    await page.goto('/account/favorites/new');
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await page.getByRole('button', { name: 'Get feed link' }).click();
    const rss = page.getByLabel('RSS', { exact: true });
    await expect(rss).toHaveValue(/\/feeds\/favorites\.rss\?token=[A-Za-z0-9_-]{43}$/);
    await expect(page.getByLabel('Atom', { exact: true })).toHaveValue(/\/feeds\/favorites\.atom\?token=/);
    await expect(page.getByRole('button', { name: 'Copy the RSS link' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);

    const url = await rss.inputValue();
    // A feed reader has no session: a fresh context without cookies.
    const answer = await page.context().request.fetch(url, { headers: { cookie: '' } });
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toContain('application/rss+xml');
    expect(answer.headers()['cache-control']).toBe('private, no-store');
    const feed = parseFeed(await answer.text());
    expect(feed.items).toHaveLength(Math.min(fav.posts, 50));
    expect(feed.items.every((item) => item.url?.includes(`/${fav.service}/user/${fav.id}/post/`))).toBe(true);

    // Reset: the page asks first, the old link answers 404.
    page.once('dialog', (dialog) => dialog.accept());
    await page.reload();
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await expect(page.getByLabel('RSS', { exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Reset feed link' }).click();
    await expect(page.getByLabel('RSS', { exact: true })).not.toHaveValue(url);
    expect((await page.context().request.fetch(url)).status()).toBe(404);
  });
}
