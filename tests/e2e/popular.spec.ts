/** Popular posts: the default recent period, switching scales, previous/next and the period message. */
import { expect, test } from '@playwright/test';
import { e2eRow } from './e2e-db.ts';

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
