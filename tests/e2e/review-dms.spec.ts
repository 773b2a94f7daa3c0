/**
 * Review DMs in a real browser: a fresh account whose DMs wait for review (written into the E2E
 * database) toggles the pending and ignored views, approves one DM, watches the sidebar's red dot go,
 * deletes its ignored DMs and ends at the empty message; the page fits 375 px.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { openDatabase } from '@api/data/db.ts';
import { upsertDm } from '@api/data/dms.ts';
import { E2E_DB_FILE, e2eRow, signInBrowser } from './e2e-db.ts';

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 375, height: 740 };

interface Creator {
  service: string;
  id: string;
  name: string;
}

async function expectNoOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** A new signed-in account with DMs of one creator: `pending` and `ignored` are their texts. */
async function accountWithDms(context: BrowserContext, pending: string[], ignored: string[]) {
  const session = await signInBrowser(context);
  await context.addInitScript(() => {
    localStorage.setItem('logged_in', 'yes');
    localStorage.setItem('role', 'consumer');
  });
  const creator = e2eRow<Creator>(`SELECT service, id, name FROM creators WHERE service = 'patreon' ORDER BY id LIMIT 1`);
  const hashes = new Map<string, string>();
  const db = openDatabase(E2E_DB_FILE);
  try {
    const add = async (text: string, status: 'pending' | 'ignored', n: number) => {
      const hash = randomBytes(32).toString('hex');
      hashes.set(text, hash);
      await upsertDm(db, {
        service: creator.service,
        user: creator.id,
        hash,
        content: `<p>${text}</p><script>window.__injected = true</script>`,
        published: '2024-05-01T00:00:00',
        added: `2024-05-0${n + 1}T00:00:00`,
        status,
        account_id: session.account.id,
      });
    };
    for (const [n, text] of pending.entries()) await add(text, 'pending', n);
    for (const [n, text] of ignored.entries()) await add(text, 'ignored', n);
  } finally {
    db.close();
  }
  return { creator, hashes };
}

const dmItem = (page: Page, text: string) => page.locator('li.dm', { hasText: text });

test.describe('review DMs', () => {
  test.use({ viewport: WIDE });

  test('toggle the views, approve one DM, the red dot goes, delete the ignored ones', async ({ browser }) => {
    const run = randomBytes(4).toString('hex');
    const [first, second, old] = [`First ${run}`, `Second ${run}`, `Old ${run}`];
    const context = await browser.newContext();
    const { creator, hashes } = await accountWithDms(context, [first, second], [old]);
    const page = await context.newPage();
    await page.goto('/account/review_dms');

    const sidebarLink = page.locator('a.sidebar-link[href="/account/review_dms"]');
    await expect(sidebarLink.locator('.pending-dot')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Pending DMs' })).toBeVisible();
    await expect(page.locator('li.dm')).toHaveCount(2);
    await expect(dmItem(page, first).getByRole('link', { name: creator.name })).toBeVisible();
    expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined();
    await expect(page.getByLabel('Delete ignored DMs')).toHaveCount(0);

    await page.getByRole('link', { name: 'Ignored DMs' }).click();
    await expect(page).toHaveURL(/\/account\/review_dms\?status=ignored$/);
    await expect(page.locator('li.dm')).toHaveCount(1);
    await expect(dmItem(page, old)).toBeVisible();
    await expect(page.getByLabel('Delete ignored DMs')).toBeVisible();
    await page.getByRole('link', { name: 'Pending DMs' }).click();
    await expect(page).toHaveURL(/\/account\/review_dms$/);

    await dmItem(page, first).getByLabel('Approve').check();
    await page.getByRole('button', { name: 'Submit approved DMs.' }).click();
    // The page reloads: the approved DM is public, the other one moved to the ignored view.
    await expect(page.getByText('There are no DMs waiting for approval.')).toBeVisible();
    await expect(sidebarLink).toBeVisible();
    await expect(sidebarLink.locator('.pending-dot')).toHaveCount(0);
    const publicDms = await page.request.get(`/api/v1/${creator.service}/user/${creator.id}/dms`);
    expect(((await publicDms.json()).dms as { hash: string }[]).map((d) => d.hash)).toContain(hashes.get(first));
    expect(e2eRow<{ status: string }>('SELECT status FROM dms WHERE hash = ?', hashes.get(second)).status).toBe('ignored');

    await page.goto('/account/review_dms?status=ignored');
    await expect(page.locator('li.dm')).toHaveCount(2);
    await page.getByLabel('Delete ignored DMs').check();
    await page.getByRole('button', { name: 'Submit approved DMs.' }).click();
    await expect(page.getByText('There are no DMs waiting for approval.')).toBeVisible();
    await expect(page).toHaveURL(/status=ignored$/);
    expect(e2eRow<{ n: number }>('SELECT count(*) AS n FROM dms WHERE hash IN (?, ?)', hashes.get(second), hashes.get(old)).n).toBe(0);
    await context.close();
  });
});

test.describe('review DMs on a phone', () => {
  test.use({ viewport: NARROW });

  test('fits 375 px, is keyboard usable and shows the message when nothing is approved', async ({ browser }) => {
    const run = randomBytes(4).toString('hex');
    const context = await browser.newContext({ viewport: NARROW });
    await accountWithDms(context, [`Phone ${run} ${'long-unbroken-text'.repeat(8)}`], []);
    const page = await context.newPage();
    await page.goto('/account/review_dms');
    await expect(page.locator('li.dm')).toHaveCount(1);
    await expectNoOverflow(page);
    const submit = page.getByRole('button', { name: 'Submit approved DMs.' });
    // Until the island hydrates the button is disabled and cannot take focus.
    await expect(submit).toBeEnabled();
    await submit.focus();
    await expect(submit).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert')).toContainText('At least one DM must be provided for approval.');
    await page.getByLabel('Approve').focus();
    await page.keyboard.press('Space');
    await expect(page.getByLabel('Approve')).toBeChecked();
    await expectNoOverflow(page);
    await context.close();
  });
});

test('an unknown status is a bad request with the spec message', async ({ browser }) => {
  const context = await browser.newContext({ viewport: WIDE });
  await accountWithDms(context, [], []);
  const page = await context.newPage();
  const answer = await page.goto('/account/review_dms?status=approved');
  expect(answer?.status()).toBe(400);
  await expect(page.getByText('Unknown status "approved".')).toBeVisible();
  await context.close();
});
