/**
 * The importer end to end, as a user does it: a signed-in user submits a Patreon session key (with DMs
 * and the key kept), the site's own worker imports from the fake Patreon (tests/fakes/patreon-server.ts,
 * started by playwright.config.ts), the status page moves to Finished, the creator, posts, files and
 * comments are on the site, the user approves the DMs, which then show on the creator's DMs tab, and
 * revokes the key. Then an administrator takes the creator down (the second test).
 */
import { expect, test } from '@playwright/test';
import { openDatabase } from '@api/data/db.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { filePath } from '@shared/urls.ts';
import { FAKE_CREATOR_ID, FAKE_CREATOR_NAME, FAKE_PATREON_KEY } from '../fakes/patreon.ts';
import { E2E_DB_FILE, e2eRow, readE2eDb, signInBrowser } from './e2e-db.ts';
import { waitForImportStatus, rebuildStoredPages, allowImportSubmissions, submitKeyUntilFinished } from './import-status.ts';

const NARROW = { width: 375, height: 800 };
const creatorPath = `/patreon/user/${FAKE_CREATOR_ID}`;
/** The fake's 'Fake post 1', the one with comments (tests/fakes/patreon-data.ts). */
const FIRST_POST_ID = '90000001';

test('a signed-in user imports from Patreon, sees the archive, approves the DMs and revokes the key', async ({ page, context }) => {
  test.setTimeout(180_000);
  allowImportSubmissions(
    ['DELETE FROM dms WHERE service = \'patreon\' AND "user" = ?', FAKE_CREATOR_ID],
    // A run stopped before the takedown test below lifted its entry would skip the creator.
    ["DELETE FROM do_not_post WHERE service = 'patreon' AND creator_id = ?", FAKE_CREATOR_ID],
  );
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

/**
 * The takedown of an imported creator, as an administrator does it in the browser: nothing of it stays
 * (pages, API, search, files and thumbnails by hash), a file another creator also uses stays, its URLs
 * answer 410, and a later import of it from the fake Patreon skips it with the do-not-post line.
 * Runs after the import above (this file's tests run in order), and lifts the entry at the end so the
 * next run can import the creator again.
 */
test('an administrator takes the imported creator down; a later import skips it', async ({ browser }) => {
  test.setTimeout(180_000);
  const reason = 'The creator asked for removal by e-mail.';
  const hashes = (
    readE2eDb((db) =>
      db
        .prepare(
          `SELECT DISTINCT f.hash AS hash, s.ext AS ext FROM post_files f JOIN posts p ON p.seq = f.post_seq JOIN files s ON s.hash = f.hash
            WHERE p.service = 'patreon' AND p."user" = ? ORDER BY f.hash`,
        )
        .all(FAKE_CREATOR_ID),
    ) as Array<{ hash: string; ext: string }>
  ).map(({ hash, ext }) => ({ hash, path: filePath(hash, ext) }));
  expect(hashes.length).toBeGreaterThan(1);
  // Another creator uses the first of its files: that one must stay.
  const [shared, ...unique] = hashes;
  const other = { service: 'patreon', id: `shares-a-file-${Date.now() % 1e9}`, name: 'Shares a file' };
  const db = openDatabase(E2E_DB_FILE);
  try {
    await upsertCreator(db, other);
    await upsertPost(db, {
      service: 'patreon',
      user: other.id,
      id: `${other.id}-1`,
      title: 'Same picture',
      file: { name: 'same.png', path: shared.path },
    });
  } finally {
    db.close();
  }

  const context = await browser.newContext();
  await signInBrowser(context, { role: 'administrator' });
  await context.addInitScript(() => {
    localStorage.setItem('logged_in', 'yes');
    localStorage.setItem('role', 'administrator');
  });
  const page = await context.newPage();
  await page.goto(creatorPath);
  await page.getByRole('button', { name: 'Remove (takedown)' }).click();
  const dialog = page.getByRole('dialog', { name: `Remove ${FAKE_CREATOR_NAME}` });
  await dialog.getByLabel(/Reason/).fill(reason);
  const gone = page.waitForResponse(
    (answer) => answer.request().resourceType() === 'document' && new URL(answer.url()).pathname === creatorPath,
  );
  await dialog.getByRole('button', { name: `Remove ${FAKE_CREATOR_NAME}` }).click();
  expect((await gone).status()).toBe(410);
  await page.waitForLoadState('load');
  rebuildStoredPages();

  // No page: 410 on its URLs, and the listings and search no longer show it.
  const visitor = await context.newPage();
  for (const path of [creatorPath, `${creatorPath}/dms`, `${creatorPath}/post/${FIRST_POST_ID}`, `/patreon/post/${FIRST_POST_ID}`]) {
    expect((await visitor.goto(path))?.status(), path).toBe(410);
    await expect(visitor.getByRole('heading', { level: 1 })).toHaveText('Removed');
  }
  for (const path of ['/posts', '/posts?q=Fake+post', '/artists', '/posts/popular']) {
    await visitor.goto(path);
    expect(await visitor.content(), path).not.toContain(FAKE_CREATOR_NAME);
    expect(await visitor.content(), path).not.toContain(`/patreon/user/${FAKE_CREATOR_ID}/post/`);
  }
  // No API answer.
  const api = context.request;
  for (const path of [
    `/api/v1/patreon/user/${FAKE_CREATOR_ID}/profile`,
    `/api/v1/patreon/user/${FAKE_CREATOR_ID}/posts`,
    `/api/v1/patreon/user/${FAKE_CREATOR_ID}/post/${FIRST_POST_ID}`,
  ]) {
    expect((await api.get(path)).status(), path).toBe(404);
  }
  const search = await (await api.get('/api/v1/posts?q=Fake%20post')).json();
  expect(JSON.stringify(search)).not.toContain(FAKE_CREATOR_ID);
  // No file nor thumbnail by hash, except the one another creator uses.
  for (const { hash, path } of unique) {
    expect((await api.get(`/data${path}`)).status(), hash).toBe(404);
    expect((await api.get(`/thumbnail/data${path}`)).status(), hash).not.toBe(200);
    expect((await api.get(`/api/v1/search_hash/${hash}`)).status(), hash).toBe(404);
  }
  expect((await api.get(`/data${shared.path}`)).status()).toBe(200);
  expect(e2eRow<{ n: number }>('SELECT count(*) AS n FROM posts WHERE service = ? AND "user" = ?', 'patreon', FAKE_CREATOR_ID).n).toBe(0);

  // A later import of it from the fake Patreon skips it with the do-not-post line.
  allowImportSubmissions();
  await submitKeyUntilFinished(page, FAKE_PATREON_KEY);
  await expect(page.getByText(`Creator ${FAKE_CREATOR_NAME} is on the do-not-post list; skipped.`, { exact: true })).toBeVisible();
  expect(e2eRow<{ n: number }>('SELECT count(*) AS n FROM creators WHERE service = ? AND id = ?', 'patreon', FAKE_CREATOR_ID).n).toBe(0);
  expect(e2eRow<{ n: number }>('SELECT count(*) AS n FROM posts WHERE service = ? AND "user" = ?', 'patreon', FAKE_CREATOR_ID).n).toBe(0);

  // Lifted, so that the next run imports it again.
  await visitor.goto('/account/administrator/do_not_post');
  const entry = visitor.getByRole('listitem', { name: new RegExp(`the creator ${FAKE_CREATOR_NAME}`) });
  await expect(entry).toContainText(reason);
  visitor.on('dialog', (question) => question.accept());
  await entry.getByRole('button', { name: /^Lift / }).click();
  await expect(entry.getByRole('status')).toHaveText('Lifted.');
  await context.close();
});
