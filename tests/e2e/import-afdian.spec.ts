/**
 * The Afdian importer end to end: a signed-in user submits the fake Afdian's auth_token on /importer
 * (the fake is started by playwright.config.ts, pages of 5 posts, its CDN one port up), the server's own
 * worker imports, the status page reaches Finished, and the creator and post pages show the posts with
 * their pictures, inline image, playable video and attachment; a file fetched by its hash path is the
 * fake's bytes.
 */
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { e2eFakePort } from '../../playwright.config.ts';
import { FAKE_AFDIAN_KEY, demoDataset } from '../fakes/afdian-data.ts';
import { signInBrowser } from './e2e-db.ts';
import { expectImageShown } from './image-shown.ts';
import { waitForImportStatus, rebuildStoredPages, allowImportSubmissions } from './import-status.ts';

const fakeUrl = `http://127.0.0.1:${e2eFakePort('afdian')}`;
const hoshino = demoDataset().creators[0];
const postId = (title: string) => hoshino.posts.find((p) => p.title === title)!.postId;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** What the fake serves for a post now, as the key sees it (fresh signed links). */
async function fakeDetail(title: string) {
  const res = await fetch(`${fakeUrl}/api/post/get-detail?post_id=${postId(title)}&album_id=`, {
    headers: { cookie: `auth_token=${FAKE_AFDIAN_KEY}` },
  });
  return ((await res.json()) as { data: { post: Record<string, any> } }).data.post;
}

test('a signed-in user imports from Afdian and sees the creator, posts, pictures, video and files', async ({ page, context }) => {
  test.setTimeout(180_000);
  allowImportSubmissions();
  await signInBrowser(context);

  await page.clock.install();
  await page.goto('/importer');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('Paysite').selectOption('afdian');
  await page.getByRole('textbox', { name: 'Session key' }).fill(FAKE_AFDIAN_KEY);
  await page.getByRole('button', { name: 'Submit Key' }).click();
  await page.waitForURL(/\/importer\/status\/[0-9a-f]+$/);

  await waitForImportStatus(page, 'Finished', 120_000);
  await expect(page.locator('[data-field="Subscriptions"]')).toHaveText('2');
  await expect(page.getByText('Creator 星野工作室: imported 12 posts. 1 post your sponsorship does not unlock skipped.')).toBeVisible();
  await expect(page.getByText('Skipped "高级方案专属": your sponsorship does not unlock it.')).toBeVisible();
  expect(await page.content()).not.toContain(FAKE_AFDIAN_KEY);

  rebuildStoredPages();
  await page.goto(`/afdian/user/${hoshino.userId}`);
  await expect(page.locator('.creator-header__name')).toHaveText('星野工作室');
  await expect(page.locator('.post-card')).toHaveCount(12);
  // The gallery's card shows its first picture as the thumbnail.
  const card = page.locator(`.post-card[data-id="${postId('四月草图合集')}"]`);
  await expectImageShown(card.locator('img'));

  // The gallery post: three pictures, stored by hash, the fake's bytes.
  await card.locator('a').first().click();
  await expect(page.locator('.post-header__title')).toHaveText('四月草图合集');
  const files = page.getByRole('region', { name: 'Files' });
  await expect(files.locator('img')).toHaveCount(3);
  const href = await files.locator('a[href^="/data/"]').first().getAttribute('href');
  const hash = /\/([0-9a-f]{64})\.jpeg/.exec(href!)![1];
  const stored = await page.request.get(href!);
  expect(stored.status()).toBe(200);
  expect(sha256(await stored.body())).toBe(hash);
  const original = Buffer.from(await (await fetch((await fakeDetail('四月草图合集')).pics[0])).arrayBuffer());
  expect(sha256(original)).toBe(hash);

  // The article: its inline image comes from the archive and loads.
  await page.goto(`/afdian/user/${hoshino.userId}/post/${postId('上色教程：云')}`);
  const inline = page.locator('.post-content img');
  await expect(inline).toHaveAttribute('src', /^\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.jpeg$/);
  await expect.poll(() => inline.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(page.locator('.post-content a[href="https://www.bilibili.com/video/BV1xx411c7mD"]')).toBeVisible();

  // The video post: its thumbnail as the file, and the video plays.
  await page.goto(`/afdian/user/${hoshino.userId}/post/${postId('绘画过程录屏')}`);
  const video = page.locator('video').first();
  await expect(video).toBeVisible();
  await video.evaluate(async (v: HTMLVideoElement) => {
    v.muted = true;
    await v.play();
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0);

  // The attachment: downloadable under its real name, the fake's zip.
  await page.goto(`/afdian/user/${hoshino.userId}/post/${postId('设定资料下载')}`);
  const zipLink = page.locator('a[href*=".zip"]', { hasText: '角色设定资料.zip' }).first();
  await expect(zipLink).toBeVisible();
  const zip = await page.request.get((await zipLink.getAttribute('href'))!);
  expect(zip.status()).toBe(200);
  const fakeZip = Buffer.from(await (await fetch((await fakeDetail('设定资料下载')).attachment[0].url)).arrayBuffer());
  expect(sha256(await zip.body())).toBe(sha256(fakeZip));
});
