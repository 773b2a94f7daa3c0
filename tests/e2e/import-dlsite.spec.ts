/**
 * The DLsite importer end to end: a signed-in user submits the fake DLsite's key (tests/fakes/serve.ts
 * dlsite, started by playwright.config.ts) on /importer, the site's own worker imports the purchased
 * works, the status page reaches Finished, and the circle and work pages show the works with their
 * covers, inline sample images and archives (fetched by hash with the fake's bytes).
 */
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { demoDataset, FAKE_DLSITE_KEY } from '../fakes/dlsite-data.ts';
import { archiveBytes } from '../fakes/dlsite-render.ts';
import { signInBrowser } from './e2e-db.ts';
import { expectImageShown } from './image-shown.ts';
import { waitForImportStatus, rebuildStoredPages, allowImportSubmissions } from './import-status.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

test('a signed-in user imports their DLsite library and sees the works of each circle', async ({ page, context }) => {
  test.setTimeout(180_000);
  allowImportSubmissions();
  await signInBrowser(context);

  await page.clock.install();
  await page.goto('/importer');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('Paysite').selectOption('dlsite');
  await page.getByRole('textbox', { name: 'Session key' }).fill(FAKE_DLSITE_KEY);
  await page.getByRole('button', { name: 'Submit Key' }).click();
  await page.waitForURL(/\/importer\/status\/[0-9a-f]+$/);

  await waitForImportStatus(page, 'Finished', 120_000);
  await expect(page.locator('[data-field="Subscriptions"]')).toHaveText('3');
  await expect(page.getByText('Found 10 purchased works by 3 circles.', { exact: true })).toBeVisible();
  await expect(page.getByText('Circle ささやき工房: imported 4 works.', { exact: true })).toBeVisible();
  expect(await page.content()).not.toContain(FAKE_DLSITE_KEY);

  rebuildStoredPages();
  await page.goto('/dlsite/user/RG01000001');
  await expect(page.locator('.creator-header__name')).toHaveText('ささやき工房');
  await expect(page.locator('.post-card')).toHaveCount(4);
  // Each card shows its cover as the thumbnail.
  await expect(page.locator('.post-card[data-id="RJ01000001"] img')).toBeVisible();
  await page.locator('.post-card[data-id="RJ01000001"] a').first().click();
  await expect(page.locator('.post-header__title')).toHaveText('夏の終わりのASMR ～耳かきと子守唄～');

  // The description with its sample image, archived and shown from /data.
  const inline = page.locator('.post-content__body img');
  await expect(inline).toHaveAttribute('src', /^\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.jpg$/);
  await expectImageShown(inline);
  // The cover as the post's file.
  const files = page.getByRole('region', { name: 'Files' });
  await expect(files.getByRole('img', { name: 'RJ01000001_img_main.jpg' })).toBeVisible();

  // The archive by its real name, with the fake's bytes.
  const download = page.locator('.post-downloads a', { hasText: 'RJ01000001.zip' });
  await expect(download).toBeVisible();
  await expect(page.locator('.post-downloads__browse')).toBeVisible();
  const href = await download.getAttribute('href');
  expect(href).toMatch(/\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.zip/);
  const answer = await page.request.get(href!);
  expect(answer.status()).toBe(200);
  const expected = (await archiveBytes(demoDataset().works.find((w) => w.workno === 'RJ01000001')!)).get('RJ01000001.zip')!;
  expect(sha256(Buffer.from(await answer.body()))).toBe(sha256(expected));
  expect(href).toContain(sha256(expected));

  // A browser-only work: the pages DLsite Play streams, as images.
  await page.goto('/dlsite/user/RG01000002/post/RJ01000004');
  await expect(page.getByRole('region', { name: 'Files' }).getByRole('img', { name: '002.jpg' })).toBeVisible();
});
