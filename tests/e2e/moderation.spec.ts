/**
 * Creator links and account administration in a real browser: a consumer requests a link, a moderator
 * approves it, the rebuild shows both creators linked; an administrator makes a consumer a moderator
 * and that account is notified. Every account here is created by the test (signInBrowser).
 */
import { execFileSync } from 'node:child_process';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { openDatabase } from '@api/data/db.ts';
import { signIn } from '../helpers/session.ts';
import { E2E_DATA_DIR, E2E_PORT } from '../../playwright.config.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { linkCreators } from '@api/data/links.ts';
import { E2E_DB_FILE, e2eRow, readE2eDb, signInBrowser } from './e2e-db.ts';

const NARROW = { width: 375, height: 740 };

async function signInAs(context: BrowserContext, role: 'consumer' | 'moderator' | 'administrator') {
  const session = await signInBrowser(context, { role });
  await context.addInitScript((r) => {
    localStorage.setItem('logged_in', 'yes');
    localStorage.setItem('role', r);
  }, role);
  return session;
}

async function expectNoOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

interface Pair {
  service: string;
  id: string;
  name: string;
}

/** Two creators of different paysites (not discord, whose pages redirect) that no request or link joins yet. */
function unlinkedPair(): [Pair, Pair] {
  return readE2eDb((db) => {
    const rows = db
      .prepare(
        `SELECT service, id, name FROM creators c
          WHERE relation_id IS NULL AND service NOT IN ('discord') AND length(name) > 2
            AND NOT EXISTS (SELECT 1 FROM link_requests r WHERE (r.from_service = c.service AND r.from_id = c.id) OR (r.to_service = c.service AND r.to_id = c.id))
          ORDER BY service, id`,
      )
      .all() as Pair[];
    const from = rows[0];
    const to = rows.find((row) => row.service !== from.service && !row.name.toLowerCase().includes(from.name.toLowerCase()))!;
    return [from, to];
  });
}

test('a consumer requests a link, a moderator approves it and both creators show the link', async ({ browser }) => {
  const [from, to] = unlinkedPair();
  const reason = `Same artist ${Date.now()}`;

  const consumerContext = await browser.newContext({ viewport: NARROW });
  await signInAs(consumerContext, 'consumer');
  const page = await consumerContext.newPage();
  await page.goto(`/account/${from.service}/user/${from.id}/links/new`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(from.name);
  const form = page.locator('#link-form');
  await expect(form.locator('.api-form-status')).toHaveText('Ready for submit');
  const submit = form.getByRole('button', { name: 'Request link' });
  await expect(submit).toBeDisabled();
  await expect(form.locator('.link-form__choice')).toHaveText('Please select a creator.');
  await expect(form.locator('.link-candidate')).toHaveCount(20);

  await form.getByLabel('Service').selectOption(to.service);
  await form.getByLabel('Profile name').fill(to.name);
  const candidate = form.locator('.link-candidate', { hasText: to.name }).first();
  await candidate.getByRole('button', { name: 'Select' }).click();
  await expect(candidate).toHaveClass(/link-candidate--selected/);
  await expect(submit).toBeEnabled();
  await form.getByLabel('Reason (optional)').fill(reason);
  await expect(form.locator('.link-form__counter')).toHaveText(`${reason.length}/140`);
  await expectNoOverflow(page);
  await submit.click();
  await expect(page.getByRole('status').filter({ hasText: 'A moderator will review it.' })).toBeVisible();
  const stored = e2eRow<{ id: number; status: string }>(`SELECT id, status FROM link_requests WHERE reason = ?`, reason);
  expect(stored.status).toBe('pending');
  await consumerContext.close();

  // Both Linked Accounts pages are in the page store before the approval, so the rebuild must refresh them.
  const visitor = await browser.newPage();
  for (const [creator, other] of [
    [from, to],
    [to, from],
  ]) {
    await visitor.goto(`/${creator.service}/user/${creator.id}/links`);
    await expect(visitor.locator('main')).not.toContainText(other.name);
  }

  const moderatorContext = await browser.newContext();
  await signInAs(moderatorContext, 'moderator');
  const review = await moderatorContext.newPage();
  await review.goto('/account/moderator/tasks/creator_links');
  const item = review.locator('.link-request', { hasText: reason });
  await expect(item).toContainText(from.name);
  await expect(item).toContainText(to.name);
  await expect(item).toContainText('(consumer)');
  await item.getByRole('button', { name: 'Approve' }).click();
  await expect(item).toHaveCount(0);
  expect(e2eRow<{ status: string }>('SELECT status FROM link_requests WHERE id = ?', stored.id).status).toBe('approved');
  await review.setViewportSize(NARROW);
  await expectNoOverflow(review);
  await moderatorContext.close();

  execFileSync('npx', ['tsx', 'scripts/rebuild.ts'], {
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR, TROVE_ENV: 'test' },
    encoding: 'utf8',
  });
  await visitor.goto(`/${from.service}/user/${from.id}/links`);
  await expect(visitor.locator('.linked-list')).toContainText(to.name);
  await visitor.goto(`/${to.service}/user/${to.id}/links`);
  await expect(visitor.locator('.linked-list')).toContainText(from.name);
  await visitor.close();
});

