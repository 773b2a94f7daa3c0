/**
 * The page store in a real browser: an archive page is served from the store, and after new posts are
 * written to the database, `scripts/rebuild` refreshes it (and only the affected pages).
 */
import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '@api/data/db.ts';
import { upsertPost } from '@api/data/posts.ts';
import { PageStore } from '@api/server/page-store.ts';
import { E2E_DATA_DIR } from '../../playwright.config.ts';

const store = new PageStore(path.join(E2E_DATA_DIR, 'pages'));

/** A creator page and one of its posts, found through the site itself. */
async function findCreator(page: import('@playwright/test').Page) {
  await page.goto('/posts');
  const href = await page.locator('.post-card a').first().getAttribute('href');
  const match = /^\/([^/]+)\/user\/([^/]+)\/post\/([^/]+)$/.exec(href ?? '');
  if (!match) throw new Error(`unexpected post link ${href}`);
  return { service: match[1], creator: match[2], post: match[3] };
}

test('an archive page is answered from the page store and refreshed by scripts/rebuild', async ({ page }) => {
  const { service, creator } = await findCreator(page);
  const creatorPath = `/${service}/user/${creator}`;

  const first = await page.goto(creatorPath);
  expect(first?.status()).toBe(200);
  await expect(page.locator('.creator-header__name')).toBeVisible();
  expect(store.has(creatorPath)).toBe(true);

  // Prove the answer comes from the store: a marker written into the stored file shows up in the browser.
  const file = store.fileFor(creatorPath);
  const original = fs.readFileSync(file, 'utf8');
  await store.write(creatorPath, original.replace('</main>', '<p id="store-marker">served from the store</p></main>'));
  await page.goto(creatorPath);
  await expect(page.locator('#store-marker')).toHaveText('served from the store');

  const now = Date.now();
  const title = `Fresh import ${now}`;
  // Dated after everything else (and after earlier runs on the same data folder): the newest post.
  const published = new Date(now + 5 * 365 * 86_400_000).toISOString().slice(0, 19);
  const db = openDatabase(path.join(E2E_DATA_DIR, 'trove.sqlite'));
  try {
    await upsertPost(db, {
      service,
      user: creator,
      id: `e2e-${now}`,
      title,
      content: '<p>Imported by the e2e test.</p>',
      published,
      tags: ['e2e'],
    });
  } finally {
    db.close();
  }
  const output = execFileSync('npx', ['tsx', 'scripts/rebuild.ts'], {
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR, TROVE_ENV: 'test' },
    encoding: 'utf8',
  });
  expect(output).toMatch(/Rebuilt \d+ pages from \d+ changes/);

  await page.goto(creatorPath);
  await expect(page.locator('#store-marker')).toHaveCount(0);
  await expect(page.locator('.post-card').first()).toContainText(title);
  await page.locator('.post-card a').first().click();
  await expect(page.locator('.post-header__title')).toContainText(title);
  await expect(page).toHaveTitle(new RegExp(`${title}.* \\| `));
});
