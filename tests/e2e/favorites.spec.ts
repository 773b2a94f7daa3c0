/**
 * Favourites and flags in Chromium against the demo archive: favourite buttons on creator and post
 * pages (guest, busy state, state after reload), the favourites pages (lists, every sort key and order,
 * empty states, 375 px), and flagging a post. Each test signs in a fresh account, so specs stay apart.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { e2eRow, readE2eDb, signInBrowser } from './e2e-db.ts';
import { favoritesUrl } from '@shared/favorites-sort.ts';

const NARROW = { width: 375, height: 740 };

interface CreatorRow {
  service: string;
  id: string;
}
interface PostRow {
  service: string;
  user: string;
  id: string;
}

/** Two creators with posts (not Discord, whose page is the server view). */
const creators = () =>
  readE2eDb(
    (db) =>
      db
        .prepare(
          `SELECT c.service, c.id FROM creators c WHERE c.service IN ('patreon', 'fanbox', 'fantia') AND EXISTS (SELECT 1 FROM posts p WHERE p.service = c.service AND p."user" = c.id) ORDER BY c.service, c.id LIMIT 2`,
        )
        .all() as CreatorRow[],
  );
/** Posts nobody flagged and that no other spec flags (the showcase is the post page spec's). */
const unflaggedPosts = () =>
  readE2eDb(
    (db) =>
      db
        .prepare(
          `SELECT p.service, p."user", p.id FROM posts p
          WHERE p.service <> 'discord' AND p.title NOT LIKE 'Dragon keep:%' AND p.published IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM flags f WHERE f.service = p.service AND f."user" = p."user" AND f.post_id = p.id)
          ORDER BY p.published DESC LIMIT 3`,
        )
        .all() as PostRow[],
  );

const creatorPath = (c: CreatorRow) => `/${c.service}/user/${c.id}`;
const postPath = (p: PostRow) => `/${p.service}/user/${p.user}/post/${p.id}`;

async function signedIn(context: BrowserContext) {
  const session = await signInBrowser(context);
  await context.addInitScript(() => localStorage.setItem('logged_in', 'yes'));
  return session;
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await hydrated(page);
}

/** Every island has hydrated (Astro removes their `ssr` attribute): the page reacts to input. */
async function hydrated(page: Page) {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
}

