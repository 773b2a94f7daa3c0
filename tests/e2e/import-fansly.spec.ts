/**
 * The Fansly importer end to end: a signed-in user submits the fake Fansly's token (tests/fakes/fansly.ts,
 * started by playwright.config.ts on E2E_PORT+1070/1071) with DMs on /importer; the site's own worker
 * signs its requests as Fansly's web app does, the status page reaches Finished, the creator page lists
 * the posts with thumbnails, a gallery post shows its images, a video post plays its video, the Tags tab
 * lists the hashtags, files download by hash with the fake's bytes, and the creator's DMs (with their
 * images inline) wait in Review DMs until approved.
 */
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { FAKE_FANSLY_TOKEN, demoDataset } from '../fakes/fansly.ts';
import { image, media } from '../fakes/kit/media.ts';
import { signInBrowser } from './e2e-db.ts';
import { expectImageShown } from './image-shown.ts';
import { waitForImportStatus, rebuildStoredPages, allowImportSubmissions } from './import-status.ts';

const data = demoDataset();
const [mika] = data.creators;
const creatorPath = `/fansly/user/${mika.id}`;
const find = (start: string) => mika.posts.find((p) => p.content.startsWith(start))!;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

test('a signed-in user imports from Fansly, sees posts, videos and tags, and approves the DMs', async ({ page, context }) => {
  test.setTimeout(180_000);
  allowImportSubmissions(["DELETE FROM dms WHERE service = 'fansly'"]);
  await signInBrowser(context);

  await page.clock.install();
  await page.goto('/importer');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('Paysite').selectOption('fansly');
  await page.getByRole('textbox', { name: 'Session key' }).fill(FAKE_FANSLY_TOKEN);
  await page.getByLabel('Include DMs').check();
  await page.getByRole('button', { name: 'Submit Key' }).click();
  await page.waitForURL(/\/importer\/status\/[0-9a-f]+$/);

  await waitForImportStatus(page, 'Finished', 120_000);
  await expect(page.locator('[data-field="Subscriptions"]')).toHaveText('2');
  await expect(page.getByText('Found 2 creators (1 subscription, 2 followed accounts).', { exact: true })).toBeVisible();
  await expect(page.getByText('Creator Mika ミカ 🌸: imported 15 posts.', { exact: true })).toBeVisible();
  await expect(page.getByText('Done importing DMs', { exact: true })).toBeVisible();
  expect(await page.content()).not.toContain(FAKE_FANSLY_TOKEN);

  // The creator page: name, the 15 posts Mika's token can see, thumbnails from the stored files.
  rebuildStoredPages();
  await page.goto(creatorPath);
  await expect(page.locator('.creator-header__name')).toHaveText('Mika ミカ 🌸');
  await expect(page.locator('.post-card')).toHaveCount(15);
  const galleryCard = page.locator(`.post-card[data-id="${find('Three sketches').id}"]`);
  await expect(galleryCard).toContainText('Three sketches from this week');
  const thumb = galleryCard.locator('img');
  await expectImageShown(thumb);

  // A gallery post: its three images, the first downloaded by hash with the fake CDN's bytes.
  const gallery = find('Three sketches');
  await page.goto(`${creatorPath}/post/${gallery.id}`);
  const files = page.getByRole('region', { name: 'Files' });
  await expect(files.getByRole('img')).toHaveCount(3);
  const href = await files.locator('a[href^="/data/"]').first().getAttribute('href');
  expect(href).toMatch(new RegExp(`^/data/[0-9a-f]{2}/[0-9a-f]{2}/[0-9a-f]{64}\\.jpeg\\?f=${gallery.media[0].id}\\.jpeg$`));
  const download = await page.request.get(href!);
  expect(download.status()).toBe(200);
  const expected = await image(`/${mika.id}/${gallery.media[0].id}.jpeg`, { format: 'jpeg', width: 64, height: 48, inset: true });
  expect(sha(await download.body())).toBe(sha(expected));

  // A video post: the video (with its poster as the post's file) is in the player and plays where Chromium can.
  const timelapse = find('Timelapse');
  await page.goto(`${creatorPath}/post/${timelapse.id}`);
  const video = page.locator('.post-videos video');
  await expect(video).toHaveCount(1);
  const src = await video.getAttribute('src');
  const clip = await page.request.get(src!);
  expect([clip.status(), clip.headers()['content-type']]).toEqual([200, 'video/mp4']);
  expect(sha(await clip.body())).toBe(sha(await media.mp4()));
  const playable = await video.evaluate((element: HTMLVideoElement) => element.canPlayType('video/mp4; codecs="avc1.42E01E"') !== '');
  if (playable) {
    const played = await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await element.play();
      await new Promise<void>((resolve) => {
        const check = () => (element.currentTime > 0.3 ? resolve() : requestAnimationFrame(check));
        check();
      });
      element.pause();
      return element.currentTime;
    });
    expect(played).toBeGreaterThan(0.3);
  }

  // The Tags tab lists the hashtags.
  await page.goto(`${creatorPath}/tags`);
  for (const tag of ['illustration', 'sketch', 'daily', '日本語'])
    await expect(page.getByRole('link', { name: tag, exact: false }).first()).toBeVisible();

  // The DMs wait for review, Mika's images shown from the archive, then are approved.
  await page.goto('/account/review_dms');
  await expect(page.locator('li.dm')).toHaveCount(23);
  const welcome = page.locator('li.dm', { hasText: 'Here is a thank-you sketch' });
  const inline = welcome.locator('img');
  await expect(inline).toHaveAttribute('src', /^\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.jpeg$/);
  await inline.scrollIntoViewIfNeeded();
  await expect.poll(() => inline.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(page.locator('li.dm', { hasText: 'Exclusive clip' })).toHaveCount(0);
  for (const box of await page.getByLabel('Approve').all()) await box.check();
  await page.getByRole('button', { name: 'Submit approved DMs.' }).click();
  await expect(page.getByText('There are no DMs waiting for approval.')).toBeVisible();
  rebuildStoredPages();
  await page.goto(`${creatorPath}/dms`);
  await expect(page.locator('li.dm', { hasText: 'ありがとう' })).toBeVisible();
});
