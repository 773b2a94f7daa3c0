/**
 * Chat rendering in a real browser. The hostile page: every payload of tests/components/chat/hostile.ts
 * in one field of each kind of Discord and community messages, rendered by the real components to static HTML
 * with the site's stylesheet and served from a stand-in origin; Chromium parses it, loads (and fails)
 * its media, gets pointer, focus and click events on every element, and nothing may run. The demo page:
 * embed and attachment media stay within 400 by 300 and the layout holds at 375 and 1280 px.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test, type Page } from '@playwright/test';
import DiscordMessages from '@site/components/chat/DiscordMessages.tsx';
import CommunityMessages from '@site/components/chat/CommunityMessages.tsx';
import { COMMUNITY_FIELDS, DISCORD_FIELDS, hostileCommunityPage, hostileDiscordPage } from '../components/chat/hostile.ts';
import { e2eRow } from './e2e-db.ts';
import { siteStylesheet } from '../helpers/stylesheet.ts';

const WIDE = { width: 1280, height: 900 };
const NARROW = { width: 375, height: 800 };
const ORIGIN = 'http://chat-render.test';

// Every field is covered by tests/components/chat/security.test.tsx; the browser gets one field of each
// kind (text, name, link, markdown, media URL, file path and name) with every payload.
const BROWSER_DISCORD_FIELDS = [
  'content',
  'author.global_name',
  'embeds.0.url',
  'embeds.0.thumbnail.url',
  'embeds.1.video.url',
  'attachments.2.path',
];
const BROWSER_COMMUNITY_FIELDS = ['original_json.text', 'embeds.0.title_link'];

function hostileDocument(): string {
  expect(
    [...BROWSER_DISCORD_FIELDS, ...BROWSER_COMMUNITY_FIELDS].filter((f) => !DISCORD_FIELDS.includes(f) && !COMMUNITY_FIELDS.includes(f)),
  ).toEqual([]);
  const discord = BROWSER_DISCORD_FIELDS.map((field) =>
    renderToStaticMarkup(
      createElement(DiscordMessages, {
        messages: hostileDiscordPage(field),
        markedId: '3',
        contentHost: 'https://cdn.test',
        imageHost: '',
      }),
    ),
  );
  const community = BROWSER_COMMUNITY_FIELDS.map((field) =>
    renderToStaticMarkup(createElement(CommunityMessages, { messages: hostileCommunityPage(field), imageHost: '' })),
  );
  const css = siteStylesheet();
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>chat</title><style>${css}</style></head><body><main>${[...discord, ...community].join('\n')}</main></body></html>`;
}

async function serveHostilePage(page: Page, dialogs: string[]) {
  page.on('dialog', async (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
  page.on('popup', (popup) => void popup.close());
  const html = hostileDocument();
  // The stand-in origin serves the page; the browser itself blocks everything else (media, avatars,
  // third parties), so any onerror would fire, without a round trip to the test per request.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setBlockedURLs', {
    urls: [`${ORIGIN}/?*`, 'http://*/*/*', 'https://*', 'http://*.*/*.*', 'data:*', 'javascript:*'],
  });
  await page.route(`${ORIGIN}/`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
  // 'load' comes once every image and video has failed: any onerror has had its chance.
  await page.goto(`${ORIGIN}/`, { waitUntil: 'load' });
}

