/**
 * Shares ('Filehaus') in Chromium against the demo archive: the list, a share page whose links download
 * the right bytes, a creator's Uploads tab with its count, and the upload page signed out and signed in
 * (two files, the progress bar reaching 100%, landing on the new share). At 375 and 1280 px, by keyboard.
 * Expectations come from the e2e database, not from the pages under test.
 */
import { expect, test, type Page } from '@playwright/test';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { e2eRow, readE2eDb, signInBrowser } from './e2e-db.ts';

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 375, height: 740 };
const MUST_REGISTER = 'You must be registered to access this page.';

interface SeededShare {
  id: number;
  name: string;
  service: string;
  creator: string;
  files: { filename: string; hash: string }[];
}

let shares: SeededShare[];
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function creatorShareCount(service: string, creator: string): number {
  return e2eRow<{ n: number }>('SELECT count(*) AS n FROM share_creators WHERE service = ? AND creator_id = ?', service, creator).n;
}

test.beforeAll(() => {
  readE2eDb((db) => {
    const rows = db
      .prepare(
        `SELECT s.id, s.name, sc.service, sc.creator_id AS creator FROM shares s
           JOIN share_creators sc ON sc.share_id = s.id ORDER BY s.id LIMIT 2`,
      )
      .all() as Omit<SeededShare, 'files'>[];
    if (rows.length < 2) throw new Error('the demo archive needs two shares linked to creators');
    const files = db.prepare('SELECT filename, hash FROM share_files WHERE share_id = ? AND hash IS NOT NULL ORDER BY idx');
    shares = rows.map((row) => ({ ...row, files: files.all(row.id) as SeededShare['files'] }));
  });
});

/** No horizontal scrolling: everything fits the viewport. */
async function expectNoOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const viewport of [WIDE, NARROW]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('the Filehaus list links to a share whose files download the right bytes', async ({ page }) => {
      const [sample] = shares;
      await page.goto('/shares');
      await expect(page).toHaveTitle(/^Filehaus \| /);
      await expect(page.getByRole('heading', { level: 1, name: 'Filehaus' })).toBeVisible();
      const link = page.locator('.share-list').getByRole('link', { name: sample.name, exact: true });
      await expect(link).toBeVisible();
      await expectNoOverflow(page);

      // Keyboard: focus the share's link and follow it with Enter.
      await link.focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(new RegExp(`/share/${sample.id}$`));
      await expect(page.getByRole('heading', { level: 1, name: sample.name })).toBeVisible();
      await expectNoOverflow(page);

      const links = page.locator('.share__files a');
      await expect(links).toHaveCount(sample.files.length);
      for (const [index, file] of sample.files.entries()) {
        await expect(links.nth(index)).toHaveText(file.filename);
        const [download] = await Promise.all([page.waitForEvent('download'), links.nth(index).click()]);
        expect(download.suggestedFilename()).toBe(file.filename);
        expect(sha256(fs.readFileSync((await download.path())!))).toBe(file.hash);
      }
    });

    test("a creator's Uploads tab shows the count and the creator's shares", async ({ page }) => {
      const [sample] = shares;
      const count = creatorShareCount(sample.service, sample.creator);
      await page.goto(`/${sample.service}/user/${sample.creator}/shares`);
      const tab = page.locator('nav.tabs a[aria-current="page"]');
      await expect(tab).toHaveText(`Uploads (${count})`);
      await expect(page.locator('.share-card')).toHaveCount(count);
      await expect(page.locator('.share-list').getByRole('link', { name: sample.name, exact: true })).toBeVisible();
      await expectNoOverflow(page);
      // The other tabs carry the same count.
      await page.goto(`/${sample.service}/user/${sample.creator}`);
      await expect(page.locator('nav.tabs').getByRole('link', { name: `Uploads (${count})` })).toBeVisible();
    });

    test('the upload page tells guests to register', async ({ page }) => {
      await page.goto('/posts/upload');
      await expect(page.getByRole('alert')).toHaveText(MUST_REGISTER);
      await expect(page.locator('input[type="file"]')).toHaveCount(0);
      await page.goto('/account/posts/upload');
      await expect(page.getByRole('alert')).toHaveText(MUST_REGISTER);
      await expectNoOverflow(page);
    });
  });
}

