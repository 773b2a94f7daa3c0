/**
 * Hiding creators and tags in Chromium against the demo archive, at 1280 and 390 px: a guest hides a
 * creator from its card (keyboard), it is gone from /artists and /posts at the first paint (display:none
 * by DOMContentLoaded), its page shows the notice, and the hidden items page shows it again; an account
 * hides a tag on a post page and the API leaves its posts out; stored pages are the same bytes for a
 * guest and an account; a guest's random link skips the creators it hid.
 */
import { expect, test, type Page } from '@playwright/test';
import { HIDING_STORAGE_KEYS } from '@shared/constants.ts';
import { RANDOM_TRIES } from '@site/islands/shell/random-links.ts';
import { e2eRow, readE2eDb, signInBrowser } from './e2e-db.ts';

const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

/** Records, at DOMContentLoaded (before any bundled script ran), the display of the elements matching `selector`. */
async function displaysAtLoad(page: Page, url: string, selector: string): Promise<string[]> {
  await page.addInitScript((sel) => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { __displays: string[] }).__displays = [...document.querySelectorAll(sel)].map(
        (el) => getComputedStyle(el).display,
      );
    });
  }, selector);
  await page.goto(url);
  return page.evaluate(() => (window as unknown as { __displays: string[] }).__displays);
}

/** The creator of the newest post on /posts (its cards are on the first page). */
function newestCreator(): { service: string; id: string; name: string } {
  return e2eRow(
    `SELECT c.service, c.id, c.name FROM posts p JOIN creators c ON c.service = p.service AND c.id = p."user"
      WHERE p.service <> 'discord' ORDER BY p.added DESC, p.seq DESC LIMIT 1`,
  );
}

for (const { name, viewport } of WIDTHS) {
  test.describe(`hiding (${name})`, () => {
    test.use({ viewport });

    test('a guest hides a creator from its card, it vanishes without a flash, and shows it again', async ({ page, context }) => {
      // The creator with the most cards on /posts: other specs import in parallel and push new posts onto
      // that page, and this creator must still be on it when the hidden cards are checked below.
      const first = await page.request.get('/posts').then((r) => r.text());
      const cardCounts = new Map<string, number>();
      for (const [, key] of first.matchAll(/class="post-card" data-id="[^"]*" (data-service="[^"]+" data-user="[^"]+")/g))
        cardCounts.set(key, (cardCounts.get(key) ?? 0) + 1);
      const [mostCards] = [...cardCounts].sort((a, b) => b[1] - a[1]);
      expect(mostCards).toBeDefined();
      const [, service, id] = /data-service="([^"]+)" data-user="([^"]+)"/.exec(mostCards[0]) as RegExpExecArray;
      const creator = e2eRow<{ name: string }>('SELECT name FROM creators WHERE service = ? AND id = ?', service, id);
      const card = `.creator-card[data-service="${service}"][data-id="${id}"]`;
      const postCards = `.post-card[data-service="${service}"][data-user="${id}"]`;

      await page.goto(`/artists?q=${encodeURIComponent(creator.name)}`);
      await page.waitForLoadState('networkidle');
      const hide = page
        .locator(card)
        .first()
        .getByRole('button', { name: `Hide ${creator.name}` });
      await hide.focus();
      await page.keyboard.press('Enter');
      await expect(page.locator(card).first()).toBeHidden();
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem('hidden_items') ?? '{}'))).toEqual({
        creators: [`${service}:${id}`],
        tags: [],
      });

      // Gone at the first paint on the artists list (its search) and the recent posts.
      const artistsPage = await context.newPage();
      expect(await displaysAtLoad(artistsPage, `/artists?q=${encodeURIComponent(creator.name)}`, card)).toContain('none');
      expect((await displaysAtLoad(artistsPage, `/artists?q=${encodeURIComponent(creator.name)}`, card)).every((d) => d === 'none')).toBe(
        true,
      );
      const postsPage = await context.newPage();
      const displays = await displaysAtLoad(postsPage, '/posts', postCards);
      expect(displays.length).toBeGreaterThan(0);
      expect(displays.every((d) => d === 'none')).toBe(true);
      await expect(postsPage.locator('.hidden-note').first()).toContainText('hidden on this page');

      // Its page says so, with "Show this creator".
      const creatorPage = await context.newPage();
      expect(await displaysAtLoad(creatorPage, `/${service}/user/${id}`, '.creator-header')).toEqual(['none']);
      await expect(creatorPage.getByRole('heading', { name: `You hid ${creator.name}` })).toBeVisible();
      await expect(creatorPage.getByRole('button', { name: 'Show this creator' })).toBeVisible();

      // Shown again from the hidden items page.
      await page.goto('/account/hidden');
      const again = page.getByRole('button', { name: new RegExp(`^Show ${creator.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.* again$`) });
      await again.click();
      await expect(page.getByText('No hidden creators.')).toBeVisible();
      await postsPage.goto('/posts');
      await expect(postsPage.locator(postCards).first()).toBeVisible();
    });

    test("the notice's Show this creator brings the page back", async ({ page }) => {
      const creator = newestCreator();
      await page.goto('/posts');
      await page.evaluate(
        (key) => localStorage.setItem('hidden_items', JSON.stringify({ creators: [key], tags: [] })),
        `${creator.service}:${creator.id}`,
      );
      await page.goto(`/${creator.service}/user/${creator.id}`);
      await expect(page.locator('.creator-header')).toBeHidden();
      await page.getByRole('button', { name: 'Show this creator' }).click();
      await expect(page.locator('.creator-header')).toBeVisible();
      await expect(page.locator('.hidden-notice')).toBeHidden();
    });
  });
}

