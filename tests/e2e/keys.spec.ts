/**
 * /account/keys in Chromium against the demo archive: a key saved through saveSubmittedKey for a fresh
 * account shows with its service, Alive, added and its import's status link, never the key itself;
 * revoking it empties the list (and the database); revoking nothing says so; another account sees none.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { E2E_DATA_DIR, E2E_PORT } from '../../playwright.config.ts';
import { openDatabase } from '@api/data/db.ts';
import { createImport } from '@api/data/imports.ts';
import { saveSubmittedKey } from '@api/importer/key-store.ts';
import { readConfig } from '@api/config.ts';
import { E2E_DB_FILE, e2eRow, signInBrowser } from './e2e-db.ts';

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 375, height: 740 };

/** A fresh account with one stored patreon key (unique per test) linked to a queued import. */
async function accountWithKey(context: BrowserContext) {
  const session = await signInBrowser(context);
  await context.addInitScript(() => localStorage.setItem('logged_in', 'yes'));
  const key = `E2eSecret${session.account.id}`.padEnd(43, 'k');
  const db = openDatabase(E2E_DB_FILE);
  try {
    const importId = await createImport(db, { service: 'patreon', account_id: session.account.id });
    const keyId = await saveSubmittedKey(db, readConfig({ DATA_DIR: E2E_DATA_DIR }), {
      accountId: session.account.id,
      service: 'patreon',
      key,
      importId,
    });
    return { session, key, keyId, importId };
  } finally {
    db.close();
  }
}

async function openKeys(page: Page) {
  await page.goto('/account/keys');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

async function expectNoOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
}

const storedKeys = (accountId: number) =>
  e2eRow<{ n: number }>('SELECT count(*) AS n FROM auto_import_keys WHERE account_id = ?', accountId).n;

for (const viewport of [WIDE, NARROW]) {
  test(`shows a stored key and revokes it (${viewport.width} px)`, async ({ page, context }) => {
    await page.setViewportSize(viewport);
    const { session, key, keyId, importId } = await accountWithKey(context);
    await openKeys(page);
    await expect(page.getByRole('heading', { name: 'Keys', level: 1 })).toBeVisible();
    const item = page.locator(`.key-item[data-key-id="${keyId}"]`);
    await expect(item).toContainText('patreon');
    await expect(item).toContainText('Alive');
    await expect(item.getByRole('link', { name: importId })).toHaveAttribute('href', `/importer/status/${importId}`);
    expect(await page.content()).not.toContain(key);
    await expectNoOverflow(page);

    await item.getByLabel('Revoke').check();
    await page.getByRole('button', { name: 'Revoke selected keys' }).click();
    await expect(page.getByText('You have no stored keys.')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Revoked 1 key.' })).toBeVisible();
    expect(storedKeys(session.account.id)).toBe(0);
    await openKeys(page);
    await expect(page.getByText('You have no stored keys.')).toBeVisible();
  });
}

test('revoking with nothing selected says so and keeps the key', async ({ page, context }) => {
  const { session } = await accountWithKey(context);
  await openKeys(page);
  await page.getByRole('button', { name: 'Revoke selected keys' }).press('Enter');
  await expect(page.getByRole('alert')).toHaveText('At least one key must be selected for revocation.');
  expect(storedKeys(session.account.id)).toBe(1);
});

test('another account does not see the key', async ({ page, context, browser }) => {
  const { keyId } = await accountWithKey(context);
  const other = await browser.newContext();
  try {
    await signInBrowser(other);
    const otherPage = await other.newPage();
    await otherPage.goto(`http://127.0.0.1:${E2E_PORT}/account/keys`);
    await expect(otherPage.getByText('You have no stored keys.')).toBeVisible();
    await expect(otherPage.locator(`.key-item[data-key-id="${keyId}"]`)).toHaveCount(0);
  } finally {
    await other.close();
  }
  await openKeys(page);
  await expect(page.locator(`.key-item[data-key-id="${keyId}"]`)).toBeVisible();
});

test('guests are told to register', async ({ page }) => {
  const answer = await page.goto('/account/keys');
  expect(answer!.status()).toBe(401);
  await expect(page.getByText('You must be registered to access this page.')).toBeVisible();
});
