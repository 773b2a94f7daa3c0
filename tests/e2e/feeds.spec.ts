/**
 * Feeds on the site: the creator page announces its RSS and Atom feeds in <head> and links to them
 * visibly; the links work without JavaScript, answer XML, reach the keyboard and fit a phone.
 */
import { expect, test, type Page } from '@playwright/test';
import { e2eRow } from './e2e-db.ts';

const creator = () =>
  e2eRow<{ id: string; name: string }>(`
    SELECT c.id, c.name FROM creators c
    WHERE c.service = 'patreon' AND EXISTS (SELECT 1 FROM posts p WHERE p.service = c.service AND p."user" = c.id)
    ORDER BY c.id LIMIT 1`);

async function expectFeedLinks(page: Page, name: string): Promise<void> {
  const { id } = creator();
  const rss = `/patreon/user/${id}/feed.rss`;
  const atom = `/patreon/user/${id}/feed.atom`;
  await expect(page.locator('head link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute('href', rss);
  await expect(page.locator('head link[rel="alternate"][type="application/atom+xml"]')).toHaveAttribute('href', atom);
  const rssLink = page.getByRole('link', { name: `Posts of ${name}: RSS feed` });
  const atomLink = page.getByRole('link', { name: `Posts of ${name}: Atom feed` });
  await expect(rssLink).toBeVisible();
  await expect(atomLink).toBeVisible();
  await expect(rssLink).toHaveAttribute('href', rss);
  await expect(atomLink).toHaveAttribute('href', atom);
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the creator page has autodiscovery links and visible feed links that answer XML', async ({ page }) => {
    const { id, name } = creator();
    expect((await page.goto(`/patreon/user/${id}`))?.status()).toBe(200);
    await expectFeedLinks(page, name);
    for (const [label, type] of [
      ['RSS', 'application/rss+xml'],
      ['Atom', 'application/atom+xml'],
    ]) {
      const href = await page.getByRole('link', { name: `Posts of ${name}: ${label} feed` }).getAttribute('href');
      const answer = await page.request.get(href!);
      expect(answer.status()).toBe(200);
      expect(answer.headers()['content-type']).toBe(`${type}; charset=utf-8`);
      const body = await answer.text();
      expect(body.startsWith('<?xml')).toBe(true);
      expect(body).toContain(name);
    }
  });
});

test('the feed links are reached with the keyboard', async ({ page }) => {
  const { id, name } = creator();
  await page.goto(`/patreon/user/${id}`);
  const rss = page.getByRole('link', { name: `Posts of ${name}: RSS feed` });
  // Tab through the page until the RSS link has the focus (it comes after the header and the tabs).
  let focused = false;
  for (let step = 0; step < 80 && !focused; step += 1) {
    await page.keyboard.press('Tab');
    focused = await rss.evaluate((element) => element === document.activeElement);
  }
  expect(focused).toBe(true);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: `Posts of ${name}: Atom feed` })).toBeFocused();
});

for (const width of [390, 1280]) {
  test(`the feed links fit the page at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const { id, name } = creator();
    await page.goto(`/patreon/user/${id}`);
    await expectFeedLinks(page, name);
    for (const label of ['RSS', 'Atom']) {
      const box = await page.getByRole('link', { name: `Posts of ${name}: ${label} feed` }).boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      // Large enough to tap.
      expect(box!.height).toBeGreaterThanOrEqual(24);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}
