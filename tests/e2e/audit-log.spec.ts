/**
 * The audit log in a real browser: an administrator changes an account's role on the accounts page,
 * then finds the line on /account/administrator/audit, filters by action with the GET form (keyboard
 * only), and reads the lines as stacked rows at phone width and as a table on a desktop.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { openDatabase } from '@api/data/db.ts';
import { signIn } from '../helpers/session.ts';
import { E2E_DB_FILE, signInBrowser } from './e2e-db.ts';

const NARROW = { width: 390, height: 800 };
const WIDE = { width: 1280, height: 900 };

async function signInAdmin(context: BrowserContext) {
  const session = await signInBrowser(context, { role: 'administrator' });
  await context.addInitScript(() => {
    localStorage.setItem('logged_in', 'yes');
    localStorage.setItem('role', 'administrator');
  });
  return session;
}

async function expectNoOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test('a role changed in the browser shows up in the audit log, which filters by action', async ({ browser }) => {
  const db = openDatabase(E2E_DB_FILE);
  const target = await (async () => {
    try {
      return await signIn(db, { username: `audited${Date.now() % 1e9}` });
    } finally {
      db.close();
    }
  })();

  const context = await browser.newContext({ viewport: NARROW });
  const admin = await signInAdmin(context);
  const page = await context.newPage();

  // From the administrator's tools on the account page.
  await page.goto('/account');
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/account\/administrator\/audit$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Audit log');

  await page.goto(`/account/administrator/accounts/1?name=${target.account.username}`);
  const card = page.getByRole('article', { name: `Account ${target.account.username}` });
  await card.getByRole('combobox').selectOption('moderator');
  await card.getByRole('button', { name: 'Change role' }).click();
  await expect(card.getByRole('status').filter({ hasText: 'is now moderator' })).toBeVisible();

  await page.goto('/account/administrator/audit');
  const line = page.locator('.audit-table tbody tr', { hasText: `(${target.account.username})` });
  await expect(line).toHaveCount(1);
  await expect(line.locator('[data-label="Who"]')).toHaveText(admin.account.username);
  await expect(line.locator('[data-label="Action"]')).toHaveText('Role changed');
  await expect(line.locator('[data-label="Target"]')).toHaveText(`account ${target.account.id} (${target.account.username})`);
  await expect(line.locator('[data-label="Details"]')).toHaveText('consumer → moderator');
  await expect(line.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  // At phone width the rows are stacked: each cell shows its column's name and nothing scrolls sideways.
  await expect(page.locator('.audit-table thead')).not.toBeInViewport();
  const cell = await line.locator('[data-label="Action"]').boundingBox();
  expect(cell!.width).toBeGreaterThan(NARROW.width * 0.6);
  await expectNoOverflow(page);

  // Filter by action with the keyboard; the form is a plain GET, the URL keeps the filter.
  await page.getByLabel('Action').focus();
  await page.getByLabel('Action').selectOption('link_reject');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Filter' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/account\/administrator\/audit\?actor=&action=link_reject$/);
  await expect(page.getByLabel('Action')).toHaveValue('link_reject');
  await expect(page.locator('.audit-table tbody tr', { hasText: `(${target.account.username})` })).toHaveCount(0);
  await expect(page.locator('.audit-table tbody tr:not([data-action="link_reject"])')).toHaveCount(0);

  await page.getByLabel('Action').selectOption('role_change');
  await page.getByLabel('Who').selectOption(String(admin.account.id));
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(new RegExp(`\\?actor=${admin.account.id}&action=role_change$`));
  await expect(page.locator('.audit-table tbody tr')).toHaveCount(1);
  await expect(page.locator('.audit-table tbody tr')).toContainText(target.account.username);

  // An unknown action is a clear 400, not an error page.
  const bad = await page.goto('/account/administrator/audit?action=erase');
  expect(bad!.status()).toBe(400);
  await expect(page.getByText('Unknown action "erase".')).toBeVisible();
  await context.close();

  // On a desktop it is a table with its header row.
  const wide = await browser.newContext({ viewport: WIDE });
  await signInAdmin(wide);
  const desktop = await wide.newPage();
  await desktop.goto(`/account/administrator/audit?action=role_change`);
  await expect(desktop.getByRole('columnheader', { name: 'When (UTC)' })).toBeVisible();
  await expectNoOverflow(desktop);
  await wide.close();
});

test('the audit log refuses consumers and moderators', async ({ browser }) => {
  for (const role of ['consumer', 'moderator'] as const) {
    const context = await browser.newContext();
    await signInBrowser(context, { role });
    const page = await context.newPage();
    const answer = await page.goto('/account/administrator/audit');
    expect(answer!.status()).toBe(403);
    await expect(page.locator('.audit-table')).toHaveCount(0);
    await context.close();
  }
});