/** Clicks the favourite button while its server call is held back, so the busy state can be seen. */
async function toggleSlowly(page: Page, from: string, to: string) {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/favorites/**', async (route) => {
    await held;
    await route.continue();
  });
  const button = page.getByRole('button', { name: from });
  await expect(button).toBeEnabled();
  await button.click();
  await expect(page.locator('button.favorite-button')).toBeDisabled();
  release();
  await expect(page.getByRole('button', { name: to })).toBeEnabled();
  await page.unroute('**/api/v1/favorites/**');
}

const cardKeys = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluateAll((cards) => cards.map((card) => `${card.getAttribute('data-service')}/${card.getAttribute('data-id')}`));

test('a guest clicking Favorite keeps it on the device (tests/e2e/guest-favorites.spec.ts has the rest)', async ({ page }) => {
  const [creator] = creators();
  await open(page, creatorPath(creator));
  await page.getByRole('button', { name: '☆ Favorite' }).click();
  await expect(page.getByRole('button', { name: '★ Unfavorite' })).toBeVisible();
  expect(await page.evaluate(() => document.cookie)).toContain(encodeURIComponent(`${creator.service}:${creator.id}`));
});

test('favourite creators and a post, list and sort them, unfavourite', async ({ page, context }) => {
  const session = await signedIn(context);
  const [first, second] = creators();
  const [post] = unflaggedPosts();

  await open(page, '/account/favorites/artists');
  await expect(page.locator('.empty-state')).toContainText('Nobody here but us chickens!');
  await expect(page.locator('.empty-state')).toContainText('There are no profiles.');
  await open(page, '/account/favorites/posts');
  await expect(page.locator('.empty-state')).toContainText('There are no more posts.');

  await open(page, creatorPath(first));
  await toggleSlowly(page, '☆ Favorite', '★ Unfavorite');
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('favs') ?? '[]'))).toEqual([{ service: first.service, id: first.id }]);
  await open(page, creatorPath(first));
  await expect(page.getByRole('button', { name: '★ Unfavorite' })).toBeEnabled();

  await open(page, creatorPath(second));
  await toggleSlowly(page, '☆ Favorite', '★ Unfavorite');
  await open(page, postPath(post));
  await toggleSlowly(page, '☆ Favorite', '★ Unfavorite');
  await open(page, postPath(post));
  await expect(page.getByRole('button', { name: '★ Unfavorite' })).toBeEnabled();

  // Every sort key and order of the profiles, against the database's own order.
  const expected = (orderBy: string) =>
    readE2eDb((db) =>
      (
        db
          .prepare(
            `SELECT c.service, c.id FROM favorite_creators f JOIN creators c ON c.service = f.service AND c.id = f.creator_id WHERE f.account_id = ? ORDER BY ${orderBy}`,
          )
          .all(session.account.id) as CreatorRow[]
      ).map((c) => `${c.service}/${c.id}`),
    );
  await open(page, '/account/favorites/artists');
  await expect(page.locator('.creator-card')).toHaveCount(2);
  expect(await cardKeys(page, '.creator-card')).toEqual(expected('c.updated DESC, f.faved_seq DESC'));
  const sortBy = page.getByLabel('Sort by');
  const order = page.getByLabel('Order');
  const cases: Array<[string, string, string]> = [
    ['faved_seq', 'desc', 'f.faved_seq DESC'],
    ['faved_seq', 'asc', 'f.faved_seq ASC'],
    ['last_imported', 'asc', 'c.last_imported IS NOT NULL, c.last_imported ASC, f.faved_seq ASC'],
    ['last_imported', 'desc', 'c.last_imported IS NULL, c.last_imported DESC, f.faved_seq DESC'],
    ['updated', 'asc', 'c.updated ASC, f.faved_seq ASC'],
  ];
  for (const [key, direction, orderBy] of cases) {
    await sortBy.selectOption(key);
    await order.selectOption(direction);
    const url = favoritesUrl('artists', { o: 0, sort_by: key, order: direction as 'asc' | 'desc' });
    await expect(page).toHaveURL((current) => current.pathname + current.search === url);
    await expect.poll(() => cardKeys(page, '.creator-card')).toEqual(expected(orderBy));
  }
  // Applied without a reload, and kept by one.
  await open(page, page.url());
  expect(await cardKeys(page, '.creator-card')).toEqual(expected('c.updated ASC, f.faved_seq ASC'));
  await expect(sortBy).toHaveValue('updated');
  await expect(order).toHaveValue('asc');

  await page.getByRole('navigation', { name: 'Favorites' }).getByRole('link', { name: 'Posts' }).click();
  await hydrated(page);
  await expect(page.locator('.post-card')).toHaveCount(1);
  await expect(page.locator('.post-card')).toHaveAttribute('data-id', post.id);
  await page.getByLabel('Sort by').selectOption('published');
  await expect(page).toHaveURL(/sort_by=published/);
  await expect(page.locator('.post-card')).toHaveCount(1);

  await open(page, creatorPath(first));
  await toggleSlowly(page, '★ Unfavorite', '☆ Favorite');
  await open(page, '/account/favorites/artists');
  expect(await cardKeys(page, '.creator-card')).toEqual([`${second.service}/${second.id}`]);
});

test('flag a post: Flag, then Flagged, still after a reload', async ({ page, context }) => {
  await signedIn(context);
  const post = unflaggedPosts()[1];
  await open(page, postPath(post));
  page.on('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: '⚑ Flag' }).click();
  await expect(page.getByRole('button', { name: '⚑ Flagged' })).toBeDisabled();
  const row = e2eRow<{ n: number }>(
    `SELECT count(*) AS n FROM flags WHERE service = ? AND "user" = ? AND post_id = ?`,
    post.service,
    post.user,
    post.id,
  );
  expect(row.n).toBe(1);
  // The stored page may predate the flag: the button asks the server when it hydrates.
  await open(page, postPath(post));
  await expect(page.getByRole('button', { name: '⚑ Flagged' })).toBeDisabled();
});

test('the favourites pages fit 375 px', async ({ page, context }) => {
  await signedIn(context);
  await page.setViewportSize(NARROW);
  const [creator] = creators();
  await open(page, creatorPath(creator));
  await page.getByRole('button', { name: '☆ Favorite' }).click();
  await expect(page.getByRole('button', { name: '★ Unfavorite' })).toBeEnabled();
  for (const path of ['/account/favorites/artists', '/account/favorites/posts']) {
    await open(page, path);
    await expect(page.getByLabel('Sort by')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});
