/**
 * The creator tabs other than posts: announcements, fancards, linked accounts and DMs; and the tab row
 * on a phone (it scrolls, shows that it does, and opens on the current tab).
 */
import { expect, test } from '@playwright/test';
import { e2eRow, readE2eDb } from './e2e-db.ts';
import { expectScrollingRow } from './scroll-row.ts';
import { epochToIso } from '@shared/format.ts';
import { paysiteLabel } from '@shared/paysites/index.ts';

const fanbox = () =>
  e2eRow<{ id: string; announcements: number; fancards: number; dms: number }>(`
    SELECT c.id,
      (SELECT count(*) FROM announcements a WHERE a.service = c.service AND a.user_id = c.id) AS announcements,
      (SELECT count(*) FROM fancards f WHERE f.service = c.service AND f.user_id = c.id) AS fancards,
      (SELECT count(*) FROM dms d WHERE d.service = c.service AND d."user" = c.id AND d.status = 'approved') AS dms
    FROM creators c WHERE c.service = 'fanbox' AND c.relation_id IS NOT NULL
    ORDER BY announcements DESC, fancards DESC LIMIT 1`);

test('a fanbox creator shows every tab with counts, and each tab its content', async ({ page }) => {
  const creator = fanbox();
  expect(creator.announcements).toBeGreaterThan(0);
  const base = `/fanbox/user/${creator.id}`;
  await page.goto(base);
  const tabs = page.getByRole('navigation', { name: 'Creator sections' });
  for (const label of ['Posts', 'Fancards', 'Announcements', `DMs (${creator.dms})`, 'Linked Accounts ✓']) {
    await expect(tabs.getByRole('link', { name: label, exact: true })).toBeVisible();
  }

  await tabs.getByRole('link', { name: 'Announcements', exact: true }).click();
  await expect(page).toHaveURL(`${base}/announcements`);
  await expect(page.locator('.announcement')).toHaveCount(creator.announcements);
  await expect(page.locator('.announcement__date').first()).toHaveText(/^(Published|Added): \d{4}-\d{2}$/);
  await expect(tabs.getByRole('link', { name: 'Announcements', exact: true })).toHaveAttribute('aria-current', 'page');

  await page.goto(`${base}/fancards`);
  await expect(page.locator('.fancard')).toHaveCount(creator.fancards);
  await expect(page.locator('.fancard time').first()).toHaveText(/^\d{4}-\d{2}$/);

  await page.goto(`${base}/dms`);
  await expect(page.locator('.dm')).toHaveCount(creator.dms);

  await page.goto(`${base}/links`);
  await expect(page.locator('.linked-list .creator-card').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Link another account' })).toHaveAttribute(
    'href',
    `/account/fanbox/user/${creator.id}/links/new`,
  );
});

test('tabs a paysite does not have answer the spec message or 404', async ({ request }) => {
  const patreon = e2eRow<{ id: string }>(`SELECT id FROM creators WHERE service = 'patreon' LIMIT 1`);
  const fancards = await request.get(`/patreon/user/${patreon.id}/fancards`);
  expect(fancards.status()).toBe(400);
  expect(await fancards.text()).toContain('Service must be &quot;fanbox&quot;.');
  const gumroad = e2eRow<{ id: string }>(`SELECT id FROM creators WHERE service = 'gumroad' LIMIT 1`);
  expect((await request.get(`/gumroad/user/${gumroad.id}/announcements`)).status()).toBe(404);
});

test('a creator without links says so', async ({ page }) => {
  const lonely = e2eRow<{ service: string; id: string }>(
    `SELECT service, id FROM creators WHERE relation_id IS NULL AND service NOT IN ('discord') LIMIT 1`,
  );
  await page.goto(`/${lonely.service}/user/${lonely.id}/links`);
  await expect(page.getByText('No linked accounts found.')).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Creator sections' }).getByRole('link', { name: 'Linked Accounts', exact: true }),
  ).toBeVisible();
});

test('linked accounts are creator cards with their paysite and their updated and indexed dates', async ({ page }) => {
  const creator = fanbox();
  const links = readE2eDb(
    (db) =>
      db
        .prepare(
          `SELECT o.service, o.id, o.name, o.indexed, o.updated FROM creators c JOIN creators o ON o.relation_id = c.relation_id
            WHERE c.service = 'fanbox' AND c.id = ? AND NOT (o.service = c.service AND o.id = c.id) ORDER BY o.service, o.name, o.id`,
        )
        .all(creator.id) as { service: string; id: string; name: string; indexed: number; updated: number }[],
  );
  expect(links.length).toBeGreaterThan(0);
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(`/fanbox/user/${creator.id}/links`);
    const cards = page.locator('.linked-list .creator-card');
    await expect(cards).toHaveCount(links.length);
    for (const [index, link] of links.entries()) {
      const card = cards.nth(index);
      await expect(card.getByRole('link')).toHaveAttribute('href', `/${link.service}/user/${link.id}`);
      await expect(card.locator('.creator-card__icon')).toHaveAttribute('src', `/icons/${link.service}/${link.id}`);
      await expect(card.locator('.creator-card__name')).toHaveText(link.name);
      await expect(card.locator('.creator-card__service')).toHaveText(paysiteLabel(link.service));
      // Name and paysite on lines of their own, not run together.
      const [name, service] = await Promise.all([
        card.locator('.creator-card__name').boundingBox(),
        card.locator('.creator-card__service').boundingBox(),
      ]);
      expect(service!.y).toBeGreaterThanOrEqual(name!.y + name!.height - 1);
      await expect(card.locator('.creator-card__updated time')).toHaveAttribute('datetime', epochToIso(link.updated));
      await expect(card.locator('.creator-card__updated')).toHaveText(/^Updated .*ago$/);
      await expect(card.locator('.creator-card__indexed')).toHaveText(`Indexed ${epochToIso(link.indexed).slice(0, 10)}`);
      await expect(card.locator('.creator-card__indexed time')).toHaveAttribute('datetime', epochToIso(link.indexed));
    }
    await expect(page.getByRole('link', { name: 'Link another account' })).toHaveAttribute(
      'href',
      `/account/fanbox/user/${creator.id}/links/new`,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
  }
});

test('at 390 px the tab row scrolls, shows that it does, opens on the current tab and works from the keyboard', async ({ page }) => {
  const creator = fanbox();
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`/fanbox/user/${creator.id}/links`);
  const row = page.getByRole('navigation', { name: 'Creator sections' }).locator('ul');
  await expectScrollingRow(row, row.getByRole('link', { name: 'Linked Accounts ✓', exact: true }));
  expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
});
