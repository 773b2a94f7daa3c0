/**
 * The "Similar creators" section of a creator's page, on the demo archive (whose favourites and tags are
 * scored when it is seeded): cards of the stored list, best first, each linking to its creator, at a
 * desktop and a phone width, with the keyboard; no section on a later page or for a creator with none.
 */
import { expect, test } from '@playwright/test';
import { creatorUrl } from '@shared/urls.ts';
import { SIMILAR_PAGE_CARDS } from '@shared/constants.ts';
import { e2eRow, readE2eDb } from './e2e-db.ts';

interface Listed {
  service: string;
  id: string;
  name: string;
}

/** The creator with the longest stored list (posting, so that its page is a posts page), and its list. */
function creatorWithSimilar(): { creator: Listed; similar: Listed[] } {
  const creator = e2eRow<Listed>(`
    SELECT c.service, c.id, c.name FROM similar_creators s JOIN creators c ON c.service = s.service AND c.id = s.creator_id
     WHERE c.service <> 'discord'
     GROUP BY c.service, c.id ORDER BY count(*) DESC, c.service, c.id LIMIT 1`);
  const similar = readE2eDb(
    (db) =>
      db
        .prepare(
          `SELECT c.service, c.id, c.name FROM similar_creators s JOIN creators c ON c.service = s.similar_service AND c.id = s.similar_id
            WHERE s.service = ? AND s.creator_id = ? ORDER BY s.score DESC, c.service, c.id LIMIT ?`,
        )
        .all(creator.service, creator.id, SIMILAR_PAGE_CARDS) as Listed[],
  );
  return { creator, similar };
}

for (const width of [1280, 390]) {
  test(`the creator page shows its similar creators, linking to them (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const { creator, similar } = creatorWithSimilar();
    expect(similar.length).toBeGreaterThan(0);
    await page.goto(creatorUrl(creator.service, creator.id));
    const section = page.getByRole('region', { name: 'Similar creators' });
    await expect(section).toBeVisible();
    const cards = section.locator('.creator-card');
    await expect(cards).toHaveCount(similar.length);
    await expect(section.locator('.creator-card__name')).toHaveText(similar.map((entry) => entry.name));
    const first = section.getByRole('link').first();
    await expect(first).toHaveAttribute('href', creatorUrl(similar[0].service, similar[0].id));
    // Fits the width: no card wider than the viewport.
    const box = await cards.first().boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(width);
    // With the keyboard: focus the first card's link and follow it.
    await first.focus();
    await expect(first).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(creatorUrl(similar[0].service, similar[0].id));
  });
}

test('no section past the first page, nor for a creator with nothing similar', async ({ page }) => {
  const paged = e2eRow<Listed | undefined>(`
    SELECT c.service, c.id, c.name FROM creators c
     WHERE EXISTS (SELECT 1 FROM similar_creators s WHERE s.service = c.service AND s.creator_id = c.id)
       AND (SELECT count(*) FROM posts p WHERE p.service = c.service AND p."user" = c.id) > 50
     ORDER BY c.service, c.id LIMIT 1`);
  if (paged) {
    await page.goto(`${creatorUrl(paged.service, paged.id)}?o=50`);
    await expect(page.locator('.post-card').first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Similar creators' })).toHaveCount(0);
  }
  const lonely = e2eRow<Listed | undefined>(`
    SELECT c.service, c.id, c.name FROM creators c
     WHERE c.service <> 'discord' AND NOT EXISTS (SELECT 1 FROM similar_creators s WHERE s.service = c.service AND s.creator_id = c.id)
     ORDER BY c.service, c.id LIMIT 1`);
  test.skip(!lonely, 'every demo creator has similar creators');
  await page.goto(creatorUrl(lonely!.service, lonely!.id));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Similar creators' })).toHaveCount(0);
});
