/**
 * The importer end to end, as a user does it: a signed-in user submits a Patreon session key (with DMs
 * and the key kept), the site's own worker imports from the fake Patreon (tests/fakes/patreon-server.ts,
 * started by playwright.config.ts), the status page moves to Finished, the creator, posts, files and
 * comments are on the site, the user approves the DMs, which then show on the creator's DMs tab, and
 * revokes the key.
 */
import { expect, test } from '@playwright/test';
import { FAKE_CREATOR_ID, FAKE_CREATOR_NAME, FAKE_PATREON_KEY } from '../fakes/patreon.ts';
import { e2eRow, signInBrowser } from './e2e-db.ts';
import { waitForImportStatus, rebuildStoredPages, allowImportSubmissions } from './import-status.ts';

const NARROW = { width: 375, height: 800 };
const creatorPath = `/patreon/user/${FAKE_CREATOR_ID}`;
/** The fake's 'Fake post 1', the one with comments (tests/fakes/patreon-data.ts). */
const FIRST_POST_ID = '90000001';

test('a signed-in user imports from Patreon, sees the archive, approves the DMs and revokes the key', async ({ page, context }) => {
  test.setTimeout(180_000);
  allowImportSubmissions(['DELETE FROM dms WHERE service = \'patreon\' AND "user" = ?', FAKE_CREATOR_ID]);
  const session = await signInBrowser(context);

  // Submit the key with DMs and the key kept.
  await page.clock.install();
  await page.goto('/importer');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Session key' }).fill(FAKE_PATREON_KEY);
  await page.getByLabel('Include DMs').check();
  await page.getByLabel(/Save session key/).check();
  await page.getByRole('button', { name: 'Submit Key' }).click();
  await page.waitForURL(/\/importer\/status\/[0-9a-f]+$/);
  const importId = page.url().split('/').pop()!;

  // The status page polls until the worker has finished.
  await waitForImportStatus(page, 'Finished');
  await expect(page.locator('[data-field="Subscriptions"]')).toHaveText('1');
  await expect(page.getByText('Done importing DMs', { exact: true })).toBeVisible();
  await expect(page.getByText('Finished.', { exact: true })).toBeVisible();
  expect(await page.content()).not.toContain(FAKE_PATREON_KEY);

  // The creator, its posts, files and comments.
  rebuildStoredPages();
  await page.goto(creatorPath);
  await expect(page.locator('.creator-header__name')).toHaveText(FAKE_CREATOR_NAME);
  await expect(page.locator('.post-card')).toHaveCount(12);
  await expect(page.locator('.post-card').first()).toContainText('Fake post 12');
  await page.locator(`.post-card[data-id="${FIRST_POST_ID}"] a`).click();
  await expect(page.locator('.post-header__title')).toHaveText('Fake post 1');
  await expect(page.locator('.post-comment__author', { hasText: 'Alice Patron' })).toBeVisible();
  await expect(page.locator('.post-comment__content', { hasText: 'Lovely.' })).toBeVisible();
  // The post file and the attachment (both images, so shown as previews), stored by hash.
  const files = page.getByRole('region', { name: 'Files' });
  await expect(files.getByRole('img', { name: 'extra-1.png' })).toBeVisible();
  const href = await files.locator('a[href^="/data/"]').first().getAttribute('href');
  expect(href).toMatch(/^\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png\?f=post-1\.png$/);
  const file = await page.request.get(href!);
  expect(file.status()).toBe(200);
  expect(file.headers()['content-type']).toBe('image/png');

  // The DMs wait for review, then show on the creator's DMs tab after the rebuild.
  await page.goto('/account/review_dms');
  await expect(page.locator('li.dm')).toHaveCount(2);
  await expect(page.locator('li.dm', { hasText: 'welcome pack' })).toBeVisible();
  for (const box of await page.getByLabel('Approve').all()) await box.check();
  const submit = page.getByRole('button', { name: 'Submit approved DMs.' });
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByText('There are no DMs waiting for approval.')).toBeVisible();
  rebuildStoredPages();
  await page.goto(`${creatorPath}/dms`);
  await expect(page.locator('li.dm', { hasText: 'Monthly' })).toBeVisible();
  await expect(page.locator('li.dm', { hasText: 'Not a creator you support.' })).toHaveCount(0);

  // The kept key: listed with this import, then revoked.
  await page.setViewportSize(NARROW);
  await page.goto('/account/keys');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  const item = page.locator('.key-item', { hasText: importId });
  await expect(item).toContainText('Alive');
  expect(await page.content()).not.toContain(FAKE_PATREON_KEY);
  await item.getByLabel('Revoke').check();
  await page.getByRole('button', { name: 'Revoke selected keys' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Revoked 1 key.' })).toBeVisible();
  expect(e2eRow<{ n: number }>('SELECT count(*) AS n FROM auto_import_keys WHERE account_id = ?', session.account.id).n).toBe(0);
});
