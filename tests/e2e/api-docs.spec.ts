/** /documentation/api on a phone: parameter tables, schemas and long paths stay inside the screen. */
import { expect, test } from '@playwright/test';

for (const width of [390, 320, 1280]) {
  test(`the API documentation is no wider than a ${width} px screen`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/documentation/api');
    await expect(page.getByRole('heading', { level: 1, name: 'API documentation' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // Every table, schema and heading keeps to the screen; what is wider scrolls inside its own box.
    const escaping = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('.api-doc .api-table, .api-doc pre, .api-doc h3, .api-toc li'))
        .filter((el) => el.getBoundingClientRect().right > innerWidth + 0.5)
        .map((el) => el.outerHTML.slice(0, 80)),
    );
    expect(escaping).toEqual([]);
    const tables = page.locator('.api-table');
    expect(await tables.count()).toBeGreaterThan(10);
    const scrolling = await tables.evaluateAll((boxes) => boxes.filter((box) => box.scrollWidth > box.clientWidth).length);
    // From 390 px up the parameter tables fit outright (required shows under the name).
    if (width >= 390) expect(scrolling).toBe(0);
    await expect(page.locator('.api-table .api-required').first()).toHaveText('required');
  });
}
