/**
 * Whether an <img> has loaded a real picture. `toBeVisible` holds as soon as the element has a box, and
 * `complete` is also true for a picture that failed, so a single read of naturalWidth races the download;
 * this polls until the picture has both finished and decoded to a size.
 */
import { type Locator, expect } from '@playwright/test';

export async function expectImageShown(img: Locator): Promise<void> {
  await expect
    .poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)), { timeout: 15_000 })
    .toBeGreaterThan(0);
}
