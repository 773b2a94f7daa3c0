/**
 * The generic error page in Chromium at 1280 and 390 px: a 400 (/posts?o=13), a bad search, a guest on
 * an account page (401), an unknown path (404) all show the same view: status, heading, message,
 * where the error came from and the page, status, method and URL; Home and Go Back work, and a bad
 * search can be fixed from the page.
 */
import { expect, test, type Page } from '@playwright/test';

const CLIENT = "The error came from the client's request";

async function expectErrorView(page: Page, expected: { status: number; heading: string; message: string; path: string }) {
  const view = page.locator('section.error-view');
  await expect(view.locator('.error-view__status')).toHaveText(String(expected.status));
  await expect(view.getByRole('heading', { level: 1 })).toHaveText(expected.heading);
  await expect(view.getByRole('alert')).toHaveText(expected.message);
  const details = view.getByRole('region', { name: 'Error details' });
  await expect(details.locator('.error-details__origin')).toContainText(CLIENT);
  const rows = await details
    .locator('dt')
    .evaluateAll((terms) => terms.map((term) => [term.textContent, term.nextElementSibling?.textContent]));
  expect(rows).toEqual([
    ['Page', expected.path],
    ['Status', String(expected.status)],
    ['Method', 'GET'],
    ['URL', expected.path],
  ]);
  await expect(view.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  await expect(view.getByRole('link', { name: 'Go Back', exact: true })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^${expected.heading} \\| `));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 800 },
]) {
  test.describe(`error pages at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a 400 on a listing (/posts?o=13) is the generic error page, and Go Back returns', async ({ page }) => {
      await page.goto('/posts');
      const answer = await page.goto('/posts?o=13');
      expect(answer?.status()).toBe(400);
      await expectErrorView(page, {
        status: 400,
        heading: 'Bad request',
        message: 'Offset 13 is not a multiple of 50.',
        path: '/posts?o=13',
      });
      await page.locator('section.error-view').getByRole('link', { name: 'Go Back', exact: true }).click();
      await expect(page).toHaveURL(/\/posts$/);
    });

    test('a search too short is a 400 page with the search box to fix it', async ({ page }) => {
      const answer = await page.goto('/posts?q=a');
      expect(answer?.status()).toBe(400);
      await expectErrorView(page, {
        status: 400,
        heading: 'Bad request',
        message: 'Search query must be at least 2 characters long.',
        path: '/posts?q=a',
      });
      const box = page.locator('section.error-view').getByRole('searchbox').or(page.locator('section.error-view input[name="q"]'));
      await box.fill('dragon');
      await box.press('Enter');
      await expect(page).toHaveURL(/\/posts\?q=dragon$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Posts');
    });

    test('a guest on an account page gets the 401 page with Login and Register', async ({ page }) => {
      const answer = await page.goto('/account/keys');
      expect(answer?.status()).toBe(401);
      await expectErrorView(page, {
        status: 401,
        heading: 'Login required',
        message: 'You must be registered to access this page.',
        path: '/account/keys',
      });
      await expect(page.locator('section.error-view').getByRole('link', { name: 'Login' })).toHaveAttribute(
        'href',
        '/authentication/login?location=%2Faccount%2Fkeys',
      );
    });

    test('an unknown path is the 404 page of the same view', async ({ page }) => {
      const answer = await page.goto('/no/such/page?x=1');
      expect(answer?.status()).toBe(404);
      await expectErrorView(page, {
        status: 404,
        heading: 'Not found',
        message: 'The page you are looking for does not exist.',
        path: '/no/such/page?x=1',
      });
      await page.locator('section.error-view').getByRole('link', { name: 'Home' }).click();
      await expect(page).toHaveURL(/\/$/);
    });
  });
}
