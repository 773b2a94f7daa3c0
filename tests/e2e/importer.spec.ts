/** The importer: the key form's errors and submission, the status page, its polling and toggles. */
import { expect, test, type Page } from '@playwright/test';
import { E2E_DB_FILE, signInBrowser } from './e2e-db.ts';
import { openDatabase } from '@api/data/db.ts';
import { appendImportLog, createImport } from '@api/data/imports.ts';
import { IMPORT_POLL_MS } from '@shared/constants.ts';
import { waitForImportStatus } from './import-status.ts';

// Every run submits several imports from one address: start each with the import limits unused.
test.beforeEach(() => {
  const db = openDatabase(E2E_DB_FILE);
  try {
    db.prepare("DELETE FROM rate_limits WHERE key LIKE 'import-%'").run();
  } finally {
    db.close();
  }
});

const NARROW = { width: 375, height: 800 };
const uniqueKey = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`.padEnd(43, 'k').slice(0, 43);

async function submitPatreon(page: Page, key: string) {
  await page.goto('/importer');
  await page.waitForLoadState('networkidle');
  await page.getByRole('textbox', { name: 'Session key' }).fill(key);
  await page.getByRole('button', { name: 'Submit Key' }).click();
}

test('a bad key shows Error: and a valid patreon key opens its status page', async ({ page }) => {
  await page.goto('/importer');
  await expect(page.getByLabel('Paysite')).toHaveValue('patreon');
  await expect(page.getByRole('link', { name: 'Session key' })).toHaveAttribute('href', '/importer/tutorial');
  await expect(page.getByRole('heading', { name: 'Important information' })).toBeVisible();
  await submitPatreon(page, 'too-short');
  await expect(page.getByText('Error: Invalid key: Expected 43 characters, got 9')).toBeVisible();
  await expect(page).toHaveURL(/\/importer$/);

  await page.getByRole('textbox', { name: 'Session key' }).fill(uniqueKey());
  await page.getByRole('button', { name: 'Submit Key' }).click();
  await page.waitForURL(/\/importer\/status\/[0-9a-f]+$/);
  await expect(page.locator('[data-field="Service"]')).toHaveText('Patreon');
  await expect(page.getByText('Queued: waiting for the importer worker.')).toBeVisible();
  await expect(page.getByRole('row', { name: /Retries/ })).toHaveCount(0);
});

test('the status page moves to Failed when the paysite refuses the key', async ({ page }) => {
  // The page polls every IMPORT_POLL_MS: a fake clock stands in for the wait; the server's worker runs in real time.
  // Fantia's importer talks to the fake Fantia, which does not know this key (a working import: import-fantia.spec.ts).
  await page.clock.install();
  await page.goto('/importer');
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Paysite').selectOption('fantia');
  await page.getByRole('textbox', { name: 'Session key' }).fill(uniqueKey().slice(0, 32));
  await page.getByRole('button', { name: 'Submit Key' }).click();
  await page.waitForURL(/\/importer\/status\/[0-9a-f]+$/);
  await waitForImportStatus(page, 'Failed', 20_000);
  await expect(page.getByText('Fantia rejected the session key; the import failed.')).toBeVisible();
  await expect(page.getByText('Started.', { exact: true })).toBeVisible();
  await expect(page.getByRole('row', { name: /Retries/ })).toHaveCount(0);
});

/** An import the worker leaves alone (due to resume in a year), for the In Progress page. */
async function waitingImport(): Promise<string> {
  const db = openDatabase(E2E_DB_FILE);
  try {
    const id = await createImport(db, { service: 'patreon', priority: 1, sub_count: 0 });
    db.prepare('UPDATE imports SET resuming_at = ? WHERE id = ?').run(
      new Date(Date.now() + 365 * 86400_000).toISOString().slice(0, 19),
      id,
    );
    await appendImportLog(db, id, 'Queued: waiting for the importer worker.');
    return id;
  } finally {
    db.close();
  }
}

test('services change the inputs; onlyfans fills in the browser User-Agent', async ({ page }) => {
  await page.goto('/importer');
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Paysite').selectOption('onlyfans');
  const agent = await page.evaluate(() => navigator.userAgent);
  await expect(page.getByLabel('User-Agent')).toHaveValue(agent);
  await page.getByLabel('Paysite').selectOption('discord');
  await expect(page.getByLabel('Channel IDs')).toBeVisible();
  await page.getByLabel('Token').fill('MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB');
  await page.getByLabel('Channel IDs').fill('123,abc');
  await page.getByRole('button', { name: 'Submit Key' }).click();
  await expect(page.getByText('Error: abc is not a valid channel ID.')).toBeVisible();
});

test('include DMs is disabled for guests and enabled when signed in', async ({ page, context }) => {
  await page.goto('/importer');
  await expect(page.getByLabel('Include DMs')).toBeDisabled();
  await signInBrowser(context);
  await page.goto('/importer');
  await expect(page.getByLabel('Include DMs')).toBeEnabled();
  await page.getByLabel('Include DMs').check();
  await page.getByRole('textbox', { name: 'Session key' }).fill(uniqueKey());
  await page.getByRole('button', { name: 'Submit Key' }).click();
  await page.waitForURL(/\/importer\/status\//);
  await expect(page.locator('[data-field="Save DMs"]')).toHaveText('Yes');
  await expect(page.getByText(/approve them on/)).toBeVisible();
});

test('the status page polls every IMPORT_POLL_MS and toggles log order and the table', async ({ page }) => {
  await page.clock.install();
  await page.goto(`/importer/status/${await waitingImport()}`);
  await page.waitForLoadState('networkidle');
  // The poll timer starts when the island hydrates; the fake clock must not run before that.
  await expect(page.locator('astro-island:has(.import-status)')).not.toHaveAttribute('ssr', /.*/);
  await expect(page.locator('[data-field="Status"]')).toHaveText('In Progress');
  const polls: string[] = [];
  page.on('request', (r) => {
    if (/\/api\/v1\/(imports|importer\/logs)\//.test(r.url())) polls.push(r.url());
  });
  await page.clock.runFor(IMPORT_POLL_MS - 1000);
  expect(polls).toHaveLength(0);
  // One call a poll: the import carries its log lines.
  await page.clock.runFor(1500);
  await expect.poll(() => polls.length).toBe(1);
  await page.clock.runFor(IMPORT_POLL_MS);
  await expect.poll(() => polls.length).toBe(2);
  expect(polls.every((url) => url.includes('/api/v1/imports/'))).toBe(true);

  // Toggle buttons keep their label and say their state with aria-pressed.
  const newestFirst = page.getByRole('button', { name: 'Newest first' });
  await expect(newestFirst).toHaveAttribute('aria-pressed', 'true');
  await newestFirst.click();
  await expect(newestFirst).toHaveAttribute('aria-pressed', 'false');
  await expect(page.locator('.import-log__lines')).not.toHaveAttribute('reversed', /.*/);
  const minimize = page.getByRole('button', { name: 'Minimize' });
  await expect(minimize).toHaveAttribute('aria-pressed', 'false');
  await minimize.click();
  await expect(minimize).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.import-status__table')).toBeHidden();
  await minimize.click();
  await expect(page.locator('[data-field="Status"]')).toHaveText('In Progress');
});

test('the status toggles look like the site buttons, with visible keyboard focus and a pressed look', async ({ page }) => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(`/importer/status/${await waitingImport()}`);
    await expect(page.locator('astro-island:has(.import-status)')).not.toHaveAttribute('ssr', /.*/);
    const looks = (name: string) =>
      page.getByRole('button', { name }).evaluate((button) => {
        const style = getComputedStyle(button);
        return {
          minHeight: style.minHeight,
          radius: style.borderTopLeftRadius,
          background: style.backgroundColor,
          border: style.borderTopColor,
          weight: style.fontWeight,
          outline: style.outlineStyle,
          outlineColor: style.outlineColor,
          height: button.getBoundingClientRect().height,
        };
      });
    // A site .button (compare with the importer's own primary buttons' shape): 2.4rem high, rounded, bold.
    for (const name of ['Minimize', 'Newest first']) {
      const style = await looks(name);
      expect(style.minHeight, name).toBe('38.4px');
      expect(style.radius, name).toBe('6px');
      expect(style.weight, name).toBe('600');
      expect(style.background, name).not.toBe('rgb(239, 239, 239)'); // Chromium's native button face
      expect(style.height, name).toBeGreaterThanOrEqual(38);
    }
    // Pressed (Newest first, the default) and not pressed (Minimize) differ: the accent border.
    expect((await looks('Newest first')).border).toBe('rgb(240, 149, 94)');
    expect((await looks('Minimize')).border).not.toBe('rgb(240, 149, 94)');
    // Keyboard focus draws the site's focus ring.
    await page.getByRole('button', { name: 'Minimize' }).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Minimize' })).toBeFocused();
    const focused = await looks('Minimize');
    expect(focused.outline).toBe('solid');
    expect(focused.outlineColor).toBe('rgb(142, 197, 255)');
    await page.keyboard.press('Space');
    await expect(page.getByRole('button', { name: 'Minimize' })).toHaveAttribute('aria-pressed', 'true');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
  }
});

test('a missing import says so with a 404', async ({ page }) => {
  const answer = await page.goto('/importer/status/doesnotexist');
  expect(answer?.status()).toBe(404);
  await expect(page.getByText('Your import could not be found.')).toBeVisible();
});

test('the importer pages fit 375 px', async ({ page }) => {
  await page.setViewportSize(NARROW);
  await page.goto('/importer');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
  await submitPatreon(page, uniqueKey());
  await page.waitForURL(/\/importer\/status\//);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
});
