/**
 * Takedowns in the browser (docs/product.md#takedowns-on-the-site): an administrator removes a creator
 * from its page through the dialog; its creator URL and a post URL then answer 410 with the removal
 * message, the do-not-post page lists it, and after 'Lift' the creator URL answers 404. The creator is
 * made by the test (with two posts), so the demo archive other specs read stays whole.
 */
import { execFileSync } from 'node:child_process';
import { expect, test, type BrowserContext } from '@playwright/test';
import { openDatabase } from '@api/data/db.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { GONE_MESSAGES, NOT_FOUND_MESSAGE } from '@shared/error-page.ts';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import { E2E_DB_FILE, e2eRow, signInBrowser } from './e2e-db.ts';

const PHONE = { width: 390, height: 844 };

async function signInAs(context: BrowserContext, role: 'consumer' | 'administrator') {
  await signInBrowser(context, { role });
  await context.addInitScript((r) => {
    localStorage.setItem('logged_in', 'yes');
    localStorage.setItem('role', r);
  }, role);
}

/** What the page rebuild does every 30 s in production (the test server runs none). */
function rebuildPages() {
  execFileSync('npx', ['tsx', 'scripts/rebuild.ts'], {
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR, TROVE_ENV: 'test' },
    encoding: 'utf8',
  });
}

test('an administrator takes a creator down; its pages answer 410 until the entry is lifted, then 404', async ({ browser }) => {
  const suffix = String(Date.now() % 1e9);
  const creator = { service: 'patreon', id: `takedown-${suffix}`, name: `Takedown ${suffix}` };
  const db = openDatabase(E2E_DB_FILE);
  try {
    await upsertCreator(db, creator);
    await upsertPost(db, {
      service: creator.service,
      user: creator.id,
      id: `${suffix}1`,
      title: 'First to go',
      published: '2024-02-01T00:00:00',
    });
    await upsertPost(db, {
      service: creator.service,
      user: creator.id,
      id: `${suffix}2`,
      title: 'Second to go',
      published: '2024-02-02T00:00:00',
    });
  } finally {
    db.close();
  }
  const creatorPath = `/${creator.service}/user/${creator.id}`;
  const postPath = `${creatorPath}/post/${suffix}1`;

  // Other roles never see the button.
  const consumerContext = await browser.newContext();
  await signInAs(consumerContext, 'consumer');
  const consumerPage = await consumerContext.newPage();
  await consumerPage.goto(creatorPath);
  await expect(consumerPage.locator('astro-island[ssr]')).toHaveCount(0);
  await expect(consumerPage.getByRole('button', { name: 'Remove (takedown)' })).toHaveCount(0);
  await consumerContext.close();

  const context = await browser.newContext({ viewport: PHONE });
  await signInAs(context, 'administrator');
  const page = await context.newPage();
  await page.goto(creatorPath);
  const open = page.getByRole('button', { name: 'Remove (takedown)' });
  await expect(open).toBeVisible();

  // The keyboard: Enter opens the dialog with the focus in the reason, Escape closes it back to the button.
  await open.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Remove ${creator.name}` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`${creator.name} (patreon ${creator.id})`);
  await expect(dialog.getByLabel(/Reason/)).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();

  await open.click();
  await dialog.getByLabel(/Reason/).fill('The creator asked by e-mail.');
  // The island goes to the creator's URL, the page it is on: wait for that document's answer.
  const reloaded = page.waitForResponse(
    (answer) => answer.request().resourceType() === 'document' && new URL(answer.url()).pathname === creatorPath,
  );
  await dialog.getByRole('button', { name: `Remove ${creator.name}` }).click();
  await reloaded;
  await page.waitForLoadState('load');
  expect(e2eRow<{ n: number }>('SELECT count(*) AS n FROM creators WHERE service = ? AND id = ?', creator.service, creator.id).n).toBe(0);

  rebuildPages();
  // A page of its own: nothing the old document still does can interrupt these visits.
  const visitor = await context.newPage();
  for (const path of [creatorPath, `${creatorPath}/dms`, postPath]) {
    const answer = await visitor.goto(path);
    expect(answer?.status(), path).toBe(410);
    await expect(visitor.getByRole('heading', { level: 1 })).toHaveText('Removed');
    await expect(visitor.getByText(GONE_MESSAGES.creator)).toBeVisible();
  }

  await visitor.goto('/account/administrator/do_not_post');
  const entry = visitor.getByRole('listitem', { name: new RegExp(`the creator ${creator.name} \\(patreon ${creator.id}\\)`) });
  await expect(entry).toContainText('The creator asked by e-mail.');
  await expect(entry.getByRole('link', { name: creator.name })).toHaveAttribute('href', creatorPath);
  visitor.on('dialog', (question) => question.accept());
  await entry.getByRole('button', { name: /^Lift / }).click();
  await expect(entry.getByRole('status')).toHaveText('Lifted.');

  await expect.poll(async () => (await visitor.request.get(creatorPath)).status(), { timeout: 10_000 }).toBe(404);
  const fresh = await context.newPage();
  const after = await fresh.goto(creatorPath);
  expect(after?.status()).toBe(404);
  await expect(fresh.getByText(NOT_FOUND_MESSAGE)).toBeVisible();
  await context.close();
});