test.describe('uploading, signed in', () => {
  for (const viewport of [WIDE, NARROW]) {
    test(`two files at ${viewport.width} px: progress reaches 100% and the new share opens`, async ({ page, context }) => {
      await page.setViewportSize(viewport);
      const target = shares[1];
      await signInBrowser(context);
      // Keeps the highest progress the page showed, across the navigation to the share page.
      await context.addInitScript(() => {
        new MutationObserver(() => {
          const bar = document.querySelector('progress');
          if (!bar) return;
          const best = Math.max(Number(sessionStorage.getItem('upload-progress') ?? -1), Number(bar.value));
          sessionStorage.setItem('upload-progress', String(best));
        }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['value'] });
      });

      // From the creator's header, as a visitor would.
      await page.goto(`/${target.service}/user/${target.creator}`);
      await page.getByRole('link', { name: 'Upload file' }).click();
      await expect(page).toHaveURL(/\/posts\/upload\?/);
      await expect(page.getByLabel('Service')).toHaveValue(target.service);
      await expect(page.getByLabel('Creator ID')).toHaveValue(target.creator);
      await expect(page.getByRole('status')).toHaveText('Ready for submit');
      await expectNoOverflow(page);

      const name = `Upload ${randomBytes(4).toString('hex')}`;
      const big = randomBytes(3 * 1024 * 1024);
      const small = Buffer.from(`notes for ${name}\n`);
      await page.getByLabel('Name').fill(name);
      await page.getByLabel('Description (optional)').fill('Line one\n<b>not bold</b>');
      await page.getByLabel('Files', { exact: true }).setInputFiles([
        { name: 'big.bin', mimeType: 'application/octet-stream', buffer: big },
        { name: 'notes ü.txt', mimeType: 'text/plain', buffer: small },
      ]);
      // Keyboard: from the file input, Tab to the Upload button and press Enter.
      await page.getByLabel('Files', { exact: true }).focus();
      await page.keyboard.press('Tab');
      await expect(page.getByRole('button', { name: 'Upload' })).toBeFocused();
      await page.keyboard.press('Enter');

      await expect(page).toHaveURL(/\/share\/\d+$/, { timeout: 30_000 });
      expect(await page.evaluate(() => sessionStorage.getItem('upload-progress'))).toBe('100');
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      await expect(page.locator('.share__description')).toHaveText('Line one\n<b>not bold</b>');
      const links = page.locator('.share__files a');
      await expect(links).toHaveText(['big.bin', 'notes ü.txt']);
      const [download] = await Promise.all([page.waitForEvent('download'), links.first().click()]);
      expect(sha256(fs.readFileSync((await download.path())!))).toBe(sha256(big));
      await expect(links.nth(1)).toHaveAttribute('href', new RegExp(`${sha256(small)}\\.txt\\?f=`));
    });
  }

  test('a too-large choice is refused before sending', async ({ page, context }) => {
    await signInBrowser(context);
    await page.goto(`/posts/upload?service=${shares[0].service}&user=${shares[0].creator}`);
    await expect(page.getByRole('status')).toHaveText('Ready for submit');
    await page.getByLabel('Name').fill('Too many');
    const files = Array.from({ length: 21 }, (_, i) => ({ name: `${i}.txt`, mimeType: 'text/plain', buffer: Buffer.from(String(i)) }));
    await page.getByLabel('Files', { exact: true }).setInputFiles(files);
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect(page.getByRole('alert')).toHaveText('At most 20 files can be uploaded at once.');
    await expect(page).toHaveURL(/\/posts\/upload/);
  });
});