test('hostile chat content runs nothing in the browser', async ({ page }) => {
  const dialogs: string[] = [];
  await serveHostilePage(page, dialogs);
  await expect(page.locator('.chat-message').first()).toBeVisible();
  const findings = await page.evaluate(async () => {
    const problems: string[] = [];
    for (const element of document.body.querySelectorAll('*')) {
      for (const attribute of element.getAttributeNames()) {
        if (attribute.toLowerCase().startsWith('on')) problems.push(`${element.tagName} ${attribute}`);
      }
    }
    const forbidden = document.body.querySelectorAll('script, iframe, object, embed, form, style, link, meta, base, frame, math');
    forbidden.forEach((element) => problems.push(`element ${element.tagName}`));
    for (const link of document.querySelectorAll('a')) {
      if (!['http:', 'https:'].includes(link.protocol)) problems.push(`link ${link.href}`);
      if (link.target !== '_blank' || link.rel !== 'noopener noreferrer') problems.push(`link target/rel ${link.outerHTML.slice(0, 120)}`);
    }
    for (const media of document.querySelectorAll<HTMLImageElement | HTMLVideoElement>('img, video')) {
      for (const url of [media.getAttribute('src'), media.getAttribute('poster')].filter((u): u is string => !!u)) {
        const parsed = new URL(url, location.href);
        const archive =
          parsed.origin === location.origin && /^\/(thumbnail\/)?data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}/.test(parsed.pathname);
        if (!archive && parsed.origin !== 'https://cdn.test') problems.push(`media ${parsed.href}`);
      }
    }
    // Pointer, focus and click on everything that could carry a handler (links' default action is
    // prevented: following them is not what is tested here).
    document.addEventListener('click', (event) => event.preventDefault(), true);
    for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
      for (const type of ['mouseover', 'click', 'focus', 'error']) element.dispatchEvent(new Event(type));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    return { problems, count: document.querySelectorAll('.chat-message, .chat-community').length };
  });
  expect(findings.problems).toEqual([]);
  expect(findings.count).toBeGreaterThan(350);

  // Real keyboard and pointer too: Tab through the first stretch and hover a spoiler.
  for (let i = 0; i < 30; i += 1) await page.keyboard.press('Tab');
  await page
    .locator('.chat-spoiler')
    .first()
    .hover()
    .catch(() => undefined);
  await page.waitForTimeout(300);
  expect(dialogs).toEqual([]);
});

test('the safety checks above would see a script that runs', async ({ page }) => {
  // Guards the test itself: the same serving and dialog catching notice a payload that does run.
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await page.route('**/*', (route) =>
    route.request().url() === `${ORIGIN}/`
      ? route.fulfill({ status: 200, contentType: 'text/html', body: '<img src=x onerror="alert(1)">' })
      : route.abort(),
  );
  await page.goto(`${ORIGIN}/`);
  await expect.poll(() => dialogs).toEqual(['1']);
});

test('demo embeds and attachments stay within 400 by 300, at 375 and 1280 px', async ({ page }) => {
  const embed = e2eRow<{ server: string; channel: string; id: string }>(
    `SELECT server_id AS server, channel_id AS channel, id FROM discord_messages
      WHERE json_extract(embeds, '$[0].thumbnail.url') IS NOT NULL ORDER BY published DESC LIMIT 1`,
  );
  for (const viewport of [WIDE, NARROW]) {
    await page.setViewportSize(viewport);
    await page.goto(`/discord/server/${embed.server}/${embed.channel}/${embed.id}`);
    const marked = page.locator(`#message-${embed.id}`);
    await expect(marked).toHaveAttribute('aria-current', 'true');
    await expect(marked).toHaveClass(/chat-message--marked/);
    const media = marked.locator('.chat-embed__media').first();
    await expect(media).toBeVisible();
    const box = (await media.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(400.5);
    expect(box.height).toBeLessThanOrEqual(300.5);
    expect(box.width).toBeLessThanOrEqual(viewport.width);
    for (const image of await page.locator('.chat-attachment--image img, .chat-attachment--video').all()) {
      const size = await image.boundingBox();
      if (!size) continue;
      expect(size.width).toBeLessThanOrEqual(400.5);
      expect(size.height).toBeLessThanOrEqual(300.5);
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
  }
});

test('a spoiler is revealed by keyboard focus', async ({ page }) => {
  const spoiler = e2eRow<{ server: string; channel: string; id: string }>(
    `SELECT server_id AS server, channel_id AS channel, id FROM discord_messages WHERE content LIKE '%||%||%' ORDER BY published DESC LIMIT 1`,
  );
  await page.goto(`/discord/server/${spoiler.server}/${spoiler.channel}/${spoiler.id}`);
  const hidden = page.locator(`#message-${spoiler.id} .chat-spoiler`).first();
  const colour = () => hidden.evaluate((element) => getComputedStyle(element).color);
  expect(await colour()).toBe('rgba(0, 0, 0, 0)');
  await hidden.focus();
  await expect.poll(colour).not.toBe('rgba(0, 0, 0, 0)');
});
