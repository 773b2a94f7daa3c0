/**
 * The OnlyFans importer end to end: a signed-in user submits the fake OnlyFans' four key values
 * (tests/fakes/serve.ts onlyfans, started by playwright.config.ts with the rules the server signs with)
 * on /importer; the site's own worker imports, the status page reaches Finished, and the creator page
 * shows the posts with thumbnails and tags, a post its photo, another its video (which plays where the
 * browser has H.264), and a file fetched by its hash is the fake's bytes.
 */
import { expect, test } from '@playwright/test';
import { media } from '../fakes/kit/media.ts';
import { FAKE_ONLYFANS_CREDENTIAL, demoDataset } from '../fakes/onlyfans.ts';
import { signInBrowser } from './e2e-db.ts';
import { expectImageShown } from './image-shown.ts';
import { waitForImportStatus, rebuildStoredPages, allowImportSubmissions } from './import-status.ts';

const creatorPath = '/onlyfans/user/luna_moon';
const luna = demoDataset().creators[0];
const postOf = (start: string) => luna.posts.find((p) => p.rawText.startsWith(start))!;

test('a signed-in user imports from OnlyFans and sees the posts with photos, video and tags', async ({ page, context, request }) => {
  test.setTimeout(180_000);
  allowImportSubmissions();
  await signInBrowser(context);
  const c = FAKE_ONLYFANS_CREDENTIAL;

  await page.clock.install();
  await page.goto('/importer');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('Paysite').selectOption('onlyfans');
  await page.getByRole('textbox', { name: 'Session key (sess cookie)' }).fill(c.session_key);
  await page.getByLabel('User ID (auth_id cookie)').fill(c.auth_id);
  await page.getByLabel('BC Token (x-bc)').fill(c['x-bc']);
  await page.getByLabel('User-Agent').fill(c.user_agent);
  await page.getByRole('button', { name: 'Submit Key' }).click();
  await page.waitForURL(/\/importer\/status\/[0-9a-f]+$/);

  await waitForImportStatus(page, 'Finished', 90_000);
  await expect(page.locator('[data-field="Subscriptions"]')).toHaveText('1');
  await expect(page.getByText('Creator Luna 月: imported 20 posts.', { exact: true })).toBeVisible();
  await expect(page.getByText('Finished.', { exact: true })).toBeVisible();
  const status = await page.content();
  for (const value of Object.values(c)) expect(status).not.toContain(value);

  rebuildStoredPages();
  await page.goto(creatorPath);
  await expect(page.locator('.creator-header__name')).toHaveText('Luna 月');
  await expect(page.locator('.post-card')).toHaveCount(20);
  const golden = postOf('Golden hour');
  const card = page.locator(`.post-card[data-id="${golden.id}"]`);
  await expectImageShown(card.locator('img.post-card__image'));

  // The photo post: its photo among the files.
  await card.locator('a').first().click();
  await expect(page.locator('.post-header__title')).toHaveText('Golden hour #sunset #GoldenHour');
  const files = page.getByRole('region', { name: 'Files' });
  await expect(files.locator('img').first()).toBeVisible();

  // The video post: a <video> of the stored MP4, which is the fake's bytes when fetched by its hash.
  await page.goto(`${creatorPath}/post/${postOf('Behind the scenes').id}`);
  const video = page.locator('.post-videos video');
  await expect(video).toHaveCount(1);
  const src = (await video.getAttribute('src'))!;
  expect(src).toMatch(/^\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.mp4$/);
  const bytes = await request.get(src);
  expect(bytes.status()).toBe(200);
  expect(Buffer.from(await bytes.body()).equals(media.mp4())).toBe(true);
  const canPlay = await video.evaluate((el: HTMLVideoElement) => el.canPlayType('video/mp4; codecs="avc1.42E01E"') !== '');
  if (canPlay) {
    const state = await video.evaluate(async (el: HTMLVideoElement) => {
      el.muted = true;
      await el.play();
      await new Promise<void>((resolve) => {
        const check = () => (el.currentTime > 0.3 ? resolve() : requestAnimationFrame(check));
        check();
      });
      el.pause();
      return { error: el.error?.code ?? null, width: el.videoWidth };
    });
    expect(state).toEqual({ error: null, width: 320 });
  }

  // The hashtags are the creator's tags.
  await page.goto(`${creatorPath}/tags`);
  await expect(page.getByRole('link', { name: /sunset/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /beach/ })).toBeVisible();
});
