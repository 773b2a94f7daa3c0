/**
 * The CandFans importer end to end: a signed-in user submits the fake CandFans' session cookie
 * (tests/fakes/candfans.ts, started by playwright.config.ts on E2E_PORT+1090..1092) on /importer; the
 * site's own worker does the XSRF handshake and imports, the status page reaches Finished, the creator
 * page lists the posts with thumbnails, a gallery post shows its images (one downloaded by hash with the
 * fake's bytes), the HLS video post plays its MP4, and the Tags tab lists the hashtags.
 */
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { FAKE_CANDFANS_KEY, demoDataset, filePaths } from '../fakes/candfans.ts';
import { image } from '../fakes/kit/media.ts';
import { signInBrowser } from './e2e-db.ts';
import { expectImageShown } from './image-shown.ts';
import { waitForImportStatus, rebuildStoredPages, allowImportSubmissions } from './import-status.ts';

const [sakura] = demoDataset().creators;
const creatorPath = `/candfans/user/${sakura.id}`;
const find = (title: string) => sakura.posts.find((p) => p.title === title)!;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

test('a signed-in user imports from CandFans and sees posts, images, the video and tags', async ({ page, context }) => {
  test.setTimeout(180_000);
  allowImportSubmissions();
  await signInBrowser(context);

  await page.clock.install();
  await page.goto('/importer');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('Paysite').selectOption('candfans');
  await page.getByRole('textbox', { name: 'Session key' }).fill(FAKE_CANDFANS_KEY);
  await page.getByRole('button', { name: 'Submit Key' }).click();
  await page.waitForURL(/\/importer\/status\/[0-9a-f]+$/);

  await waitForImportStatus(page, 'Finished', 120_000);
  await expect(page.getByText('Found 11 creators (1 with a joined plan, 11 followed).', { exact: true })).toBeVisible();
  await expect(page.getByText('Creator さくら Sakura: imported 17 posts.', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Creator さくら Sakura: skipped 1 post this account cannot see (sold separately).', { exact: true }),
  ).toBeVisible();
  expect(await page.content()).not.toContain(FAKE_CANDFANS_KEY);

  // The creator page: name, the 17 posts the key can see, thumbnails from the stored files.
  rebuildStoredPages();
  await page.goto(creatorPath);
  await expect(page.locator('.creator-header__name')).toHaveText('さくら Sakura');
  await expect(page.locator('.post-card')).toHaveCount(17);
  const gallery = find('撮影オフショット');
  const card = page.locator(`.post-card[data-id="${gallery.id}"]`);
  await expect(card).toContainText('撮影オフショット');
  const thumb = card.locator('img');
  await expectImageShown(thumb);
  await expect(page.locator(`.post-card[data-id="${find('プレミアム限定').id}"]`)).toHaveCount(0);

  // A gallery post: its thumbnail and three images, an image downloaded by hash with the fake's bytes.
  await page.goto(`${creatorPath}/post/${gallery.id}`);
  const files = page.getByRole('region', { name: 'Files' });
  await expect(files.getByRole('img')).toHaveCount(4);
  const first = filePaths(sakura, gallery).files[0];
  const name = first.split('/').pop()!;
  const href = await files.locator(`a[href$="?f=${name}"]`).first().getAttribute('href');
  expect(href).toMatch(/^\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.jpg\?f=/);
  const download = await page.request.get(href!);
  expect(download.status()).toBe(200);
  expect(sha(await download.body())).toBe(sha(await image(first, { format: 'jpeg', width: 64, height: 48, inset: true })));

  // The HLS video post: stored as one MP4, in the player, and it plays where Chromium can.
  await page.goto(`${creatorPath}/post/${find('メイキング動画').id}`);
  const video = page.locator('.post-videos video');
  await expect(video).toHaveCount(1);
  const clip = await page.request.get((await video.getAttribute('src'))!);
  expect([clip.status(), clip.headers()['content-type']]).toEqual([200, 'video/mp4']);
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
  for (const tag of ['撮影', 'オフショット', 'メイキング'])
    await expect(page.getByRole('link', { name: tag, exact: false }).first()).toBeVisible();
});
