/**
 * The administrators' imports dashboard in a real browser: it lists imports with their state, filters
 * with the GET form, cancels a waiting import (after confirming; its status page then says Cancelled)
 * and retries one that gave up, at desktop and phone widths, with the keyboard. The rows are created in
 * the E2E database directly: a waiting import due in a year and a finished one are left alone by the
 * server's worker.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { openDatabase } from '@api/data/db.ts';
import { appendImportLog, createImport } from '@api/data/imports.ts';
import { E2E_DB_FILE, e2eRow, signInBrowser } from './e2e-db.ts';

const NARROW = { width: 390, height: 844 };
const iso = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 19);

/** A waiting import (due to resume in a year) and one that gave up with its sealed key kept. */
async function seedImports(): Promise<{ waiting: string; gaveUp: string }> {
  const db = openDatabase(E2E_DB_FILE);
  try {
    const waiting = await createImport(db, { service: 'fantia', work_key: Buffer.from('sealed-waiting') });
    db.prepare('UPDATE imports SET resuming_at = ?, retry_count = 2 WHERE id = ?').run(iso(365 * 86400_000), waiting);
    await appendImportLog(db, waiting, 'Fantia error: 503; retrying later.');
    const gaveUp = await createImport(db, { service: 'gumroad', work_key: Buffer.from('sealed-gave-up') });
    db.prepare('UPDATE imports SET finished_at = ?, gave_up_at = ?, retry_count = 8, first_started_at = ? WHERE id = ?').run(
      iso(-60_000),
      iso(-60_000),
      iso(-3600_000),
      gaveUp,
    );
    await appendImportLog(db, gaveUp, 'Gave up after 8 retries.');
    return { waiting, gaveUp };
  } finally {
    db.close();
  }
}

async function asAdministrator(context: BrowserContext) {
  return signInBrowser(context, { role: 'administrator' });
}

const row = (page: Page, id: string) => page.locator(`tr[data-import="${id}"]`);
const state = (page: Page, id: string) => row(page, id).locator('.import-actions__state');

for (const [name, viewport] of [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', NARROW],
] as const) {
  test(`an administrator cancels a waiting import and retries one that gave up (${name})`, async ({ browser }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await asAdministrator(context);
    const { waiting, gaveUp } = await seedImports();

    // Reached from the administrator's tools.
    await page.goto('/account');
    await page.getByRole('link', { name: 'Imports', exact: true }).click();
    await expect(page).toHaveURL(/\/account\/administrator\/imports$/);
    await expect(page.getByRole('heading', { name: 'Imports', level: 1 })).toBeVisible();
    await expect(state(page, waiting)).toHaveText('Waiting to retry');
    await expect(row(page, waiting)).toContainText('guest');
    await expect(row(page, waiting)).toContainText('Fantia error: 503; retrying later.');
    await expect(state(page, gaveUp)).toHaveText('Failed');
    await expect(row(page, gaveUp).getByRole('link', { name: gaveUp })).toHaveAttribute('href', `/importer/status/${gaveUp}`);
    if (name === 'phone') {
      // Stacked rows: nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
      expect(
        await row(page, waiting)
          .locator('td')
          .first()
          .evaluate((td) => getComputedStyle(td).display),
      ).toBe('grid');
    }

    // The filter is a GET form.
    await page.getByLabel('State').selectOption('waiting');
    await page.getByLabel('Service').selectOption('fantia');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(/\/account\/administrator\/imports\?state=waiting&service=fantia$/);
    await expect(state(page, waiting)).toHaveText('Waiting to retry');
    await expect(row(page, gaveUp)).toHaveCount(0);

    // Cancel asks first; dismissing changes nothing.
    page.once('dialog', (dialog) => dialog.dismiss());
    await row(page, waiting)
      .getByRole('button', { name: `Cancel import ${waiting}` })
      .click();
    await expect(state(page, waiting)).toHaveText('Waiting to retry');
    page.once('dialog', (dialog) => dialog.accept());
    await row(page, waiting)
      .getByRole('button', { name: `Cancel import ${waiting}` })
      .focus();
    await page.keyboard.press('Enter');
    await expect(state(page, waiting)).toHaveText('Cancelled');
    await expect(row(page, waiting).getByRole('status')).toHaveText('Cancelled.');
    await expect(row(page, waiting).getByRole('button')).toHaveCount(0);
    expect(e2eRow<{ work_key: Buffer | null }>('SELECT work_key FROM imports WHERE id = ?', waiting).work_key).toBeNull();

    // The submitter's status page says Cancelled.
    await page.goto(`/importer/status/${waiting}`);
    await expect(page.locator('[data-field="Status"]')).toHaveText('Cancelled');
    await expect(page.getByText('Cancelled by an administrator.', { exact: true })).toBeVisible();

    // Retry puts the one that gave up back in the queue.
    await page.goto('/account/administrator/imports?state=failed');
    await row(page, gaveUp)
      .getByRole('button', { name: `Retry import ${gaveUp}` })
      .click();
    await expect(state(page, gaveUp)).toHaveText('Queued');
    await expect(row(page, gaveUp).getByRole('status')).toHaveText('Back in the queue.');
    const after = e2eRow<{ gave_up_at: string | null; retry_count: number }>(
      'SELECT gave_up_at, retry_count FROM imports WHERE id = ?',
      gaveUp,
    );
    expect(after).toEqual({ gave_up_at: null, retry_count: 0 });
    await page.reload();
    await expect(row(page, gaveUp)).toHaveCount(0);
    await context.close();
  });
}

test('a failed import whose key is gone offers no Retry and says the submitter must import again', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await asAdministrator(context);
  const db = openDatabase(E2E_DB_FILE);
  let id: string;
  try {
    id = await createImport(db, { service: 'patreon' });
    db.prepare('UPDATE imports SET finished_at = ?, is_key_invalid = 1, key_failed_at = ? WHERE id = ?').run(iso(0), iso(0), id);
  } finally {
    db.close();
  }
  await page.goto('/account/administrator/imports?state=failed&service=patreon');
  await expect(state(page, id)).toHaveText('Failed');
  await expect(row(page, id)).toContainText('Its session key is gone: the submitter must import again.');
  await expect(row(page, id).getByRole('button')).toHaveCount(0);
  await context.close();
});
