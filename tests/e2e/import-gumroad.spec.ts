/**
 * The Gumroad importer end to end: a signed-in user submits the fake Gumroad's session key
 * (tests/fakes/gumroad.ts, started by playwright.config.ts on E2E_PORT+1030, its file hosts on +1031),
 * the site's own worker imports the library, the status page reaches Finished, and the creator and
 * post pages show the products with their covers, files, inline images and video; a file fetched by
 * its hash is the fake's bytes.
 */
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { FAKE_GUMROAD_KEY } from '../fakes/gumroad.ts';
import { bytesFor } from '../fakes/kit/media.ts';
import { signInBrowser } from './e2e-db.ts';
import { waitForImportStatus, rebuildStoredPages, allowImportSubmissions } from './import-status.ts';

const ALICE = '4710001234567';

test('a signed-in user imports a Gumroad library and sees its products, files, images and video', async ({ page, context }) => {
  test.setTimeout(180_000);
  allowImportSubmissions();
  await signInBrowser(context);

  await page.clock.install();
  await page.goto('/importer');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('Paysite').selectOption('gumroad');
  // The value as browsers show it: URL-encoded.
  await page.getByRole('textbox', { name: 'Session key' }).fill(encodeURIComponent(FAKE_GUMROAD_KEY));
  await page.getByRole('button', { name: 'Submit Key' }).click();
  await page.waitForURL(/\/importer\/status\/[0-9a-f]+$/);

  await waitForImportStatus(page, 'Finished', 120_000);
  await expect(page.locator('[data-field="Subscriptions"]')).toHaveText('2');
  await expect(page.getByText('Creator Alice Brushes: imported 6 products.', { exact: true })).toBeVisible();
  await expect(page.getByText('Skipped Sample pack 12: access to it was revoked.', { exact: true })).toBeVisible();
  const html = await page.content();
  expect(html).not.toContain(FAKE_GUMROAD_KEY);
  expect(html).not.toContain(encodeURIComponent(FAKE_GUMROAD_KEY));

  rebuildStoredPages();
  await page.goto(`/gumroad/user/${ALICE}`);
  await expect(page.locator('.creator-header__name')).toHaveText('Alice Brushes');
  await expect(page.locator('.post-card')).toHaveCount(6);
  // The card of the brush pack has its cover as thumbnail.
  await expect(page.locator('.post-card[data-id="brushpk"] img')).toBeVisible();

  await page.goto(`/gumroad/user/${ALICE}/post/brushpk`);
  await expect(page.locator('.post-header__title')).toHaveText('Brush pack');
  // The inline image of the content page, from the archive, loaded.
  const inline = page.getByRole('region', { name: 'Content' }).locator('img').first();
  await expect(inline).toHaveAttribute('src', /^\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png$/);
  await inline.scrollIntoViewIfNeeded();
  await expect.poll(() => inline.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const files = page.getByRole('region', { name: 'Files' });
  await expect(files.getByRole('img', { name: 'cover-2.png' })).toBeVisible();
  const zip = page.locator('a[href*="?f=Brushes%20v2.zip"]').first();
  const href = await zip.getAttribute('href');
  expect(href).toMatch(/^\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.zip\?f=Brushes%20v2\.zip$/);

  // The download by hash is the fake's bytes.
  const expected = (await bytesFor('Brushes v2.zip')).bytes;
  const hash = createHash('sha256').update(expected).digest('hex');
  expect(href).toContain(hash);
  const file = await page.request.get(href!);
  expect(file.status()).toBe(200);
  expect(Buffer.from(await file.body()).equals(expected)).toBe(true);

  // The course's videos: stored MP4s in players (played where this Chromium has H.264).
  await page.goto(`/gumroad/user/${ALICE}/post/tlcourse`);
  const videos = page.locator('video');
  await expect(videos).toHaveCount(2);
  const played = await videos.first().evaluate(async (element: HTMLVideoElement) => {
    if (!element.canPlayType('video/mp4; codecs="avc1.42E01E"')) return 'no h264';
    element.muted = true;
    await element.play();
    await new Promise<void>((resolve) => {
      const check = () => (element.currentTime > 0.3 ? resolve() : requestAnimationFrame(check));
      check();
    });
    element.pause();
    return 'played';
  });
  expect(['played', 'no h264']).toContain(played);
});
