/**
 * The Boosty importer end to end: a signed-in user submits the fake Boosty's auth cookie on /importer
 * (the fake is started by playwright.config.ts), the site's own worker imports it, the status page
 * reaches Finished, and the creator and post pages show the posts with their files, thumbnails, inline
 * images and the video; a file downloaded by hash is the fake's bytes.
 */
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { e2eFakePort } from '../../playwright.config.ts';
import { FAKE_BOOSTY_KEY, demoDataset } from '../fakes/boosty.ts';
import { signInBrowser } from './e2e-db.ts';
import { waitForImportStatus, rebuildStoredPages, allowImportSubmissions } from './import-status.ts';

const data = demoDataset();
const postId = (title: string) => data.blogs.flatMap((b) => b.posts).find((p) => p.title === title)!.id;
const CREATOR = '/boosty/user/mariya-art';
const CDN = `http://127.0.0.1:${e2eFakePort('boosty') + 1}`;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

test('a signed-in user imports from Boosty and sees the posts, files, images and video', async ({ page, context, request }) => {
  test.setTimeout(180_000);
  allowImportSubmissions();
  await signInBrowser(context);

  await page.clock.install();
  await page.goto('/importer');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('Paysite').selectOption('boosty');
  await page.getByRole('textbox', { name: 'Session key' }).fill(FAKE_BOOSTY_KEY);
  await page.getByRole('button', { name: 'Submit Key' }).click();
  await page.waitForURL(/\/importer\/status\/[0-9a-f]+$/);

  await waitForImportStatus(page, 'Finished', 120_000);
  await expect(page.locator('[data-field="Subscriptions"]')).toHaveText('2');
  await expect(page.getByText('Creator Мария Иванова 🎨: imported 14 posts.', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Creator Мария Иванова 🎨: skipped 1 post your subscription level cannot see.', { exact: true }),
  ).toBeVisible();
  const html = await page.content();
  for (const secret of [FAKE_BOOSTY_KEY, decodeURIComponent(FAKE_BOOSTY_KEY)]) expect(html).not.toContain(secret);

  // The creator page lists the 14 posts the key can see, with thumbnails.
  rebuildStoredPages();
  await page.goto(CREATOR);
  await expect(page.locator('.creator-header__name')).toHaveText('Мария Иванова 🎨');
  await expect(page.locator('.post-card')).toHaveCount(14);
  await expect(page.locator(`.post-card[data-id="${postId('Скетчи недели')}"] img`)).toBeVisible();
  await expect(page.locator(`.post-card[data-id="${postId('Только для меценатов')}"]`)).toHaveCount(0);

  // A gallery: the post file and the other images, stored by hash; a downloaded file is the fake's bytes.
  await page.goto(`${CREATOR}/post/${postId('Скетчи недели')}`);
  await expect(page.locator('.post-header__title')).toHaveText('Скетчи недели');
  const files = page.getByRole('region', { name: 'Files' });
  const href = await files.locator('a[href^="/data/"]').first().getAttribute('href');
  expect(href).toMatch(/^\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png\?f=[0-9a-f-]{36}\.png$/);
  const blockId = /\?f=([0-9a-f-]{36})\.png$/.exec(href!)![1];
  const stored = Buffer.from(await (await request.get(href!)).body());
  const original = Buffer.from(await (await request.get(`${CDN}/image/${blockId}`)).body());
  expect(sha256(stored)).toBe(sha256(original));
  expect(href).toContain(sha256(original));

  // A blog post: the inline image comes from the archive and has loaded.
  await page.goto(`${CREATOR}/post/${postId('Как я рисую облака ☁️')}`);
  const inline = page.locator('.post-content img').first();
  await expect(inline).toHaveAttribute('src', /\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png$/);
  await expect.poll(() => inline.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(32);

  // Files with their real names.
  await page.goto(`${CREATOR}/post/${postId('Исходники PSD')}`);
  await expect(page.getByRole('link', { name: 'Исходники_скетчей.zip' }).first()).toBeVisible();

  // The OK video, stored as an MP4 the page plays (where this Chromium has H.264).
  await page.goto(`${CREATOR}/post/${postId('Таймлапс: закат')}`);
  const video = page.locator('.post-videos video').first();
  await expect(video).toHaveAttribute('src', /\.mp4$/);
  const src = (await video.getAttribute('src'))!;
  const mp4 = Buffer.from(await (await request.get(src)).body());
  expect(mp4.subarray(4, 8).toString('latin1')).toBe('ftyp');
  const state = await video.evaluate(async (element: HTMLVideoElement) => {
    if (element.canPlayType('video/mp4; codecs="avc1.42E01E"') === '') return { played: false, error: null as number | null };
    element.muted = true;
    await element.play();
    await new Promise<void>((resolve) => {
      const check = () => (element.currentTime > 0.3 ? resolve() : requestAnimationFrame(check));
      check();
    });
    element.pause();
    return { played: true, error: element.error?.code ?? null };
  });
  expect(state.error).toBeNull();
});
