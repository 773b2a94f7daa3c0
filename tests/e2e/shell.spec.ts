/**
 * Layout shell: sidebar (open/collapsed, saved state, breakpoint, keyboard), header login links (and
 * how they follow a 401 or another tab), footer, 404 page and the static text pages. Runs against
 * `baseURL` (see playwright.config.ts).
 */
import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { PAYSITES } from '@shared/paysites/index.ts';
import { signInBrowser } from './e2e-db.ts';

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 375, height: 740 };

const pkg = JSON.parse(fs.readFileSync(path.resolve('package.json'), 'utf8')) as { version: string };

const sidebar = (page: Page) => page.locator('#sidebar');
/**
 * Tests that only pretend to be signed in (localStorage, no session cookie) answer the sidebar's
 * new-favourites count themselves: the real server's 401 would rightly clear the login state.
 */
const answerNewsCount = (page: Page) =>
  page.route('**/api/v1/account/favorites/new/count', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ count: 0, capped: false }) }),
  );
const toggle = (page: Page) => page.locator('button[aria-controls="sidebar"]');
const sidebarState = (page: Page) => page.evaluate(() => document.documentElement.dataset.sidebar);

async function expectOpen(page: Page) {
  await expect(sidebar(page)).toBeVisible();
  await expect(toggle(page)).toHaveAttribute('aria-expanded', 'true');
  expect(await sidebarState(page)).toBe('open');
}

async function expectClosed(page: Page) {
  await expect(sidebar(page)).toBeHidden();
  await expect(toggle(page)).toHaveAttribute('aria-expanded', 'false');
  expect(await sidebarState(page)).toBe('closed');
}

test.describe('layout at 1280 px', () => {
  test.use({ viewport: WIDE });

  test('sidebar is open, with its sections and links', async ({ page }) => {
    await page.goto('/');
    await expectOpen(page);
    await expect(page.locator('header.site-header')).toBeVisible();
    await expect(page.locator('main#main')).toBeVisible();
    await expect(page.locator('footer.site-footer')).toBeVisible();

    const nav = sidebar(page);
    for (const section of ['Artists', 'Posts', 'Importer', 'Filehaus', 'Account']) {
      await expect(nav.getByRole('heading', { name: section, exact: true })).toBeVisible();
    }
    const links: [string, string][] = [
      ['/artists', 'Search'],
      ['/artists/updated', 'Recent'],
      ['/artists/random', 'Random'],
      ['/posts', 'Search'],
      ['/dms', 'DMs'],
      ['/posts/popular', 'Popular'],
      ['/search_hash', 'Hash Lookup'],
      ['/posts/tags', 'Tags'],
      ['/posts/random', 'Random'],
      ['/importer', 'Import'],
      ['/importer/faq', 'FAQ'],
    ];
    for (const [href, label] of links) {
      await expect(nav.locator(`a[href="${href}"]`)).toHaveText(label);
    }
    // Filehaus is present but disabled (FLAGS.filehaus is false): not a link.
    await expect(nav.locator('a[href="/shares"]')).toHaveCount(0);
    await expect(nav.locator('[aria-disabled="true"]', { hasText: 'Shares' })).toBeVisible();
  });

  test('header has the main links', async ({ page }) => {
    await page.goto('/');
    const header = page.locator('header.site-header');
    for (const [href, label] of [
      ['/', 'Home'],
      ['/artists', 'Artists'],
      ['/posts', 'Posts'],
      ['/importer', 'Import'],
    ]) {
      await expect(header.locator(`nav a[href="${href}"]`, { hasText: label })).toBeVisible();
    }
  });

  test('the sidebar state is kept across reloads', async ({ page }) => {
    await page.goto('/');
    await expectOpen(page);
    await toggle(page).click();
    await expectClosed(page);
    expect(await page.evaluate(() => localStorage.getItem('sidebar_state'))).toBe('closed');

    await page.reload();
    await expectClosed(page);

    await toggle(page).click();
    await expectOpen(page);
    await page.reload();
    await expectOpen(page);
    expect(await page.evaluate(() => localStorage.getItem('sidebar_state'))).toBe('open');
  });

  test('the saved state is applied before first paint', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('sidebar_state', 'closed'));
    await page.goto('/contact', { waitUntil: 'commit' });
    await page.waitForSelector('#sidebar', { state: 'attached' });
    expect(await sidebarState(page)).toBe('closed');
  });

  test('toggle works from the keyboard (Enter and Space)', async ({ page }) => {
    await page.goto('/');
    await toggle(page).focus();
    await page.keyboard.press('Enter');
    await expectClosed(page);
    await page.keyboard.press('Space');
    await expectOpen(page);
    // Escape does nothing while the sidebar is docked on a wide screen.
    await page.keyboard.press('Escape');
    await expectOpen(page);
  });

  test('skip link leads to the main content', async ({ page }) => {
    await page.goto('/');
    await page.keyboard.press('Tab');
    const skip = page.locator('a.skip-link');
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await expect(skip).toHaveAttribute('href', '#main');
  });
});

