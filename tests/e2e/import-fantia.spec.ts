/**
 * The Fantia importer end to end: a signed-in user submits the fake Fantia's `_session_id` (the fake is
 * started by playwright.config.ts on E2E_PORT+1010, its file hosts on +1011), the site's own worker
 * imports, the status page reaches Finished, and the fanclub's page and posts show the thumbnails, the
 * gallery, the files, the blog's inline image and the video; a file fetched by its hash is the fake's.
 */
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { bytesFor } from '../fakes/kit/media.ts';
import { FAKE_FANTIA_KEY } from '../fakes/fantia.ts';
import { signInBrowser } from './e2e-db.ts';
import { waitForImportStatus, rebuildStoredPages, allowImportSubmissions } from './import-status.ts';

const FANCLUB = '130541';

test('a signed-in user imports from Fantia and sees the fanclub, its posts, files and inline images', async ({ page, context }) => {
  test.setTimeout(180_000);
  allowImportSubmissions();
  await signInBrowser(context);

  await page.clock.install();
  await page.goto('/importer');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('Paysite').selectOption('fantia');
  await page.getByRole('textbox', { name: 'Session key' }).fill(FAKE_FANTIA_KEY);
  await page.getByRole('button', { name: 'Submit Key' }).click();
  await page.waitForURL(/\/importer\/status\/[0-9a-f]+$/);
  await waitForImportStatus(page, 'Finished', 120_000);
  await expect(page.locator('[data-field="Subscriptions"]')).toHaveText('2');
  await expect(page.getByText('Found 2 fanclubs with a paid plan.', { exact: true })).toBeVisible();
  await expect(page.getByText('Fanclub ゆめかわ工房: imported 22 posts.', { exact: true })).toBeVisible();
  expect(await page.content()).not.toContain(FAKE_FANTIA_KEY);

  rebuildStoredPages();
  await page.goto(`/fantia/user/${FANCLUB}`);
  await expect(page.locator('.creator-header__name')).toHaveText('ゆめかわ工房');
  await expect(page.locator('.post-card')).toHaveCount(22);
  // Thumbnails: the post's thumb, or its first gallery photo.
  const card = page.locator('.post-card[data-id="2100002"]');
  await expect(card.locator('img.post-card__image')).toHaveAttribute(
    'src',
    /^\/thumbnail\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.jpg$/,
  );
  expect(
    await card.locator('img.post-card__image').evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth)),
  ).toBeGreaterThan(0);

  // The gallery post: the thumbnail and the three photos, stored by hash.
  await card.locator('a').first().click();
  await expect(page.locator('.post-header__title')).toHaveText('Gallery: spring set 🌸');
  const files = page.getByRole('region', { name: 'Files' });
  await expect(files.getByRole('img', { name: '611669be-hanami.png' })).toBeVisible();
  const href = await files.locator('a[href*="?f=611669be-hanami.png"]').first().getAttribute('href');
  expect(href).toMatch(/^\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png\?f=611669be-hanami\.png$/);
  const download = await page.request.get(href!);
  expect(download.status()).toBe(200);
  const body = await download.body();
  expect(body.equals((await bytesFor('611669be-hanami.png')).bytes)).toBe(true);
  expect(href).toContain(createHash('sha256').update(body).digest('hex'));

  // The blog post: its inline image is the archive's copy and loads.
  await page.goto(`/fantia/user/${FANCLUB}/post/2100006`);
  const inline = page.locator('.post-content img');
  await expect(inline).toHaveAttribute('src', /^\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png$/);
  expect(await inline.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).toBeGreaterThan(0);
  await expect(page.locator('.post-content a', { hasText: 'pixiv' })).toHaveAttribute('href', 'https://www.pixiv.net/users/1');

  // The zip by its real name, and the video, which plays where this Chromium has H.264.
  await page.goto(`/fantia/user/${FANCLUB}/post/2100003`);
  const zip = page.getByRole('link', { name: '素材パック v2.zip' });
  await expect(zip).toHaveAttribute('href', /^\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.zip\?f=/);
  const zipBytes = await (await page.request.get((await zip.getAttribute('href'))!)).body();
  expect(zipBytes.equals((await bytesFor('素材パック v2.zip')).bytes)).toBe(true);
  await page.goto(`/fantia/user/${FANCLUB}/post/2100004`);
  const video = page.locator('.post-videos video');
  await expect(video).toHaveCount(1);
  await expect(video).toHaveAttribute('src', /\.mp4$/);
  const played = await video.evaluate(async (element: HTMLVideoElement) => {
    if (!element.canPlayType('video/mp4; codecs="avc1.42E01E"')) return 'no h264';
    element.muted = true;
    await element.play();
    await new Promise((resolve) => setTimeout(resolve, 500));
    return element.currentTime > 0 ? 'played' : 'stuck';
  });
  expect(['played', 'no h264']).toContain(played);

  // The partly locked post says what is missing.
  await page.goto(`/fantia/user/${FANCLUB}/post/2100009`);
  await expect(page.locator('.post-incomplete')).toHaveText('Not archived: 1 content for a higher plan (高解像度プラン, 1500円).');
});
