/**
 * Accounts in the browser: registration with guest favourites, login with a location (and a hostile
 * one), the overview and notifications, password change, logout, and the pages at 375 px. Each test
 * makes its own accounts, so the specs stay independent.
 */
import { expect, test, type Page } from '@playwright/test';
import { createAccount, type Role } from '@api/data/accounts.ts';
import { openDatabase } from '@api/data/db.ts';
import { createNotification } from '@api/data/notifications.ts';
import { sqliteStore } from '@api/data/store.ts';
import { hashPassword } from '@api/auth/passwords.ts';
import { E2E_PORT } from '../../playwright.config.ts';
import { E2E_DB_FILE, e2eRow, readE2eDb } from './e2e-db.ts';

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 375, height: 740 };

let serial = 0;
/** A username no other run has used (at most 15 characters). */
const freshName = (prefix: string) => `${prefix}${(Date.now() % 1e7).toString(36)}${(serial += 1)}`.slice(0, 15);

async function createE2eAccount(role: Role = 'consumer', password = 'e2e-password') {
  const username = freshName(role.slice(0, 3));
  const passwordHash = await hashPassword(password);
  const db = openDatabase(E2E_DB_FILE);
  try {
    return { ...(await createAccount(db, { username, password_hash: passwordHash, role })), password };
  } finally {
    db.close();
  }
}

async function logIn(page: Page, username: string, password: string, location?: string) {
  await page.goto(location === undefined ? '/authentication/login' : `/authentication/login?location=${encodeURIComponent(location)}`);
  const form = page.getByRole('form', { name: 'Login' });
  await expect(form.getByRole('status')).toHaveText('Ready for submit');
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Login' }).click();
}

async function expectNoOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
}

const headerLink = (page: Page, name: string) => page.locator('.header-links--account').getByRole('link', { name, exact: true });

test('registering takes the guest favourites along, signs in and opens the account page', async ({ page, context }) => {
  const creators = readE2eDb(
    (db) =>
      db.prepare("SELECT service, id FROM creators WHERE service IN ('patreon', 'fanbox') GROUP BY service").all() as {
        service: string;
        id: string;
      }[],
  );
  expect(creators.length).toBe(2);
  const pairs = creators.map((c) => `${c.service}:${c.id}`).join(',');
  await context.addCookies([{ name: 'favorites', value: encodeURIComponent(`${pairs},nowhere:1`), url: `http://127.0.0.1:${E2E_PORT}` }]);
  const username = freshName('reg');

  await page.setViewportSize(NARROW);
  await page.goto('/authentication/register');
  await expectNoOverflow(page);
  const form = page.getByRole('form', { name: 'Register' });
  await expect(form.getByRole('status')).toHaveText('Ready for submit');
  await form.getByLabel('Username').fill(username.toUpperCase());
  await form.getByLabel('Password', { exact: true }).fill('e2e-password');
  await form.getByLabel('Confirm password').fill('something-else');
  await form.getByRole('button', { name: 'Register' }).click();
  await expect(form.getByRole('alert')).toHaveText("Passwords don't match.");

  await form.getByLabel('Confirm password').fill('e2e-password');
  await form.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL('**/account');
  await expect(page.getByRole('heading', { name: `Hello, ${username}!` })).toBeVisible();
  await expectNoOverflow(page);

  const account = e2eRow<{ id: number }>('SELECT id FROM accounts WHERE username = ?', username);
  const saved = readE2eDb((db) =>
    db.prepare('SELECT service, creator_id AS id FROM favorite_creators WHERE account_id = ? ORDER BY service').all(account.id),
  );
  expect(saved).toEqual([...creators].sort((a, b) => a.service.localeCompare(b.service)));
  const listed = await page.request.get('/api/v1/account/favorites?type=artist');
  if (listed.status() !== 404) {
    expect(listed.status()).toBe(200);
    expect(((await listed.json()) as { service: string; id: string }[]).map((c) => `${c.service}:${c.id}`).sort()).toEqual(
      creators.map((c) => `${c.service}:${c.id}`).sort(),
    );
  }
  expect((await context.cookies()).find((c) => c.name === 'favorites')).toBeUndefined();
  expect(await page.evaluate(() => [localStorage.getItem('logged_in'), localStorage.getItem('role')])).toEqual(['yes', 'consumer']);
});

