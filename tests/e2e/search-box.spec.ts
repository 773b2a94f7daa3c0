/** Listing searches: the debounced search box on a creator page and on /dms, and /posts without JavaScript. */
import { expect, test } from '@playwright/test';
import { e2eRow } from './e2e-db.ts';

test('a creator page searches 1000 ms after typing stops, and waits while the query is too short', async ({ page }) => {
  const creator = e2eRow<{ service: string; user: string; word: string }>(
    `SELECT service, "user", substr(title, 1, instr(title || ' ', ' ') - 1) AS word FROM posts WHERE service = 'patreon' AND title GLOB '[A-Za-z]*' LIMIT 1`,
  );
  const base = `/${creator.service}/user/${creator.user}`;
  await page.goto(base);
  const box = page.getByRole('searchbox', { name: 'Search posts' });
  await page.waitForLoadState('networkidle');
  await box.pressSequentially('x');
  await page.waitForTimeout(1500);
  expect(new URL(page.url()).search).toBe(''); // one character: no search yet
  await box.fill('');
  const typedAt = Date.now();
  await box.pressSequentially(creator.word.slice(0, 6));
  await page.waitForURL((url) => url.searchParams.get('q') === creator.word.slice(0, 6));
  expect(Date.now() - typedAt).toBeGreaterThanOrEqual(1000);
  await expect(page.locator('.post-card').first()).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Search posts' })).toHaveValue(creator.word.slice(0, 6));
});

test('/dms lists DMs with their creator and searches them', async ({ page }) => {
  const dm = e2eRow<{ word: string }>(
    `SELECT substr(content, instr(content, ' ') + 1, 5) AS word FROM dms WHERE status = 'approved' AND content GLOB '*[A-Za-z][A-Za-z][A-Za-z][A-Za-z][A-Za-z]*' LIMIT 1`,
  );
  await page.goto('/dms');
  await expect(page.getByRole('heading', { name: 'DMs' })).toBeVisible();
  await expect(page.locator('.dm').first()).toBeVisible();
  await expect(page.locator('.dm__artist a').first()).toHaveAttribute('href', /\/user\/|\/discord\/server\//);
  await page.goto('/dms?q=zzzzqqqq');
  await expect(page.getByText('There are no DMs for your query.')).toBeVisible();
  const short = await page.goto('/dms?q=ab');
  expect(short?.status()).toBe(400);
  expect(dm.word.length).toBeGreaterThan(0);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('/posts searches with Enter', async ({ page }) => {
    await page.goto('/posts');
    await page.getByRole('searchbox', { name: 'Search posts' }).fill('sketch');
    await page.getByRole('searchbox', { name: 'Search posts' }).press('Enter');
    await expect(page).toHaveURL(/\/posts\?q=sketch/);
    await expect(page.locator('.post-card').first()).toBeVisible();
  });
});
