/**
 * The SubscribeStar importer end to end: a signed-in user submits the fake's www.subscribestar.com key
 * and then its adult-site key on /importer (the fake SubscribeStar, tests/fakes/serve.ts subscribestar,
 * is started by playwright.config.ts), the status pages reach Finished, and the creator and post pages
 * show the posts with their files, thumbnails, inline image and a playing video; a file fetched by its
 * hash has the fake's bytes.
 */
import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { bytesFor } from '../fakes/kit/media.ts';
import { FAKE_SUBSCRIBESTAR_ADULT_KEY, FAKE_SUBSCRIBESTAR_KEY } from '../fakes/subscribestar.ts';
import { signInBrowser } from './e2e-db.ts';
import { waitForImportStatus, rebuildStoredPages, allowImportSubmissions } from './import-status.ts';

async function submit(page: Page, key: string) {
  await page.goto('/importer');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('Paysite').selectOption('subscribestar');
  await page.getByRole('textbox', { name: 'Session key' }).fill(key);
  await page.getByRole('button', { name: 'Submit Key' }).click();
  await page.waitForURL(/\/importer\/status\/[0-9a-f]+$/);
  await waitForImportStatus(page, 'Finished');
  expect(await page.content()).not.toContain(key);
}

test('a signed-in user imports SubscribeStar (.com and the adult site) and sees the posts, files and video', async ({ page, context }) => {
  test.setTimeout(180_000);
  allowImportSubmissions();
  await signInBrowser(context);
  await page.clock.install();

  await submit(page, FAKE_SUBSCRIBESTAR_KEY);
  await expect(page.locator('[data-field="Subscriptions"]')).toHaveText('1');
  await expect(page.getByText('Creator Ada Studio: imported 16 posts. 1 post above your tier skipped.')).toBeVisible();
  await expect(page.getByText('Creator Ada Studio: post 1320007 ("Premium wallpapers") is above your tier; skipped.')).toBeVisible();
  await submit(page, FAKE_SUBSCRIBESTAR_ADULT_KEY);
  await expect(page.getByText('Logged in on the adult site (subscribestar.art).')).toBeVisible();
  await expect(page.getByText('Creator 夜桜アトリエ: imported 4 posts. 1 post above your tier skipped.')).toBeVisible();
  await page.clock.resume();
  rebuildStoredPages();

  // The creator page: name, icon, the 16 posts, thumbnails from the gallery images.
  await page.goto('/subscribestar/user/adastudio');
  await expect(page.locator('.creator-header__name')).toHaveText('Ada Studio');
  await expect(page.locator('.post-card')).toHaveCount(16);
  await expect(page.locator('.post-card').first()).toContainText('Weekly update 7');
  const thumb = page.locator('.post-card[data-id="1320002"] img.post-card__image');
  await thumb.scrollIntoViewIfNeeded();
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

  // The gallery post: its images as files, the video playing, a file by hash with the fake's bytes.
  await page.goto('/subscribestar/user/adastudio/post/1320002');
  await expect(page.locator('.post-header__title')).toHaveText('Sketch gallery');
  const files = page.getByRole('region', { name: 'Files' });
  await expect(files.getByRole('img', { name: 'sketch-two.png' })).toBeVisible();
  const video = page.getByRole('region', { name: 'Videos' }).locator('video');
  await expect(video).toHaveCount(1);
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0);
  const href = await files.locator('a[href^="/data/"]').first().getAttribute('href');
  const hash = /\/([0-9a-f]{64})\.jpg\?f=sketch%20one\.jpg$/.exec(href ?? '')?.[1];
  expect(hash, href ?? '').toBeDefined();
  const file = await page.request.get(href!);
  expect(file.status()).toBe(200);
  const bytes = await file.body();
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(hash);
  expect(bytes.equals((await bytesFor('sketch one.jpg')).bytes)).toBe(true);

  // The blog post's inline image, archived and shown from the archive.
  await page.goto('/subscribestar/user/adastudio/post/1320005');
  const inline = page.getByRole('region', { name: 'Content' }).locator('img');
  await expect(inline).toHaveAttribute('src', /^\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.jpg$/);
  await expect.poll(() => inline.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  // The link post: the real address (not SubscribeStar's /away wrapper) and an embed preview.
  await page.goto('/subscribestar/user/adastudio/post/1320006');
  await expect(page.getByRole('region', { name: 'Content' }).getByRole('link', { name: 'YouTube' })).toHaveAttribute(
    'href',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  );
  await expect(page.getByRole('region', { name: 'Embeds' })).toContainText('https://www.youtube.com/watch?v=dQw4w9WgXcQ');

  // The adult site's creator and its gallery post (files behind /uploads?payload= hops).
  await page.goto('/subscribestar/user/yozakura');
  await expect(page.locator('.creator-header__name')).toHaveText('夜桜アトリエ');
  await expect(page.locator('.post-card')).toHaveCount(4);
  await page.goto('/subscribestar/user/yozakura/post/2410001');
  await expect(page.getByRole('region', { name: 'Files' }).getByRole('img', { name: '夜桜-1.jpg' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Videos' }).locator('video')).toHaveCount(1);
});