test('login follows a same-site location and ignores a hostile one', async ({ page, context }) => {
  const account = await createE2eAccount();
  const creator = e2eRow<{ service: string; id: string }>("SELECT service, id FROM creators WHERE service = 'patreon' LIMIT 1");
  const target = `/${creator.service}/user/${creator.id}`;

  await page.setViewportSize(WIDE);
  await logIn(page, account.username, 'wrong-password', target);
  await expect(page.getByRole('form', { name: 'Login' }).getByRole('alert')).toHaveText('Incorrect username or password.');
  await page.getByRole('form', { name: 'Login' }).getByLabel('Password').fill(account.password);
  await page.getByRole('form', { name: 'Login' }).getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === target);
  await expect(headerLink(page, 'Logout')).toBeVisible();
  await expect(headerLink(page, 'Login')).toBeHidden();

  // A fresh browser state, then a location pointing at another site.
  await context.clearCookies();
  await page.evaluate(() => localStorage.clear());
  await logIn(page, account.username, account.password, '//evil.example/steal');
  await page.waitForURL((url) => url.pathname === '/account');
  expect(new URL(page.url()).host).toBe(`127.0.0.1:${E2E_PORT}`);

  // Already signed in: the 409 is followed by an account fetch and the login continues.
  await logIn(page, 'whoever', 'whatever1', '/posts');
  await page.waitForURL((url) => url.pathname === '/posts');
});

test('the account overview shows role sections and notifications are marked seen', async ({ page }) => {
  const admin = await createE2eAccount('administrator');
  const db = openDatabase(E2E_DB_FILE);
  try {
    await createNotification(sqliteStore(db), {
      account_id: admin.id,
      type: 1,
      extra_info: { old_role: 'moderator', new_role: 'administrator' },
    });
  } finally {
    db.close();
  }
  await page.setViewportSize(NARROW);
  await logIn(page, admin.username, admin.password);
  await page.waitForURL('**/account');
  await expect(page.getByRole('heading', { name: 'Moderator actions' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Creator link requests' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Manage accounts' })).toBeVisible();
  await expect(page.locator('.account-overview__role')).toHaveText('administrator');
  await expect(page.locator('.account-links__count')).toHaveText('(1)');
  await expectNoOverflow(page);

  await page.getByRole('link', { name: 'Notifications' }).click();
  await expect(page.getByText('Your role was changed from moderator to administrator.')).toBeVisible();
  await expect(page.locator('.notification__state')).toHaveText('New');
  await expectNoOverflow(page);
  await page.reload();
  await expect(page.locator('.notification__state')).toHaveText('Seen');
  await page.goto('/account');
  await expect(page.locator('.account-links__count')).toHaveText('(0)');
});

test('a consumer sees no moderator section; a guest is asked to log in', async ({ page }) => {
  const response = await page.goto('/account/notifications');
  expect(response?.status()).toBe(401);
  await expect(page.getByText('You must be registered to access this page.')).toBeVisible();
  await expect(page.locator('main').getByRole('link', { name: 'Login' })).toHaveAttribute('href', /location=%2Faccount%2Fnotifications/);

  const consumer = await createE2eAccount();
  await logIn(page, consumer.username, consumer.password);
  await page.waitForURL('**/account');
  await expect(page.getByRole('heading', { name: 'Moderator actions' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Notifications' }).click();
  await expect(page.getByText('There are no notifications.')).toBeVisible();
});

test('changing the password retires the old one; logging out returns to the guest header', async ({ page }) => {
  const account = await createE2eAccount();
  await page.setViewportSize(NARROW);
  await logIn(page, account.username, account.password);
  await page.waitForURL('**/account');
  await page.getByRole('link', { name: 'Change password' }).click();
  await expectNoOverflow(page);
  const form = page.getByRole('form', { name: 'Change password' });
  await expect(form.getByRole('status')).toHaveText('Ready for submit');
  await form.getByLabel('Current password').fill(account.password);
  await form.getByLabel('New password', { exact: true }).fill('brand-new-pass');
  await form.getByLabel('Confirm new password').fill('brand-new-typo');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('alert')).toHaveText('New password and confirmation do not match.');
  await form.getByLabel('Current password').fill('not-my-password');
  await form.getByLabel('Confirm new password').fill('brand-new-pass');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('alert')).toHaveText('Current password is incorrect.');
  await form.getByLabel('Current password').fill(account.password);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed.')).toBeVisible();
  // This browser got a fresh session.
  expect((await page.request.get('/api/v1/account')).status()).toBe(200);

  await page.setViewportSize(WIDE);
  await headerLink(page, 'Logout').click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(headerLink(page, 'Login')).toBeVisible();
  await expect(headerLink(page, 'Logout')).toBeHidden();
  expect((await page.request.get('/api/v1/account')).status()).toBe(401);
  expect(await page.evaluate(() => localStorage.getItem('logged_in'))).toBeNull();

  await logIn(page, account.username, account.password);
  await expect(page.getByRole('form', { name: 'Login' }).getByRole('alert')).toHaveText('Incorrect username or password.');
  await page.getByRole('form', { name: 'Login' }).getByLabel('Password').fill('brand-new-pass');
  await page.getByRole('form', { name: 'Login' }).getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/account');
});
