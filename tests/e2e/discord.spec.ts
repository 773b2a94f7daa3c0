/** The Discord server view: channels, paging by 150, message links, grouping, embeds and attachments. */
import { expect, test, type Page } from '@playwright/test';
import { e2eRow } from './e2e-db.ts';

const WIDE = { width: 1280, height: 900 };
const NARROW = { width: 375, height: 800 };

/** The demo server's long channel (general-chat: filler, then one message of each kind, newest). */
const longChannel = () =>
  e2eRow<{ server: string; id: string; name: string; post_count: number }>(
    `SELECT server_id AS server, id, name, post_count FROM discord_channels WHERE type <> 4 ORDER BY post_count DESC LIMIT 1`,
  );
const firstChannel = (server: string) =>
  e2eRow<{ id: string; name: string }>(
    `SELECT id, name FROM discord_channels WHERE server_id = ? AND type <> 4 AND parent_channel_id IS NULL ORDER BY position, id LIMIT 1`,
    server,
  );
const messageWith = (channel: string, text: string) =>
  e2eRow<{ id: string }>(
    `SELECT id FROM discord_messages WHERE channel_id = ? AND content LIKE ? ORDER BY published DESC LIMIT 1`,
    channel,
    `%${text}%`,
  );

async function expectNoOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

const messages = (page: Page) => page.locator('.chat-log .chat-message');

test('the server opens its first channel, switches channels, and hides the footer', async ({ page }) => {
  const channel = longChannel();
  const first = firstChannel(channel.server);
  await page.setViewportSize(WIDE);
  await page.goto(`/discord/server/${channel.server}`);
  await expect(page).toHaveURL(`/discord/server/${channel.server}/${first.id}`);
  const channels = page.getByRole('navigation', { name: 'Channels' });
  await expect(channels.getByRole('link', { name: first.name })).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('.site-footer, footer')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Linked accounts' })).toHaveAttribute('href', `/discord/user/${channel.server}/links`);
  await expect(page.locator('.favorite-button').first()).toBeVisible();

  await channels.getByRole('link', { name: channel.name }).click();
  await expect(page).toHaveURL(`/discord/server/${channel.server}/${channel.id}`);
  await expect(channels.getByRole('link', { name: channel.name })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: channel.name, exact: true })).toBeVisible();
  await expect(messages(page)).toHaveCount(150);
  await expectNoOverflow(page);

  // A category is no channel to open: it leads to the first channel.
  const category = e2eRow<{ id: string }>(`SELECT id FROM discord_channels WHERE server_id = ? AND type = 4 LIMIT 1`, channel.server);
  await page.goto(`/discord/server/${channel.server}/${category.id}`);
  await expect(page).toHaveURL(`/discord/server/${channel.server}/${first.id}`);
});

test('Older and Newer step 150 messages, and the ends are disabled', async ({ page }) => {
  const channel = longChannel();
  expect(channel.post_count).toBeGreaterThan(300);
  const base = `/discord/server/${channel.server}/${channel.id}`;
  await page.goto(base);
  const pager = page.getByRole('navigation', { name: 'Older and newer messages' }).first();
  await expect(pager.getByRole('button', { name: 'Newer' })).toBeDisabled();
  const newestOnFirst = await messages(page).last().getAttribute('data-message-id');
  await pager.getByRole('link', { name: 'Older' }).click();
  await expect(page).toHaveURL(`${base}?o=150`);
  await expect(messages(page)).toHaveCount(150);
  await expect(page.locator(`[data-message-id="${newestOnFirst}"]`)).toHaveCount(0);

  const last = Math.floor((channel.post_count - 1) / 150) * 150;
  await page.goto(`${base}?o=${last}`);
  await expect(messages(page)).toHaveCount(channel.post_count - last);
  await expect(pager.getByRole('button', { name: 'Older' })).toBeDisabled();
  await pager.getByRole('link', { name: 'Newer' }).click();
  await expect(page).toHaveURL(last - 150 > 0 ? `${base}?o=${last - 150}` : base);

  // Past the end lands on the oldest page; an offset off the 150 step is the spec's 400.
  await page.goto(`${base}?o=${last + 1500}`);
  await expect(page).toHaveURL(`${base}?o=${last}`);
  const bad = await page.goto(`${base}?o=100`);
  expect(bad?.status()).toBe(400);
  await expect(page.getByText('Offset 100 is not a multiple of 150.')).toBeVisible();
});