test('an administrator makes a consumer a moderator and the account is notified', async ({ browser }) => {
  const db = openDatabase(E2E_DB_FILE);
  const target = await (async () => {
    try {
      return await signIn(db, { username: `promo${Date.now() % 1e9}` });
    } finally {
      db.close();
    }
  })();

  const context = await browser.newContext({ viewport: NARROW });
  const admin = await signInAs(context, 'administrator');
  const page = await context.newPage();
  await page.goto(`/account/administrator/accounts?name=${target.account.username}`);
  await expect(page).toHaveURL(new RegExp(`/account/administrator/accounts/1\\?name=${target.account.username}$`));
  const card = page.getByRole('article', { name: `Account ${target.account.username}` });
  await expect(card).toHaveCount(1);
  await expect(card.locator('.account-card__role')).toHaveText('consumer');
  const roles = card.getByRole('combobox');
  await expect(roles.locator('option')).toHaveText(['consumer', 'moderator']);
  await roles.selectOption('moderator');
  await card.getByRole('button', { name: 'Change role' }).click();
  await expect(card.getByRole('status').filter({ hasText: 'is now moderator' })).toBeVisible();
  await expectNoOverflow(page);

  expect(e2eRow<{ role: string }>('SELECT role FROM accounts WHERE id = ?', target.account.id).role).toBe('moderator');
  const note = e2eRow<{ type: number; extra_info: string }>(
    'SELECT type, extra_info FROM notifications WHERE account_id = ?',
    target.account.id,
  );
  expect(note.type).toBe(1);
  expect(JSON.parse(note.extra_info)).toEqual({ old_role: 'consumer', new_role: 'moderator' });

  // The administrator's own card offers no role form, nor does any administrator's.
  await page.goto(`/account/administrator/account/${admin.account.id}`);
  await expect(page.getByRole('article', { name: `Account ${admin.account.username}` })).toBeVisible();
  await expect(page.locator('.role-form')).toHaveCount(0);
  await context.close();

  // The promoted account sees the change among its notifications.
  const targetContext = await browser.newContext();
  await targetContext.addCookies([{ name: 'session', value: target.token, url: `http://127.0.0.1:${E2E_PORT}` }]);
  const targetPage = await targetContext.newPage();
  await targetPage.goto('/account');
  await expect(targetPage.locator('.account-links__count')).toHaveText('(1)');
  await targetPage.goto('/account/notifications');
  await expect(targetPage.getByText('Your role was changed from consumer to moderator.')).toBeVisible();
  await targetContext.close();
});

test('an administrator removes a creator from its linked accounts; others never see the button', async ({ browser }) => {
  // Its own pair of creators, so that the demo's links other specs look at stay as they are.
  const suffix = String(Date.now() % 1e9);
  const pair = [
    { service: 'gumroad', id: `unlink-a-${suffix}`, name: `Unlink A ${suffix}` },
    { service: 'boosty', id: `unlink-b-${suffix}`, name: `Unlink B ${suffix}` },
  ];
  const db = openDatabase(E2E_DB_FILE);
  try {
    for (const creator of pair) await upsertCreator(db, creator);
    await linkCreators(db, pair[0], pair[1]);
  } finally {
    db.close();
  }
  const linksPath = `/${pair[0].service}/user/${pair[0].id}/links`;

  const consumerContext = await browser.newContext();
  await signInAs(consumerContext, 'consumer');
  const consumerPage = await consumerContext.newPage();
  await consumerPage.goto(linksPath);
  await expect(consumerPage.getByRole('link', { name: pair[1].name })).toBeVisible();
  await expect(consumerPage.locator('astro-island[ssr]')).toHaveCount(0);
  await expect(consumerPage.getByRole('button', { name: 'Remove from linked accounts' })).toHaveCount(0);
  await consumerContext.close();

  const context = await browser.newContext();
  await signInAs(context, 'administrator');
  const page = await context.newPage();
  page.on('dialog', (dialog) => dialog.accept());
  await page.goto(linksPath);
  await page.getByRole('button', { name: 'Remove from linked accounts' }).click();
  await expect(page.getByRole('status')).toContainText('Removed from its linked accounts.');
  expect(
    e2eRow<{ relation_id: number | null }>('SELECT relation_id FROM creators WHERE service = ? AND id = ?', pair[0].service, pair[0].id)
      .relation_id,
  ).toBeNull();
  await context.close();
});
