/**
 * Guest favourites and favourites files in Chromium against the demo archive, at 1280 and 390 px: a guest
 * favourites a creator and a post, sees them on the favourites pages, exports them, registers and finds
 * them in the account; an account imports a kemono-shaped file and sees the report.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { readE2eDb, signInBrowser } from './e2e-db.ts';

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
];

interface Row {
  service: string;
  id: string;
}
interface PostRow extends Row {
  user: string;
}

/** A creator (with posts, not Discord) and a post of another creator, different per viewport. */
function pick(index: number): { creator: Row; post: PostRow } {
  return readE2eDb((db) => {
    const creators = db
      .prepare(
        `SELECT c.service, c.id FROM creators c WHERE c.service IN ('patreon', 'fanbox', 'fantia') AND EXISTS (SELECT 1 FROM posts p WHERE p.service = c.service AND p."user" = c.id) ORDER BY c.service DESC, c.id LIMIT 2`,
      )
      .all() as Row[];
    const creator = creators[index % creators.length];
    const post = db
      .prepare(
        `SELECT service, "user", id FROM posts WHERE service <> 'discord' AND NOT (service = ? AND "user" = ?) ORDER BY published DESC LIMIT 1 OFFSET ?`,
      )
      .get(creator.service, creator.id, index) as PostRow;
    return { creator, post };
  });
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
}

async function noOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
}

const freshName = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-6)}${Math.floor(Math.random() * 100)}`;

VIEWPORTS.forEach((viewport, index) => {
  test(`${viewport.name}: a guest favourites a creator and a post, exports them, registers and keeps them`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const { creator, post } = pick(index);

    await open(page, '/account/favorites/artists');
    await expect(page.getByText('These favourites are kept on this device only.')).toBeVisible();
    await expect(page.locator('.empty-state')).toContainText('There are no profiles.');

    await open(page, `/${creator.service}/user/${creator.id}`);
    await page.getByRole('button', { name: '☆ Favorite' }).click();
    await expect(page.getByRole('button', { name: '★ Unfavorite' })).toBeEnabled();
    await open(page, `/${post.service}/user/${post.user}/post/${post.id}`);
    await page.getByRole('button', { name: '☆ Favorite' }).click();
    await expect(page.getByRole('button', { name: '★ Unfavorite' })).toBeEnabled();
    expect((await page.context().cookies()).find((c) => c.name === 'favorites')?.value).toBe(
      encodeURIComponent(`${creator.service}:${creator.id}`),
    );

    await open(page, '/account/favorites/artists');
    await expect(page.locator('.creator-card')).toHaveCount(1);
    await expect(page.locator('.creator-card')).toHaveAttribute('data-id', creator.id);
    await noOverflow(page);
    await open(page, '/account/favorites/posts');
    await expect(page.locator('.post-card')).toHaveCount(1);
    await expect(page.locator('.post-card')).toHaveAttribute('data-id', post.id);
    await noOverflow(page);

    // Export with the keyboard: focus the button and press Enter.
    const exportButton = page.getByRole('button', { name: 'Export JSON' });
    await exportButton.focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    const file = JSON.parse(fs.readFileSync((await download.path()) ?? '', 'utf8')) as { artists: Row[]; posts: PostRow[] };
    expect(download.suggestedFilename()).toMatch(/^trove-favorites-\d{4}-\d\d-\d\d\.json$/);
    expect(file.artists.map((c) => `${c.service}:${c.id}`)).toEqual([`${creator.service}:${creator.id}`]);
    expect(file.posts.map((p) => `${p.service}:${p.user}:${p.id}`)).toEqual([`${post.service}:${post.user}:${post.id}`]);

    const username = freshName('gf');
    await open(page, '/authentication/register');
    const form = page.getByRole('form', { name: 'Register' });
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Password', { exact: true }).fill('e2e-password');
    await form.getByLabel('Confirm password').fill('e2e-password');
    await form.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL('**/account');

    expect(await page.evaluate(() => localStorage.getItem('guest_favorites'))).toBeNull();
    expect((await page.context().cookies()).find((c) => c.name === 'favorites')).toBeUndefined();
    await open(page, '/account/favorites/artists');
    await expect(page.getByText('These favourites are kept on this device only.')).toHaveCount(0);
    await expect(page.locator('.creator-card')).toHaveAttribute('data-id', creator.id);
    await open(page, '/account/favorites/posts');
    await expect(page.locator('.post-card')).toHaveAttribute('data-id', post.id);
    await open(page, `/${post.service}/user/${post.user}/post/${post.id}`);
    await expect(page.getByRole('button', { name: '★ Unfavorite' })).toBeEnabled();
  });

  test(`${viewport.name}: an account imports a kemono favourites answer and sees the report`, async ({ page, context }) => {
    await page.setViewportSize(viewport);
    await signInBrowser(context);
    await context.addInitScript(() => localStorage.setItem('logged_in', 'yes'));
    const { creator } = pick(index);
    const kemono = [
      { id: creator.id, name: 'From kemono', service: creator.service, faved_seq: 2 },
      { id: 'no-such-creator', name: 'Gone', service: 'patreon', faved_seq: 1 },
    ];

    await open(page, '/account/favorites/artists');
    await expect(page.locator('.empty-state')).toContainText('There are no profiles.');
    await page.getByLabel(/Import a favourites file/).setInputFiles({
      name: 'kemono-favorites.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(kemono)),
    });
    const status = page.getByRole('status').filter({ hasText: 'kemono-favorites.json' });
    await expect(status).toContainText('added 1 creator and 0 posts');
    await expect(status).toContainText('Not in this archive: 1');
    await expect(status).toContainText('patreon:no-such-creator');
    await expect(page.locator('.creator-card')).toHaveAttribute('data-id', creator.id);
    await noOverflow(page);

    await page
      .getByLabel(/Import a favourites file/)
      .setInputFiles({ name: 'big.json', mimeType: 'application/json', buffer: Buffer.alloc(600 * 1024, 32) });
    await expect(page.getByRole('alert')).toContainText('The file is larger than 500 KB');
  });
});

test('a guest imports a CSV into the device list: only what the archive has, and nothing twice', async ({ page }) => {
  const { creator, post } = pick(0);
  const csv = [
    'type,service,creator_id,post_id,name,added',
    `artist,${creator.service},${creator.id},,Someone,2024-01-01T00:00:00`,
    'artist,patreon,no-such-creator,,Gone,',
    `post,${post.service},${post.user},${post.id},A post,`,
  ].join('\n');
  const file = { name: 'favorites.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) };
  await open(page, '/account/favorites/posts');
  await page.getByLabel(/Import a favourites file/).setInputFiles(file);
  const status = page.getByRole('status').filter({ hasText: 'favorites.csv' });
  await expect(status).toContainText('added 1 creator and 1 post');
  await expect(status).toContainText('patreon:no-such-creator');
  await expect(page.locator('.post-card')).toHaveAttribute('data-id', post.id);
  await page.getByLabel(/Import a favourites file/).setInputFiles(file);
  await expect(status).toContainText('added 0 creators and 0 posts; 2 already were favourites');
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('guest_favorites') ?? '{}'));
  expect(stored.creators.map((c: Row) => c.id)).toEqual([creator.id]);
  expect(stored.posts.map((p: PostRow) => p.id)).toEqual([post.id]);
});