test('a message link opens the page holding the message, marked and scrolled into view', async ({ page }) => {
  const channel = longChannel();
  const old = e2eRow<{ id: string }>(
    `SELECT id FROM discord_messages WHERE channel_id = ? ORDER BY published DESC, id DESC LIMIT 1 OFFSET 200`,
    channel.id,
  );
  await page.setViewportSize(WIDE);
  await page.goto(`/discord/server/${channel.server}/${channel.id}/${old.id}`);
  const marked = page.locator(`#message-${old.id}`);
  await expect(marked).toHaveClass(/chat-message--marked/);
  await expect(marked).toHaveAttribute('aria-current', 'true');
  await expect(marked).toBeInViewport();
  await expect(marked).toBeFocused();
  await expect(page.locator('.chat-message--marked')).toHaveCount(1);
  // Page 2 (positions 150-299): Newer goes to the first page.
  await expect(
    page.getByRole('navigation', { name: 'Older and newer messages' }).first().getByRole('link', { name: 'Newer' }),
  ).toHaveAttribute('href', `/discord/server/${channel.server}/${channel.id}`);
  // An unknown message leaves the link at its channel.
  await page.goto(`/discord/server/${channel.server}/${channel.id}/1`);
  await expect(page).toHaveURL(`/discord/server/${channel.server}/${channel.id}`);
});

test('messages of one author less than 7.5 minutes apart share a group', async ({ page }) => {
  const channel = longChannel();
  await page.goto(`/discord/server/${channel.server}/${channel.id}`);
  const welcome = messageWith(channel.id, 'Welcome! Rules are in');
  const links = messageWith(channel.id, 'Links: https://example.com/gallery');
  const group = page.locator('.chat-group').filter({ has: page.locator(`#message-${welcome.id}`) });
  await expect(group.locator('.chat-message')).toHaveCount(4);
  await expect(group.locator('.chat-group__author')).toHaveText('Mikan');
  // Same author 9 minutes later: a group of its own.
  const next = page.locator('.chat-group').filter({ has: page.locator(`#message-${links.id}`) });
  await expect(next.locator('.chat-group__author')).toHaveText('Mikan');
  await expect(next.locator(`#message-${welcome.id}`)).toHaveCount(0);
});

test('markdown, embeds and attachments render, and nothing in a message runs', async ({ page }) => {
  const channel = longChannel();
  let dialogs = 0;
  page.on('dialog', (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });
  await page.goto(`/discord/server/${channel.server}/${channel.id}`);
  const log = page.locator('.chat-log');
  await expect(log.locator('pre code').filter({ hasText: 'const layers' })).toBeVisible();
  await expect(log.locator('code').filter({ hasText: 'ctrl+z' }).first()).toBeVisible();
  await expect(log.locator('blockquote').first()).toBeVisible();
  await expect(log.locator('ul li').filter({ hasText: 'lineart' }).first()).toBeVisible();
  const shop = log.getByRole('link', { name: 'the shop' });
  await expect(shop).toHaveAttribute('target', '_blank');
  await expect(shop).toHaveAttribute('rel', /noopener/);
  await expect(log.getByText('<script>alert("x")</script>', { exact: false })).toBeVisible();
  await expect(log.locator('a[href^="javascript:"]')).toHaveCount(0);

  const rich = log.locator('.chat-embed').filter({ hasText: 'New illustration' });
  await expect(rich.locator('.chat-embed__provider')).toHaveText('Example Art');
  await expect(rich.locator('.chat-embed__author')).toContainText('Mikan');
  await expect(rich.locator('img').first()).toBeVisible();
  expect(await rich.evaluate((el) => getComputedStyle(el).borderLeftColor)).toBe('rgb(235, 69, 158)');
  await expect(log.locator('.chat-embed').filter({ hasText: 'Process video' }).locator('video')).toHaveCount(1);

  // Lazy images load (and take their size) once scrolled to.
  const image = log.locator('.chat-attachment--image img').last();
  await image.scrollIntoViewIfNeeded();
  await expect(image).toBeVisible();
  await expect(log.locator('.chat-attachment--video')).toHaveCount(2);
  await expect(log.locator('.chat-file--archive').filter({ hasText: 'rewards_pack.zip' })).toBeVisible();
  await expect(log.locator('.chat-file').filter({ hasText: 'thank_you.txt' })).toBeVisible();
  expect(dialogs).toBe(0);
});

for (const [label, viewport] of [
  ['narrow', NARROW],
  ['wide', WIDE],
] as const) {
  test(`the channel page fits ${label} screens and works from the keyboard`, async ({ page }) => {
    const channel = longChannel();
    const first = firstChannel(channel.server);
    await page.setViewportSize(viewport);
    await page.goto(`/discord/server/${channel.server}/${channel.id}`);
    await expectNoOverflow(page);
    await expect(page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: first.name })).toBeVisible();
    const link = page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: first.name });
    await link.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`/discord/server/${channel.server}/${first.id}`);
    await expectNoOverflow(page);
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the first page of messages is in the HTML', async ({ page }) => {
    const channel = longChannel();
    await page.goto(`/discord/server/${channel.server}/${channel.id}`);
    await expect(messages(page)).toHaveCount(150);
    await expect(page.getByText('Last message of the showcase.')).toBeVisible();
  });
});
