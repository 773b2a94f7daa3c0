/** Popular posts: the default recent period, switching scales, previous/next and the period message. */
import { expect, test } from '@playwright/test';
import path from 'node:path';
import { e2eRow } from './e2e-db.ts';
import { PageStore } from '@api/server/page-store.ts';
import { E2E_DATA_DIR } from '../../playwright.config.ts';

const store = new PageStore(path.join(E2E_DATA_DIR, 'pages'));

function busiestDay(): { day: string; posts: number } {
  return e2eRow('SELECT day, count(DISTINCT post_id) AS posts FROM post_popularity GROUP BY day ORDER BY posts DESC, day LIMIT 1');
}

test('recent by default, then a day with its posts and its neighbours', async ({ page }) => {
  await page.goto('/posts/popular');
  await expect(page.getByText('Popular posts of the last 7 days')).toBeVisible();
  const periods = page.getByRole('navigation', { name: 'Period' });
  await expect(periods.getByRole('link', { name: 'Recent' })).toHaveAttribute('aria-current', 'page');

  const { day, posts } = busiestDay();
  await page.goto(`/posts/popular?date=${day}&period=day`);
  await expect(page.getByText(`Popular posts of ${day}`)).toBeVisible();
  await expect(page.locator('.post-card')).toHaveCount(Math.min(posts, 50));
  await periods.getByRole('link', { name: '« previous' }).click();
  const previous = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  await expect(page).toHaveURL(`/posts/popular?date=${previous}&period=day`);

  await periods.getByRole('link', { name: 'Month' }).click();
  await expect(page.getByText(/Popular posts of [A-Z][a-z]+ \d{4}/)).toBeVisible();
  await expect(page.locator('.post-card').first()).toBeVisible();
});

test('next is not offered past the last day, and a bad period gives the spec message', async ({ page }) => {
  await page.goto('/posts/popular?period=day');
  await expect(page.locator('.popular-nav__range [aria-disabled="true"]', { hasText: 'next »' })).toBeVisible();
  const answer = await page.goto('/posts/popular?period=year');
  expect(answer?.status()).toBe(400);
  await expect(page.getByText('year is not a valid period')).toBeVisible();
});

test('the latest page of each period comes from the page store; its scale links stay undated', async ({ page }) => {
  await page.goto('/posts/popular');
  expect(store.has('/posts/popular')).toBe(true);
  const periods = page.getByRole('navigation', { name: 'Period' });
  for (const [name, period] of [
    ['Day', 'day'],
    ['Week', 'week'],
    ['Month', 'month'],
  ] as const) {
    await periods.getByRole('link', { name }).click();
    await expect(page).toHaveURL(`/posts/popular?period=${period}`);
    await expect(periods.getByRole('link', { name })).toHaveAttribute('aria-current', 'page');
    expect(store.has(`/posts/popular?period=${period}`)).toBe(true);
  }
  // A dated page (previous) is rendered on demand and never stored.
  await periods.getByRole('link', { name: '« previous' }).click();
  await expect(page).toHaveURL(/\/posts\/popular\?date=\d{4}-\d{2}-\d{2}&period=month$/);
  expect(store.has(new URL(page.url()).pathname + new URL(page.url()).search)).toBe(false);
});
