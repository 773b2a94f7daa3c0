/**
 * The Discord view when things are missing or narrow: avatars with no network (offline installs,
 * deleted avatars), embed media whose files fail, and the channel strip on a phone.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { e2eRow, readE2eDb } from './e2e-db.ts';
import { expectScrollingRow } from './scroll-row.ts';

/** The demo server's long channel, whose first page ends with the showcase (scripts/seed/chat-showcase.ts). */
const longChannel = () =>
  e2eRow<{ server: string; id: string }>(
    `SELECT server_id AS server, id FROM discord_channels WHERE type <> 4 ORDER BY post_count DESC LIMIT 1`,
  );
const messageWith = (channel: string, text: string) =>
  e2eRow<{ id: string; embeds: string }>(
    `SELECT id, embeds FROM discord_messages WHERE channel_id = ? AND content LIKE ? ORDER BY published DESC LIMIT 1`,
    channel,
    `%${text}%`,
  );

/** The RGB of a CSS colour as the page computes it. */
async function cssColor(page: Page, value: string): Promise<number[]> {
  return page.evaluate((color) => {
    const probe = document.createElement('div');
    probe.style.color = color;
    document.body.append(probe);
    const rgb = getComputedStyle(probe).color;
    probe.remove();
    return rgb.match(/\d+/g)!.slice(0, 3).map(Number);
  }, value);
}

/** The colours of an element's screenshot at the given points (CSS pixels, device scale 1). */
async function pixels(element: Locator, points: [number, number][]): Promise<number[][]> {
  const { data, info } = await sharp(await element.screenshot())
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return points.map(([x, y]) => {
    const at = (y * info.width + x) * info.channels;
    return [data[at], data[at + 1], data[at + 2]];
  });
}

const near = (a: number[], b: number[]) => a.every((value, i) => Math.abs(value - b[i]) <= 12);

test('avatars need no network: authors without one get their initial, a failed avatar shows it too', async ({ page }) => {
  const channel = longChannel();
  const chatNetwork: string[] = [];
  // Offline: nothing reaches the chat network's content host.
  await page.route(/^https:\/\/cdn\.discordapp\.com\//, (route) => {
    chatNetwork.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/discord/server/${channel.server}/${channel.id}`);

  const withoutAvatar = readE2eDb(
    (db) =>
      db
        .prepare(
          `SELECT DISTINCT json_extract(author, '$.global_name') AS name FROM discord_messages WHERE channel_id = ? AND json_extract(author, '$.avatar') IS NULL`,
        )
        .all(channel.id) as { name: string }[],
  ).map((row) => row.name);
  expect(withoutAvatar.length).toBeGreaterThan(0);
  for (const name of withoutAvatar) {
    const avatar = page
      .locator('.chat-group')
      .filter({ has: page.locator('.chat-group__author', { hasText: name }) })
      .first()
      .locator('.chat-avatar');
    await expect(avatar).toHaveText(name.slice(0, 1).toUpperCase());
    expect(await avatar.evaluate((el) => el.tagName)).toBe('SPAN');
  }
  await page.locator('.chat-group').last().scrollIntoViewIfNeeded();
  expect(chatNetwork.filter((url) => url.includes('/embed/avatars/'))).toEqual([]);

  // A custom avatar that cannot load: the initial on the avatar's colour covers the broken-image icon.
  // The first one: nothing above it loads late and moves it while the screenshot is taken.
  const failed = page.locator('img.chat-avatar').first();
  await failed.scrollIntoViewIfNeeded();
  await expect.poll(() => failed.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 0)).toBe(true);
  expect(chatNetwork.some((url) => url.includes('/avatars/'))).toBe(true);
  const tone = await cssColor(page, await failed.evaluate((el) => getComputedStyle(el).getPropertyValue('--avatar-tone')));
  // Top left (where Chromium draws the broken-image icon) and top middle, both clear of the letter.
  for (const colour of await pixels(failed, [
    [10, 10],
    [20, 4],
  ]))
    expect(near(colour, tone), `${colour} is the avatar colour ${tone}`).toBe(true);
  expect(await failed.evaluate((el) => getComputedStyle(el, '::after').content)).toBe(`"${await failed.getAttribute('data-initial')}"`);
});

test('embed media that fail to load leave no empty box; a video that cannot play keeps its poster', async ({ page }) => {
  const channel = longChannel();
  const video = messageWith(channel.id, 'And the timelapse:');
  const videoPath = (JSON.parse(video.embeds) as { video: { url: string } }[])[0].video.url;
  const rich = messageWith(channel.id, 'New illustration is out!');
  await page.setViewportSize({ width: 1280, height: 900 });

  // As served: the rich embed shows its image; the demo video cannot play, but its poster shows.
  await page.goto(`/discord/server/${channel.server}/${channel.id}`);
  const videoEmbed = page.locator(`#message-${video.id} .chat-embed`);
  await videoEmbed.scrollIntoViewIfNeeded();
  await expect(videoEmbed.locator('video')).toBeVisible();
  await page.waitForTimeout(500);
  await expect(videoEmbed.locator('video')).toBeVisible();

  // Thumbnails (the image and the poster) and the video file gone: only the embeds' text stays.
  await page.route(/\/thumbnail\//, (route) => route.fulfill({ status: 404, body: '' }));
  await page.route(
    (url) => url.pathname === videoPath,
    (route) => route.fulfill({ status: 404, body: '' }),
  );
  await page.goto(`/discord/server/${channel.server}/${channel.id}`);
  for (const id of [rich.id, video.id]) {
    const embed = page.locator(`#message-${id} .chat-embed`);
    await embed.scrollIntoViewIfNeeded();
    await expect(embed.locator('.chat-embed__title')).toBeVisible();
    await expect(embed.locator('.chat-embed__media')).toBeHidden();
    // What is left is the text: title, provider, description... no 220 px box.
    await expect.poll(async () => (await embed.boundingBox())!.height).toBeLessThan(160);
  }
});

test('at 390 px the channel strip scrolls, shows that it does, opens on the current channel and works from the keyboard', async ({
  page,
}) => {
  const { server } = longChannel();
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`/discord/server/${server}`);
  const row = page.getByRole('navigation', { name: 'Channels' }).locator('ul');
  // The strip's last channel, far past the right edge.
  const last = row.getByRole('link').last();
  const name = (await last.textContent())!;
  await page.goto((await last.getAttribute('href'))!);
  const current = row.locator('a[aria-current="page"]');
  await expect(current).toHaveText(name);
  await expectScrollingRow(row, current);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
});
