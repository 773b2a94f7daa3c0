/**
 * JavaScript budget of the shell: a page whose only interactive parts are the sidebar and the header
 * (text pages, the home, the not-found page) ships at most 5 KB of JavaScript, gzip: every script
 * Chromium downloads plus the page's inline scripts. The shell is plain Astro scripts over nanostores;
 * React's runtime (about 57 KB gzip) must not be among the downloads.
 */
import { expect, test, type Page } from '@playwright/test';
import zlib from 'node:zlib';
import { signInBrowser } from './e2e-db.ts';

const BUDGET_GZIP_BYTES = 5 * 1024;
const SHELL_ONLY_PAGES = ['/', '/dmca', '/contact', '/importer/faq', '/no/such/path'];

const gzipSize = (body: Buffer | string) => zlib.gzipSync(body, { level: 9 }).length;

interface Weight {
  scripts: Map<string, number>;
  downloaded: number;
  inline: number;
}

/** Loads the page and waits until the network and the main thread are idle; weighs every script. */
async function weigh(page: Page, url: string, signedIn = false): Promise<Weight> {
  const pending: Promise<void>[] = [];
  const scripts = new Map<string, number>();
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    pending.push(
      response.body().then((body) => {
        scripts.set(new URL(response.url()).pathname, gzipSize(body));
      }),
    );
  });
  if (signedIn) await page.addInitScript(() => localStorage.setItem('logged_in', 'yes'));
  const answer = await page.goto(url, { waitUntil: 'networkidle' });
  expect(answer, url).not.toBeNull();
  // Anything waiting for an idle moment (client:idle islands) would load now.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => setTimeout(resolve, 300))));
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  const inlineTexts = await page.$$eval('script:not([src])', (elements) => elements.map((element) => element.textContent ?? ''));
  const inlineText = inlineTexts.filter((text) => text.trim() !== '').join('\n');
  return {
    scripts,
    downloaded: [...scripts.values()].reduce((sum, size) => sum + size, 0),
    inline: inlineText ? gzipSize(inlineText) : 0,
  };
}

test.use({ viewport: { width: 1280, height: 800 } });

for (const url of SHELL_ONLY_PAGES) {
  test(`${url} ships at most 5 KB of JavaScript (gzip)`, async ({ page }) => {
    const weight = await weigh(page, url);
    const listing = [...weight.scripts].map(([name, size]) => `${name} ${size}`).join(', ');
    await expect(page.locator('astro-island'), 'the page has no island: only the shell is interactive').toHaveCount(0);
    expect(weight.downloaded + weight.inline, `downloaded ${weight.downloaded} (${listing}) + inline ${weight.inline}`).toBeLessThanOrEqual(
      BUDGET_GZIP_BYTES,
    );
    // The shell's script runs within it: the toggle closes the docked sidebar.
    await page.locator('button[aria-controls="sidebar"]').click();
    await expect(page.locator('html')).toHaveAttribute('data-sidebar', 'closed');
  });
}

test('a signed-in visitor stays within it too', async ({ page, context }) => {
  await signInBrowser(context);
  const weight = await weigh(page, '/dmca', true);
  expect(weight.downloaded + weight.inline).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
  await expect(page.locator('#sidebar').getByRole('link', { name: 'Keys', exact: true })).toBeVisible();
});
