/**
 * Checks for rows that scroll sideways on a phone (creator tabs, the chat channel strip): where they
 * stand, whether an element is inside their visible box, and whether their edges show that there is
 * more to scroll to (pixels of a screenshot, read with sharp).
 */
import { expect, type Locator } from '@playwright/test';
import sharp from 'sharp';

/** Whether `item` lies wholly inside the visible box of `row`. */
export async function insideRow(row: Locator, item: Locator): Promise<boolean> {
  const [rowBox, box] = await Promise.all([row.boundingBox(), item.boundingBox()]);
  if (!rowBox || !box) return false;
  return box.x >= rowBox.x - 0.5 && box.x + box.width <= rowBox.x + rowBox.width + 0.5;
}

export async function scrollState(row: Locator): Promise<{ left: number; max: number }> {
  return row.evaluate((el) => ({ left: el.scrollLeft, max: el.scrollWidth - el.clientWidth }));
}

/**
 * How far each edge of the row is from its plain background: the mean colour distance of a few pixels
 * at mid-height, 2 px in from the left and the right edge. The links' text and backgrounds are made
 * transparent for the screenshot, so only the row's own background (and its hints) is measured.
 */
export async function edgeHints(row: Locator): Promise<{ left: number; right: number }> {
  // CSSOM, not a <style> element, so that a Content-Security-Policy on the page does not get in the way.
  const background = await row.evaluate((el) => {
    for (const link of el.querySelectorAll<HTMLElement>('a')) {
      for (const property of ['color', 'background', 'border-color']) link.style.setProperty(property, 'transparent', 'important');
    }
    const probe = document.createElement('div');
    probe.style.color = getComputedStyle(el).getPropertyValue('--strip-bg');
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color.match(/\d+/g)!.slice(0, 3).map(Number);
  });
  try {
    const { data, info } = await sharp(await row.screenshot({ animations: 'disabled' }))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const distance = (x: number) => {
      let sum = 0;
      const rows = [-2, -1, 0, 1, 2].map((d) => Math.floor(info.height / 2) + d);
      for (const y of rows) {
        const at = (y * info.width + x) * info.channels;
        sum += Math.abs(data[at] - background[0]) + Math.abs(data[at + 1] - background[1]) + Math.abs(data[at + 2] - background[2]);
      }
      return sum / rows.length;
    };
    return { left: distance(2), right: distance(info.width - 3) };
  } finally {
    await row.evaluate((el) => {
      for (const link of el.querySelectorAll<HTMLElement>('a')) link.removeAttribute('style');
    });
  }
}

/**
 * The row overflows, opens with `current` in sight, shows a hint only at the edges with more beyond
 * them (at the start, then at the end), and Tab moves through its links with each one scrolled into view.
 */
export async function expectScrollingRow(row: Locator, current: Locator): Promise<void> {
  const { max } = await scrollState(row);
  expect(max).toBeGreaterThan(0);
  await expect.poll(() => insideRow(row, current)).toBe(true);

  await row.evaluate((el) => el.scrollTo({ left: 0, behavior: 'instant' }));
  const atStart = await edgeHints(row);
  expect(atStart.left).toBeLessThan(8);
  expect(atStart.right).toBeGreaterThan(30);
  await row.evaluate((el) => el.scrollTo({ left: el.scrollWidth, behavior: 'instant' }));
  const atEnd = await edgeHints(row);
  expect(atEnd.left).toBeGreaterThan(30);
  expect(atEnd.right).toBeLessThan(8);

  const links = row.getByRole('link');
  const count = await links.count();
  await links.first().focus();
  for (let index = 0; index < count; index += 1) {
    await expect(links.nth(index)).toBeFocused();
    await expect.poll(() => insideRow(row, links.nth(index))).toBe(true);
    if (index < count - 1) await row.page().keyboard.press('Tab');
  }
}