test('an account hides a tag on a post page and the API leaves its posts out', async ({ page, context, browser }) => {
  const { tag, service, user, id } = e2eRow<{ tag: string; service: string; user: string; id: string }>(
    `SELECT t.tag, t.service, t."user", t.post_id AS id FROM post_tags t JOIN tag_counts c ON c.tag = t.tag
      WHERE t.service <> 'discord' ORDER BY c.post_count ASC, t.tag LIMIT 1`,
  );
  await signInBrowser(context);
  await context.addInitScript(() => localStorage.setItem('logged_in', 'yes'));
  await page.goto(`/${service}/user/${user}/post/${id}`);
  await page.waitForLoadState('networkidle');
  const showAll = page.getByRole('button', { name: 'Show all »' });
  if (await showAll.isVisible()) await showAll.click();
  const hide = page.getByRole('button', { name: `Hide tag ${tag}` });
  await expect(hide).toBeVisible();
  await hide.click();
  await expect(hide).toHaveAttribute('aria-pressed', 'true');

  const mine = await page.request.get(`/api/v1/posts?tag=${encodeURIComponent(tag)}`).then((r) => r.json());
  expect(mine.posts).toEqual([]);
  const tags = await page.request.get('/api/v1/posts/tags').then((r) => r.json());
  expect(tags.map((row: { tag: string }) => row.tag)).not.toContain(tag);
  const listed = await page.request.get('/api/v1/account/hidden').then((r) => r.json());
  expect(listed.tags.map((row: { tag: string }) => row.tag)).toEqual([tag]);

  const guest = await browser.newContext();
  const theirs = await guest.request.get(`/api/v1/posts?tag=${encodeURIComponent(tag)}`).then((r) => r.json());
  expect(theirs.posts.length).toBeGreaterThan(0);

  // Stored pages: the same bytes for the account as for a guest.
  const creator = newestCreator();
  for (const url of ['/posts', '/artists', `/${creator.service}/user/${creator.id}`, `/${service}/user/${user}/post/${id}`]) {
    const a = await page.request.get(url).then((r) => r.body());
    const b = await guest.request.get(url).then((r) => r.body());
    expect(a.equals(b), url).toBe(true);
  }
  await guest.close();
  // The account is shared with other specs: show the tag again.
  await hide.click();
  await expect(hide).toHaveAttribute('aria-pressed', 'false');
  expect((await page.request.get('/api/v1/account/hidden').then((r) => r.json())).tags).toEqual([]);
});

test("a guest's random link on a text page skips hidden creators, and takes the last pick when all are", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const everyone = readE2eDb((db) => db.prepare('SELECT service, id FROM creators').all() as { service: string; id: string }[]);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/v1/artists/random') asked.push(request.url());
  });
  // A pick is a creator's page, or a Discord server's first channel (the server's page redirects there).
  const landed = (url: URL) => /^\/[^/]+\/user\/[^/]+$/.test(url.pathname) || url.pathname.startsWith('/discord/server/');
  // Nothing hidden: the link goes to the server's redirect, no API call.
  await page.goto('/dmca');
  await page.locator('#sidebar a[href="/artists/random"]').click();
  await page.waitForURL(landed);
  expect(asked).toEqual([]);

  // Every creator hidden: RANDOM_TRIES picks, then the last one, whose page (unless it is a Discord
  // server's) says it is hidden.
  await page.evaluate(([key, creators]) => localStorage.setItem(key, JSON.stringify({ creators, tags: [] })), [
    HIDING_STORAGE_KEYS.guest,
    everyone.map((c) => `${c.service}:${c.id}`),
  ] as const);
  await page.goto('/dmca');
  await page.locator('#sidebar a[href="/artists/random"]').click();
  await page.waitForURL(landed);
  expect(asked).toHaveLength(RANDOM_TRIES);
  if (!new URL(page.url()).pathname.startsWith('/discord/')) await expect(page.locator('.hidden-notice')).toBeVisible();
  await page.evaluate((key) => localStorage.removeItem(key), HIDING_STORAGE_KEYS.guest);
});
