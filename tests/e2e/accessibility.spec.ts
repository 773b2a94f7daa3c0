/**
 * axe-core (@axe-core/playwright) on the main pages of the demo archive, at 1280 and 390 px: no serious
 * or critical violation, and no two landmarks sharing a role and a label (landmark-unique). Each page is
 * checked once its islands have hydrated. The shell is also checked signed in (the Account items and
 * the pending-DMs dot) and with the sidebar opened over the page on a phone.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { e2eRow, signInBrowser } from './e2e-db.ts';
import { creatorUrl, postUrl } from '@shared/urls.ts';

const WIDTHS = [1280, 390];

/** The pages checked, by name; the ids come from the demo archive. */
const PAGES: Record<string, () => string> = {
  home: () => '/',
  artists: () => '/artists',
  creator: () => {
    const post = showcase();
    return creatorUrl(post.service, post.user);
  },
  post: () => {
    const post = showcase();
    return postUrl(post.service, post.user, post.id);
  },
  posts: () => '/posts',
  'hash search': () => '/search_hash',
  importer: () => '/importer',
  login: () => '/authentication/login',
  'Discord server': () =>
    `/discord/server/${e2eRow<{ id: string }>(`SELECT server_id AS id FROM discord_channels WHERE type <> 4 ORDER BY post_count DESC LIMIT 1`).id}`,
  'archive file': () => `/file/${e2eRow<{ hash: string }>(`SELECT hash FROM files WHERE ext = '.zip' ORDER BY id LIMIT 1`).hash}`,
  // The demo's password-protected zips are stored after its plain ones (scripts/seed/media.ts).
  'archive file with a password': () =>
    `/file/${e2eRow<{ hash: string }>(`SELECT hash FROM files WHERE ext = '.zip' ORDER BY id DESC LIMIT 1`).hash}`,
};

function showcase() {
  return e2eRow<{ service: string; user: string; id: string }>(`SELECT service, "user", id FROM posts WHERE title LIKE 'Dragon keep:%'`);
}

/** Loads the page, waits for the islands to hydrate (client:idle) and runs axe on the whole document. */
async function audit(page: Page, url: string) {
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => setTimeout(resolve, 200))));
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  return new AxeBuilder({ page }).analyze();
}

type Results = Awaited<ReturnType<typeof audit>>;

/** The violations that fail the test, one line per element, so a failure says what to fix. */
function failing(results: Results): string[] {
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical' || violation.id === 'landmark-unique')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ')}`,
      ),
    );
}

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    for (const [name, url] of Object.entries(PAGES)) {
      test(`${name}: no serious or critical axe violations`, async ({ page }) => {
        expect(failing(await audit(page, url()))).toEqual([]);
      });
    }

    test('the shell signed in, with DMs waiting for review', async ({ page, context }) => {
      await signInBrowser(context);
      await page.addInitScript(() => localStorage.setItem('logged_in', 'yes'));
      // The dot appears only while DMs wait; this account has none, so the answer says there are some.
      await page.route('**/api/v1/has_pending_dms', (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: 'true' }),
      );
      await page.goto('/');
      if (width < 1021) await page.locator('button[aria-controls="sidebar"]').click();
      await expect(page.locator('#sidebar .pending-dot')).toBeVisible();
      await page.waitForTimeout(300); // the slide-in transition
      expect(failing(await new AxeBuilder({ page }).analyze())).toEqual([]);
    });
  });
}

test('the sidebar opened over a page on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await audit(page, '/posts');
  await page.locator('button[aria-controls="sidebar"]').click();
  await expect(page.locator('#sidebar')).toBeVisible();
  await page.waitForTimeout(300); // the slide-in transition
  expect(failing(await new AxeBuilder({ page }).analyze())).toEqual([]);
});
