/** Patreon community pages: the channel list, its redirect and empty state, paging and message kinds. */
import { expect, test, type Page } from '@playwright/test';
import { e2eRow } from './e2e-db.ts';

const WIDE = { width: 1280, height: 900 };
const NARROW = { width: 375, height: 800 };

async function expectNoOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

/** Creators by number of community channels: the demo has one with a single long channel and one with three. */
const creatorWith = (channels: 'one' | 'many') =>
  e2eRow<{ creator: string; channel: string; name: string; post_count: number; channels: number }>(
    `SELECT creator_id AS creator, min(channel_id) AS channel, min(name) AS name, max(post_count) AS post_count, count(*) AS channels
       FROM community_channels WHERE service = 'patreon' GROUP BY creator_id HAVING count(*) ${channels === 'one' ? '= 1' : '> 1'} LIMIT 1`,
  );
const messages = (page: Page) => page.locator('.chat-log--community > li');

test('one channel opens straight away; several are listed with their refresh time', async ({ page }) => {
  const single = creatorWith('one');
  await page.goto(`/patreon/user/${single.creator}/community`);
  await expect(page).toHaveURL(`/patreon/user/${single.creator}/community/${single.channel}`);

  const several = creatorWith('many');
  await page.setViewportSize(WIDE);
  await page.goto(`/patreon/user/${several.creator}/community`);
  await expect(page.getByRole('navigation', { name: 'Creator sections' }).getByRole('link', { name: 'Community' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  const items = page.locator('.community-channels__item');
  await expect(items).toHaveCount(several.channels);
  await expect(items.first()).toContainText('Last refreshed:');
  await expectNoOverflow(page);
  await items.first().getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/patreon/user/${several.creator}/community/[^/?]+$`));
  // Fewer than 150 messages: both buttons disabled.
  const pager = page.getByRole('navigation', { name: 'Older and newer messages' }).first();
  await expect(pager.getByRole('button', { name: 'Older' })).toBeDisabled();
  await expect(pager.getByRole('button', { name: 'Newer' })).toBeDisabled();
  await expect(page.getByRole('navigation', { name: 'Channels' }).getByRole('link')).toHaveCount(several.channels);
});

test("a creator without chats has no results, and another creator's channel is invalid", async ({ page }) => {
  const none = e2eRow<{ id: string }>(`SELECT id FROM creators WHERE service = 'patreon' AND has_chats = 0 LIMIT 1`);
  await page.goto(`/patreon/user/${none.id}/community`);
  await expect(page.getByText('No results found.')).toBeVisible();
  const several = creatorWith('many');
  const single = creatorWith('one');
  const wrong = await page.goto(`/patreon/user/${several.creator}/community/${single.channel}`);
  expect(wrong?.status()).toBe(400);
  await expect(page.getByText('Invalid channel ID')).toBeVisible();
});

test('a long channel pages by 150, Older disabled on a page of fewer', async ({ page }) => {
  const single = creatorWith('one');
  expect(single.post_count).toBeGreaterThan(150);
  const base = `/patreon/user/${single.creator}/community/${single.channel}`;
  await page.goto(base);
  await expect(messages(page)).toHaveCount(150);
  const pager = page.getByRole('navigation', { name: 'Older and newer messages' }).first();
  await expect(pager.getByRole('button', { name: 'Newer' })).toBeDisabled();
  await pager.getByRole('link', { name: 'Older' }).click();
  await expect(page).toHaveURL(`${base}?o=150`);
  await expect(messages(page)).toHaveCount(Math.min(150, single.post_count - 150));
  await expect(pager.getByRole('button', { name: 'Older' })).toBeDisabled();
  await pager.getByRole('link', { name: 'Newer' }).click();
  await expect(page).toHaveURL(base);
});

test('roles, deleted messages, replies, embeds and attachments', async ({ page }) => {
  const single = creatorWith('one');
  await page.goto(`/patreon/user/${single.creator}/community/${single.channel}`);
  const log = page.locator('.chat-log--community');
  for (const badge of ['CREATOR', 'ADMIN', 'PATREON'])
    await expect(log.locator('.chat-badge').filter({ hasText: badge }).first()).toBeVisible();
  const plain = log.locator('.chat-community').filter({ hasText: 'A plain patron message.' });
  await expect(plain.locator('.chat-badge')).toHaveCount(0);
  await expect(log.getByText('Invalid embed!').first()).toBeVisible();
  await expect(log.locator('.chat-embed').filter({ hasText: 'Shop update' }).first()).toBeVisible();
  const image = log.locator('.chat-attachment--image img').last();
  await image.scrollIntoViewIfNeeded();
  await expect(image).toBeVisible();
  await expect(log.getByText('Yay!')).toBeVisible();
  // The demo's deleted message is older, on the second page.
  await page.goto(`/patreon/user/${single.creator}/community/${single.channel}?o=150`);
  await expect(log.locator('.chat-community--deleted')).toHaveCount(1);
  await expect(log.getByText('Message deleted')).toBeVisible();
});

for (const [label, viewport] of [
  ['narrow', NARROW],
  ['wide', WIDE],
] as const) {
  test(`a channel fits ${label} screens and its channel links work from the keyboard`, async ({ page }) => {
    const several = creatorWith('many');
    await page.setViewportSize(viewport);
    await page.goto(`/patreon/user/${several.creator}/community/${several.channel}`);
    await expectNoOverflow(page);
    const links = page.getByRole('navigation', { name: 'Channels' }).getByRole('link');
    const target = links.nth(1);
    const href = await target.getAttribute('href');
    await target.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(href!);
    await expect(page.getByRole('navigation', { name: 'Channels' }).locator('a[aria-current="page"]')).toHaveAttribute('href', href!);
  });
}