test.describe('layout at 375 px', () => {
  test.use({ viewport: NARROW });

  test('sidebar is collapsed and opens as an overlay', async ({ page }) => {
    await page.goto('/');
    await expectClosed(page);
    await expect(page.locator('header.site-header')).toBeVisible();
    await expect(page.locator('main#main')).toBeVisible();

    await toggle(page).click();
    await expectOpen(page);
    const backdrop = page.locator('[data-sidebar-backdrop]');
    await expect(backdrop).toBeVisible();
    // The overlay is never saved.
    expect(await page.evaluate(() => localStorage.getItem('sidebar_state'))).toBeNull();

    // A click on the backdrop, beside the sidebar, closes it.
    await backdrop.click({ position: { x: NARROW.width - 20, y: NARROW.height / 2 } });
    await expectClosed(page);
    await expect(backdrop).toBeHidden();
  });

  test('a saved open state does not open it on a narrow screen', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('sidebar_state', 'open'));
    await page.goto('/');
    await expectClosed(page);
  });

  test('keyboard: Enter and Space open it, Escape closes it', async ({ page }) => {
    await page.goto('/');
    await toggle(page).focus();
    await page.keyboard.press('Enter');
    await expectOpen(page);
    await page.keyboard.press('Escape');
    await expectClosed(page);
    await expect(toggle(page)).toBeFocused();

    await page.keyboard.press('Space');
    await expectOpen(page);
    await page.keyboard.press('Escape');
    await expectClosed(page);
  });

  test('header links fit the screen', async ({ page }) => {
    await page.goto('/');
    for (const name of ['Home', 'Artists', 'Posts', 'Import', 'Login', 'Register']) {
      const link = page.locator('header.site-header').getByRole('link', { name, exact: true });
      await expect(link).toBeVisible();
      const box = await link.boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x + box!.width, `${name} is inside the viewport`).toBeLessThanOrEqual(NARROW.width);
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test.describe('resizing across 1020 px', () => {
  test('collapses on narrow and reopens on wide', async ({ page }) => {
    await page.setViewportSize(WIDE);
    await page.goto('/');
    await expectOpen(page);
    await page.setViewportSize({ width: 1020, height: 800 });
    await expectClosed(page);
    await page.setViewportSize({ width: 1021, height: 800 });
    await expectOpen(page);
  });

  test('stays closed on wide when the saved state is closed', async ({ page }) => {
    await page.setViewportSize(WIDE);
    await page.goto('/');
    await toggle(page).click();
    await expectClosed(page);
    await page.setViewportSize({ width: 800, height: 800 });
    await expectClosed(page);
    await page.setViewportSize(WIDE);
    await expectClosed(page);
  });

  test('an overlay opened on narrow stays open on wide', async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 800 });
    await page.goto('/');
    await expectClosed(page);
    await toggle(page).click();
    await expectOpen(page);
    await page.setViewportSize(WIDE);
    await expectOpen(page);
    await expect(page.locator('[data-sidebar-backdrop]')).toBeHidden();
  });
});

