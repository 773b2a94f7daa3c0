/**
 * The archive file page (/file/{hash}) in Chromium against the real server: the password form (empty,
 * wrong, right, remembered after a reload), a 7z whose names appear only with the password, Go Back,
 * not found, a missing hash, and the /posts/archives/{hash} redirect. The archives are made for this
 * run (random content, so fresh hashes) and added the way an import adds files: into the store and
 * the database of the e2e data folder.
 */
import { expect, test, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import { openDatabase } from '@api/data/db.ts';
import { registerFile } from '@api/data/files.ts';
import { storeFile } from '@api/media/store.ts';
import { dataPaths } from '@api/config.ts';
import { FIXTURE_PASSWORD, encryptedZip, headerEncrypted7z, type FixtureEntry } from '../helpers/archive-fixtures.ts';

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 375, height: 740 };

let zipHash: string;
let sevenZipHash: string;
const run = randomBytes(6).toString('hex');
const entries: FixtureEntry[] = [
  { name: `notes_${run}.txt`, data: Buffer.from(`run ${run}\n`) },
  { name: 'art/sketch.txt', data: Buffer.from('sketch\n') },
];

test.beforeAll(async () => {
  const files = dataPaths(E2E_DATA_DIR).files;
  const db = openDatabase(path.join(E2E_DATA_DIR, 'trove.sqlite'));
  try {
    const zip = await storeFile(files, await encryptedZip(FIXTURE_PASSWORD, entries), 'zip');
    await registerFile(db, { hash: zip.sha256, size: zip.size, ext: 'zip' });
    zipHash = zip.sha256;
    const sevenZip = await storeFile(files, await headerEncrypted7z(FIXTURE_PASSWORD, entries), '7z');
    await registerFile(db, { hash: sevenZip.sha256, size: sevenZip.size, ext: '7z' });
    sevenZipHash = sevenZip.sha256;
  } finally {
    db.close();
  }
});

const NAMES = entries.map((e) => e.name).sort();

async function shownNames(page: Page): Promise<string[]> {
  await expect(page.locator('.archive-file__list li').first()).toBeVisible();
  return (await page.locator('.archive-file__list li').allTextContents()).map((name) => name.trim()).sort();
}

function form(page: Page) {
  const root = page.getByRole('form', { name: 'Archive password' });
  return {
    root,
    input: root.getByLabel(/needs a password/),
    submit: root.getByRole('button', { name: 'Submit' }),
    errors: root.getByRole('alert'),
    status: root.getByRole('status'),
  };
}

test('the password form: empty, wrong, then right; the password and list stay after a reload', async ({ page }) => {
  await page.setViewportSize(WIDE);
  const answer = await page.goto(`/file/${zipHash}`);
  expect(answer?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Archive file' })).toBeVisible();
  await expect(page.locator('.archive-file__hash code')).toHaveText(zipHash);
  await expect(page.getByRole('link', { name: 'Find Posts' })).toHaveAttribute('href', `/search_hash?hash=${zipHash}`);
  // Zip names are not encrypted: they show before the password is known.
  expect(await shownNames(page)).toEqual(NAMES);

  const f = form(page);
  await expect(f.status).toHaveText('Ready for submit');
  await f.submit.click();
  await expect(f.errors).toHaveText('Please enter a password.');

  await f.input.fill('not the password');
  await f.submit.click();
  await expect(f.errors).toHaveText('Invalid password.');
  await expect(f.submit).toBeEnabled();
  await expect(f.status).toHaveText('Ready for submit');

  // Keyboard: the field submits with Enter.
  await f.input.fill(FIXTURE_PASSWORD);
  await Promise.all([page.waitForEvent('load'), f.input.press('Enter')]);
  await expect(page.locator('.archive-file__password code')).toHaveText(FIXTURE_PASSWORD);
  await expect(page.getByRole('form', { name: 'Archive password' })).toHaveCount(0);

  await page.reload();
  await expect(page.locator('.archive-file__password code')).toHaveText(FIXTURE_PASSWORD);
  expect(await shownNames(page)).toEqual(NAMES);
});

test('a 7z with encrypted headers shows its names once the password is given', async ({ page }) => {
  await page.setViewportSize(NARROW);
  await page.goto(`/file/${sevenZipHash}`);
  await expect(page.getByText('The names of the files are hidden until the password is known.')).toBeVisible();
  await expect(page.locator('.archive-file__list')).toHaveCount(0);
  // Nothing overflows sideways on a small phone, not even the 64-character hash.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);

  const f = form(page);
  await f.input.fill(FIXTURE_PASSWORD);
  await Promise.all([page.waitForEvent('load'), f.submit.click()]);
  expect(await shownNames(page)).toEqual(NAMES);
  await expect(page.locator('.archive-file__password code')).toHaveText(FIXTURE_PASSWORD);
});

test('Go Back returns to the previous page of this site, or without one follows its link', async ({ page, baseURL }) => {
  await page.goto('/posts');
  await page.goto(`/file/${zipHash}`, { referer: `${baseURL}/posts` });
  await page.getByRole('link', { name: 'Go Back' }).click();
  await expect(page).toHaveURL(/\/posts$/);

  // A first visit (no history here): the link leads to the file's posts (here: the hash search).
  const fresh = await page.context().newPage();
  await fresh.goto(`/file/${zipHash}`);
  await fresh.getByRole('link', { name: 'Go Back' }).click();
  await expect(fresh).toHaveURL(new RegExp(`/search_hash\\?hash=${zipHash}$`));
});

test("an unknown hash is 'Archive file not found.' (404), a missing one 'File hash is required.' (400)", async ({ page }) => {
  const missing = await page.goto(`/file/${'0'.repeat(64)}`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('alert')).toHaveText('Archive file not found.');

  const empty = await page.goto('/file/');
  expect(empty?.status()).toBe(400);
  await expect(page.getByRole('alert')).toHaveText('File hash is required.');

  const malformed = await page.goto('/file/not-a-hash');
  expect(malformed?.status()).toBe(400);
  await expect(page.getByRole('alert')).toHaveText('Invalid hash!');
});

test('/posts/archives/{hash} redirects to /file/{hash}', async ({ page }) => {
  const answer = await page.goto(`/posts/archives/${zipHash}`);
  expect(page.url()).toMatch(new RegExp(`/file/${zipHash}$`));
  expect(answer?.status()).toBe(200);
  const request = answer?.request().redirectedFrom();
  expect(request?.url()).toMatch(new RegExp(`/posts/archives/${zipHash}$`));
  expect((await request?.response())?.status()).toBe(301);
});
