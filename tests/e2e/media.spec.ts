/**
 * Media in Chromium against the real server and the demo archive: post-card thumbnails are real
 * WebP thumbnails (not the originals, not the placeholder), and a creator page shows its icon and
 * banner; a creator without stored images gets the default ones.
 */
import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import { dataPaths } from '../../src/lib/config.ts';

test('post cards load WebP thumbnails generated from the stored images', async ({ page }) => {
  const thumbnails: Array<{ url: string; type: string | null; status: number }> = [];
  page.on('response', (response) => {
    if (response.url().includes('/thumbnail/data/')) thumbnails.push({ url: response.url(), type: response.headers()['content-type'] ?? null, status: response.status() });
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/posts');
  const first = page.locator('img.post-card__image').first();
  await expect(first).toBeVisible();
  await expect.poll(() => first.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
  const width = await first.evaluate((image: HTMLImageElement) => Math.max(image.naturalWidth, image.naturalHeight));
  expect(width).toBeLessThanOrEqual(600);
  expect(thumbnails.length).toBeGreaterThan(0);
  for (const answer of thumbnails) {
    expect(answer.status, answer.url).toBe(200);
    expect(answer.type, answer.url).toBe('image/webp');
  }
  // Each thumbnail seen was written to the thumbnail cache on disk.
  const hash = /\/([0-9a-f]{64})\.[a-z0-9]+$/.exec(thumbnails[0].url)![1];
  expect(fs.existsSync(path.join(dataPaths(E2E_DATA_DIR).thumbnails, hash.slice(0, 2), hash.slice(2, 4), `${hash}.webp`))).toBe(true);
});

test('a creator page shows its icon and banner, or the defaults', async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/posts');
  const href = await page.locator('a[href*="/user/"]').first().getAttribute('href');
  await page.goto(href!.split('/post/')[0]);
  for (const selector of ['img.creator-header__avatar', 'img.creator-header__banner']) {
    const image = page.locator(selector);
    await image.scrollIntoViewIfNeeded();
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBeGreaterThan(0);
  }
  const fallback = await request.get('/icons/fanbox/no-such-creator-here');
  expect(fallback.status()).toBe(200);
  expect(fallback.headers()['content-type']).toBe('image/webp');
});