test.describe('login-dependent links', () => {
  test.use({ viewport: WIDE });
  test.beforeEach(({ page }) => answerNewsCount(page));

  test('guests see Register and Login', async ({ page }) => {
    await page.goto('/');
    const header = page.locator('header.site-header');
    await expect(header.getByRole('link', { name: 'Login', exact: true })).toHaveAttribute('href', '/authentication/login');
    await expect(header.getByRole('link', { name: 'Register', exact: true })).toHaveAttribute('href', '/authentication/register');
    await expect(header.getByRole('link', { name: 'Favorites', exact: true })).toHaveCount(0);
    await expect(header.getByRole('link', { name: 'Logout', exact: true })).toHaveCount(0);

    const nav = sidebar(page);
    await expect(nav.getByRole('link', { name: 'Register', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
    // A guest's favourites and hidden items live on the device and have their pages.
    await expect(nav.getByRole('link', { name: 'Favorites', exact: true })).toHaveAttribute('href', '/account/favorites');
    await expect(nav.getByRole('link', { name: 'Hidden items', exact: true })).toHaveAttribute('href', '/account/hidden');
    await expect(nav.getByRole('link', { name: 'Keys', exact: true })).toHaveCount(0);
  });

  test('signed-in users see Favorites and Logout', async ({ page }) => {
    await page.route('**/api/v1/has_pending_dms', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: 'false' }),
    );
    await page.goto('/');
    await page.evaluate(() => {
      localStorage.setItem('logged_in', 'yes');
      localStorage.setItem('role', 'consumer');
    });
    await page.reload();

    const header = page.locator('header.site-header');
    await expect(header.getByRole('link', { name: 'Favorites', exact: true })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Logout', exact: true })).toHaveAttribute('href', '/authentication/logout');
    await expect(header.getByRole('link', { name: 'Login', exact: true })).toHaveCount(0);
    await expect(header.getByRole('link', { name: 'Register', exact: true })).toHaveCount(0);

    const nav = sidebar(page);
    for (const [name, href] of [
      ['Account', '/account'],
      ['Keys', '/account/keys'],
      ['Favorites', '/account/favorites'],
      ['Hidden items', '/account/hidden'],
      ['Review DMs', '/account/review_dms'],
      ['Logout', '/authentication/logout'],
    ]) {
      await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await expect(nav.getByRole('link', { name: 'Login', exact: true })).toHaveCount(0);
    await expect(nav.locator('.pending-dot')).toHaveCount(0);
  });

  test('Review DMs shows a red dot when DMs are pending', async ({ page }) => {
    await page.route('**/api/v1/has_pending_dms', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: 'true' }));
    await page.addInitScript(() => localStorage.setItem('logged_in', 'yes'));
    await page.goto('/');
    const review = sidebar(page).locator('a[href="/account/review_dms"]');
    await expect(review.getByRole('img', { name: 'DMs waiting for review' })).toBeVisible();
  });

  test('a failing pending-DMs call is ignored', async ({ page }) => {
    await page.route('**/api/v1/has_pending_dms', (route) => route.fulfill({ status: 500, body: 'oops' }));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.addInitScript(() => localStorage.setItem('logged_in', 'yes'));
    await page.goto('/');
    await expect(sidebar(page).getByRole('link', { name: 'Review DMs', exact: true })).toBeVisible();
    await expect(sidebar(page).locator('.pending-dot')).toHaveCount(0);
    expect(errors).toEqual([]);
  });
});

test.describe('login state changes', () => {
  test.use({ viewport: WIDE });

  test('a 401 from the pending-DMs call (session gone) turns the shell back to guest', async ({ page }) => {
    // The browser believes it is signed in, but it has no session cookie: the real server answers 401.
    await answerNewsCount(page);
    await page.addInitScript(() => {
      localStorage.setItem('logged_in', 'yes');
      localStorage.setItem('favs', '[]');
    });
    const answer = page.waitForResponse('**/api/v1/has_pending_dms');
    await page.goto('/contact');
    expect((await answer).status()).toBe(401);
    const header = page.locator('header.site-header');
    await expect(header.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Logout', exact: true })).toHaveCount(0);
    await expect(sidebar(page).getByRole('link', { name: 'Register', exact: true })).toBeVisible();
    await expect(sidebar(page).getByRole('link', { name: 'Keys', exact: true })).toHaveCount(0);
    expect(await page.evaluate(() => [localStorage.getItem('logged_in'), localStorage.getItem('favs')])).toEqual([null, null]);
    await expect(page.locator('html')).toHaveAttribute('data-auth', 'guest');
  });

  test('logging in and out in another tab is followed without a reload', async ({ context }) => {
    const first = await context.newPage();
    await first.goto('/dmca');
    const header = first.locator('header.site-header');
    await expect(header.getByRole('link', { name: 'Login', exact: true })).toBeVisible();

    const second = await context.newPage();
    await second.goto('/contact');
    await signInBrowser(context);
    await second.evaluate(() => localStorage.setItem('logged_in', 'yes'));
    await expect(header.getByRole('link', { name: 'Logout', exact: true })).toBeVisible();
    await expect(sidebar(first).getByRole('link', { name: 'Review DMs', exact: true })).toBeVisible();

    await second.evaluate(() => localStorage.removeItem('logged_in'));
    await expect(header.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
    await expect(sidebar(first).getByRole('link', { name: 'Review DMs', exact: true })).toHaveCount(0);
  });

  test('the current account page is marked in the sidebar', async ({ page, context }) => {
    await signInBrowser(context);
    await page.addInitScript(() => localStorage.setItem('logged_in', 'yes'));
    await page.goto('/account/keys');
    await expect(sidebar(page).getByRole('link', { name: 'Keys', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(sidebar(page).getByRole('link', { name: 'Account', exact: true })).not.toHaveAttribute('aria-current', 'page');
  });
});

test.describe('pages', () => {
  test.use({ viewport: WIDE });

  test('unknown paths answer 404 with the not-found page', async ({ page }) => {
    const response = await page.goto('/no/such/path');
    expect(response?.status()).toBe(404);
    await expect(page.getByText('The page you are looking for does not exist.')).toBeVisible();
    const main = page.locator('main');
    await expect(main.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('href', '/');
    await expect(main.getByRole('link', { name: 'Go Back', exact: true })).toBeVisible();
    await expect(page).toHaveTitle(/^Not found \| \S/);
  });

  test('Go Back returns to the previous page', async ({ page }) => {
    await page.goto('/contact');
    await page.goto('/no/such/path');
    await page.locator('main').getByRole('link', { name: 'Go Back', exact: true }).click();
    await expect(page).toHaveURL(/\/contact$/);
  });

  const textPages: [string, string][] = [
    ['/', 'Home'],
    ['/2257', '18 U.S.C. 2257 Statement'],
    ['/contact', 'Contact'],
    ['/dmca', 'DMCA'],
    ['/gumroad-and-co', 'Gumroad and co.'],
    ['/matrix', 'Matrix'],
    ['/importer/tutorial', 'Importer tutorial'],
    ['/importer/tutorial_fanbox', 'Fanbox importer tutorial'],
    ['/importer/faq', 'Importer FAQ'],
  ];

  for (const [url, title] of textPages) {
    test(`${url} renders with its title`, async ({ page }) => {
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      await expect(page).toHaveTitle(new RegExp(`^${escaped} \\| \\S`));
      await expect(page.locator('main h1')).toBeVisible();
    });
  }

  test('home lists the paysites and the three prompts', async ({ page }) => {
    await page.goto('/');
    const main = page.locator('main');
    for (const label of ['Patreon', 'Pixiv Fanbox', 'Discord', 'SubscribeStar', 'CandFans']) {
      await expect(main.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(main.locator('a[href="/artists"]')).toBeVisible();
    await expect(main.locator('a[href="/posts"]')).toBeVisible();
    await expect(main.locator('a[href="/importer"]')).toBeVisible();
  });

  test('contact and DMCA promise an answer in 3-5 working days', async ({ page }) => {
    for (const url of ['/contact', '/dmca']) {
      await page.goto(url);
      await expect(page.locator('main')).toContainText('3-5 working days');
    }
  });

  test('the tutorial links to the key help of every paysite', async ({ page }) => {
    await page.goto('/importer/tutorial');
    for (const paysite of PAYSITES) {
      await expect(page.locator(`main a[href="/importer/keys/${paysite}"]`)).toHaveCount(1);
    }
  });

  for (const paysite of PAYSITES) {
    test(`key help for ${paysite}`, async ({ page }) => {
      const response = await page.goto(`/importer/keys/${paysite}`);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle(/ \| \S/);
      await expect(page.locator('main h1')).toBeVisible();
      await expect(page.locator('main a[href="/importer"]').first()).toBeVisible();
    });
  }

  test('the footer shows the version and build environment', async ({ page }) => {
    await page.goto('/');
    const footer = page.locator('footer.site-footer');
    await expect(footer.locator('[data-version]')).toHaveText(`v${pkg.version}`);
    await expect(footer.locator('[data-environment]')).not.toBeEmpty();
  });

  test('the HTML does not depend on the visitor', async ({ request }) => {
    // Dev mode adds render timings to islands; ignore them.
    const normalize = (html: string) => html.replace(/ server-render-time="[^"]*"/g, '');
    for (const url of ['/contact', '/no/such/path']) {
      const guest = normalize(await (await request.get(url)).text());
      const visitor = normalize(
        await (await request.get(url, { headers: { cookie: 'session=abc; logged_in=yes; sidebar_state=closed' } })).text(),
      );
      expect(visitor, url).toBe(guest);
    }
  });
});
