/**
 * Post cards (docs/product.md#post-cards; card size, thumbSize cookie and dates:
 * docs/product.md#display-and-storage) and the creator header's paysite link and Community tab. Expectations
 * come from the e2e database.
 */
import { expect, test, type Page } from '@playwright/test';
import { e2eRow, readE2eDb } from './e2e-db.ts';

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 375, height: 740 };
const DAY_S = 86_400;

interface PostRow {
  service: string;
  user: string;
  id: string;
  title: string;
  content: string;
  file: string | null;
  attachments: string;
  rank: number;
}

const POST_COLUMNS = `p.service, p."user", p.id, p.title, p.content, p.file, p.attachments,
  (SELECT count(*) FROM posts q WHERE q.added > p.added OR (q.added = p.added AND q.seq > p.seq)) AS rank`;

/**
 * The card of a post on the /posts page that lists it (newest added first, 50 a page). Other specs add
 * posts meanwhile and the stored pages follow at their next rebuild, so the neighbouring pages are
 * looked at too.
 */
async function openCard(page: Page, post: PostRow) {
  const offset = Math.floor(post.rank / 50) * 50;
  const card = page.locator(`.post-card[data-service="${post.service}"][data-user="${post.user}"][data-id="${post.id}"]`);
  for (const candidate of [offset, offset + 50, offset - 50].filter((o) => o >= 0)) {
    await page.goto(candidate ? `/posts?o=${candidate}` : '/posts');
    if ((await card.count()) === 1) return card;
  }
  await expect(card, `post ${post.id} is listed on /posts`).toHaveCount(1);
  return card;
}

/** The content's text without tags or spaces (the card may break lines differently). */
function squeezedText(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, '');
}

const imagePath = (path: string | undefined) => !!path && /\.(gif|jpe?g|jpe|png|webp)$/i.test(path);

test.describe('card titles', () => {
  test('a title over 50 characters is cut at 50 with an ellipsis', async ({ page }) => {
    const post = e2eRow<PostRow>(`SELECT ${POST_COLUMNS} FROM posts p WHERE length(p.title) > 50 LIMIT 1`);
    expect(post, 'the demo archive has a long title').toBeTruthy();
    const header = (await openCard(page, post)).locator('.post-card__header');
    await expect(header).toHaveText(`${[...post.title].slice(0, 50).join('')}…`);
  });

  for (const title of ['DM', '']) {
    test(`a title of ${JSON.stringify(title)} falls back to the content, cut at 50`, async ({ page }) => {
      const post = e2eRow<PostRow>(`SELECT ${POST_COLUMNS} FROM posts p WHERE p.title = ? AND length(p.content) > 0 LIMIT 1`, title);
      expect(post, `the demo archive has a post titled ${JSON.stringify(title)}`).toBeTruthy();
      const text = (await (await openCard(page, post)).locator('.post-card__header').textContent())!.trim();
      const content = squeezedText(post.content);
      expect(text).not.toBe('DM');
      expect(text.length).toBeGreaterThan(0);
      const shown = text.replace(/…$/, '');
      expect(content.startsWith(shown.replace(/\s+/g, ''))).toBe(true);
      if ([...content].length > 50) expect(text.endsWith('…')).toBe(true);
      if (text.endsWith('…')) expect([...shown].length).toBe(50);
      else expect(shown.replace(/\s+/g, '')).toBe(content);
    });
  }
});

test.describe('card thumbnails', () => {
  test('an image file is the thumbnail', async ({ page }) => {
    const post = e2eRow<PostRow>(`SELECT ${POST_COLUMNS} FROM posts p WHERE p.file IS NOT NULL ORDER BY p.added DESC LIMIT 1`);
    const path = JSON.parse(post.file!).path as string;
    expect(imagePath(path)).toBe(true);
    await expect((await openCard(page, post)).locator('img.post-card__image')).toHaveAttribute('src', `/thumbnail/data${path}`);
  });

  for (const service of ['fansly', 'candfans', 'boosty', 'gumroad']) {
    test(`${service} takes the thumbnail from an image attachment when the post has no file`, async ({ page }) => {
      const post = readE2eDb((db) =>
        (
          db
            .prepare(`SELECT ${POST_COLUMNS} FROM posts p WHERE p.service = ? AND p.file IS NULL ORDER BY p.added DESC`)
            .all(service) as PostRow[]
        ).find((row) => (JSON.parse(row.attachments) as Array<{ path: string }>).some((attachment) => imagePath(attachment.path))),
      );
      expect(post, `a ${service} post with only attachments`).toBeTruthy();
      const first = (JSON.parse(post!.attachments) as Array<{ path: string }>).find((attachment) => imagePath(attachment.path))!;
      await expect((await openCard(page, post!)).locator('img.post-card__image')).toHaveAttribute('src', `/thumbnail/data${first.path}`);
    });
  }

  test('other paysites never take an attachment as the thumbnail', async ({ page }) => {
    const post = readE2eDb((db) =>
      (
        db
          .prepare(
            `SELECT ${POST_COLUMNS} FROM posts p WHERE p.service NOT IN ('fansly', 'candfans', 'boosty', 'gumroad') AND p.file IS NULL ORDER BY p.added DESC`,
          )
          .all() as PostRow[]
      ).find((row) => (JSON.parse(row.attachments) as Array<{ path: string }>).some((attachment) => imagePath(attachment.path))),
    );
    expect(post, 'a post of another paysite with an image attachment and no file').toBeTruthy();
    const card = await openCard(page, post!);
    await expect(card.locator('img')).toHaveCount(0);
    await expect(card.locator('.post-card__footer')).toContainText(/\d+ attachments?/);
  });
});

/** Boxes of the first cards, of the grid, and of each card's bands. */
async function cardBoxes(page: Page) {
  return page.evaluate(() => {
    const box = (element: Element | null) => {
      if (!element) return null;
      const { left, right, top, bottom, width } = element.getBoundingClientRect();
      return { left, right, top, bottom, width };
    };
    return {
      grid: box(document.querySelector('.card-grid'))!,
      cards: [...document.querySelectorAll('.card-grid .post-card')].map((card) => ({
        card: box(card)!,
        header: box(card.querySelector('.post-card__header'))!,
        image: box(card.querySelector('.post-card__image-container')),
        footer: box(card.querySelector('.post-card__footer'))!,
        footerLines: [...card.querySelectorAll('.post-card__footer > *')].map((line) => box(line)!),
      })),
    };
  });
}

test.describe('card size', () => {
  test('phones show two columns that fill the width', async ({ page }) => {
    await page.setViewportSize(NARROW);
    await page.goto('/posts');
    const { grid, cards } = await cardBoxes(page);
    expect(Math.abs(cards[0].card.top - cards[1].card.top)).toBeLessThan(1);
    expect(cards[2].card.top).toBeGreaterThan(cards[0].card.bottom);
    expect(cards[0].card.left - grid.left).toBeLessThan(2);
    expect(grid.right - cards[1].card.right).toBeLessThan(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
  });

  test('wide screens keep 180 px cards, and the size is kept 399 days in the thumbSize cookie', async ({ page, context }) => {
    await page.setViewportSize(WIDE);
    await page.goto('/posts');
    const { cards } = await cardBoxes(page);
    for (const { card } of cards.slice(0, 5)) expect(card.width).toBeCloseTo(180, 0);
    const cookie = (await context.cookies()).find((candidate) => candidate.name === 'thumbSize');
    expect(cookie?.value).toBe('180');
    expect(cookie?.path).toBe('/');
    expect(cookie?.sameSite).toBe('Lax');
    expect(Math.abs(cookie!.expires - (Date.now() / 1000 + 399 * DAY_S))).toBeLessThan(120);
  });

  test('a saved size applies before first paint, with no layout shift, and resizing adapts it', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    await page.setViewportSize(WIDE);
    await context.addCookies([{ name: 'thumbSize', value: '150', url: `${baseURL}/`, sameSite: 'Lax' }]);
    await page.addInitScript(() => {
      const seen = ((window as unknown as { __shifts: number[] }).__shifts = [] as number[]);
      new PerformanceObserver((list) => {
        // Only the cards count: under load Chromium may paint a half-parsed page, and an element whose text
        // arrives late (the search button) then grows; that is not the saved size coming late.
        type Shift = PerformanceEntry & { value: number; sources: Array<{ node?: Node | null }> };
        for (const entry of list.getEntries() as Shift[])
          if (entry.sources.some(({ node }) => node instanceof Element && node.closest('.post-card, .card-grid'))) seen.push(entry.value);
      }).observe({ type: 'layout-shift', buffered: true });
      document.addEventListener('DOMContentLoaded', () => {
        const first = document.querySelector('.post-card');
        (window as unknown as { __firstWidth: number }).__firstWidth = first ? first.getBoundingClientRect().width : -1;
      });
    });
    await page.goto('/posts');
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as unknown as { __firstWidth: number }).__firstWidth)).toBeCloseTo(150, 0);
    expect((await cardBoxes(page)).cards[0].card.width).toBeCloseTo(150, 0);
    expect(await page.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts)).toEqual([]);

    // The server sends the same page whatever the cookie says (stored pages are the same for everyone).
    // Parallel specs import and the rebuild can rewrite /posts between two requests, so the cookie's answer
    // is compared with plain answers fetched just before and just after it, and fetched again if those differ.
    await expect
      .poll(async () => {
        const before = await (await request.get('/posts')).text();
        const withCookie = await (await request.get('/posts', { headers: { cookie: 'thumbSize=150' } })).text();
        const after = await (await request.get('/posts')).text();
        return before === after ? withCookie === before : 'the page changed in between';
      })
      .toBe(true);

    await page.setViewportSize(NARROW);
    await expect.poll(async () => (await cardBoxes(page)).cards[0].card.width).toBeGreaterThan(160);
    await expect.poll(async () => (await context.cookies()).find((cookie) => cookie.name === 'thumbSize')?.value).toBe('171');
  });

  for (const viewport of [NARROW, WIDE, { width: 300, height: 700 }]) {
    test(`title, thumbnail and footer never overlap at ${viewport.width} px`, async ({ page }) => {
      await page.setViewportSize(viewport);
      for (const url of ['/posts', '/posts?o=50']) {
        await page.goto(url);
        const { cards } = await cardBoxes(page);
        expect(cards.length).toBeGreaterThan(10);
        for (const { card, header, image, footer, footerLines } of cards) {
          expect(header.bottom).toBeLessThanOrEqual((image ?? footer).top + 0.5);
          if (image) expect(image.bottom).toBeLessThanOrEqual(footer.top + 0.5);
          expect(footer.bottom).toBeLessThanOrEqual(card.bottom + 0.5);
          expect(header.top).toBeGreaterThanOrEqual(card.top - 0.5);
          for (const line of footerLines) expect(line.right).toBeLessThanOrEqual(card.right + 0.5);
          for (let i = 1; i < footerLines.length; i += 1)
            expect(footerLines[i].top).toBeGreaterThanOrEqual(footerLines[i - 1].bottom - 0.5);
        }
      }
    });
  }
});

test("a creator's last update reads relative, with the date in the title, also in content added later", async ({ page }) => {
  await page.goto('/artists/updated');
  const time = page.locator('.creator-card time[data-relative]').first();
  const datetime = (await time.getAttribute('datetime'))!;
  await expect(time).toHaveText(/^(\d+ (second|minute|hour|day|month|year)s? ago|now)$/);
  await expect(time).toHaveAttribute('title', datetime.slice(0, 10));
  await expect(page.locator('.creator-card__updated').first()).toContainText(/^Updated /);

  await page.evaluate(() => {
    const inserted = document.createElement('p');
    inserted.innerHTML = '<time id="inserted-time" datetime="2020-01-02T00:00:00" data-relative>2020-01-02</time>';
    document.querySelector('main')!.append(inserted);
  });
  await expect(page.locator('#inserted-time')).toHaveText(/^\d+ years ago$/);
  await expect(page.locator('#inserted-time')).toHaveAttribute('title', '2020-01-02');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('dates stay absolute and cards keep their default size', async ({ page }) => {
    await page.setViewportSize(WIDE);
    await page.goto('/artists/updated');
    await expect(page.locator('.creator-card time[data-relative]').first()).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
    await page.goto('/posts');
    expect((await cardBoxes(page)).cards[0].card.width).toBeCloseTo(180, 0);
  });
});

/** Each paysite's page, written out here independently of shared/paysites/. */
const PAYSITE_PAGES: Record<string, (id: string) => string> = {
  patreon: (id) => `https://www.patreon.com/user?u=${id}`,
  fanbox: (id) => `https://www.pixiv.net/fanbox/creator/${id}`,
  fantia: (id) => `https://fantia.jp/fanclubs/${id}`,
  afdian: (id) => `https://afdian.com/u/${id}`,
  boosty: (id) => `https://boosty.to/${id}`,
  gumroad: (id) => `https://gumroad.com/${id}`,
  subscribestar: (id) => `https://subscribestar.adult/${id}`,
  dlsite: (id) => `https://www.dlsite.com/eng/circle/profile/=/maker_id/${id}.html`,
  fansly: (id) => `https://fansly.com/${id}/posts`,
  onlyfans: (id) => `https://onlyfans.com/${id}`,
  candfans: (id) => `https://candfans.jp/${id}`,
};

test('the creator header links to the creator on each paysite', async ({ page }) => {
  const creators = readE2eDb(
    (db) =>
      db.prepare(`SELECT service, min(id) AS id FROM creators WHERE service != 'discord' GROUP BY service`).all() as Array<{
        service: string;
        id: string;
      }>,
  );
  expect(creators.length).toBe(Object.keys(PAYSITE_PAGES).length);
  for (const creator of creators) {
    await page.goto(`/${creator.service}/user/${creator.id}`);
    const link = page.locator('.creator-header .service-link');
    await expect(link, creator.service).toHaveAttribute('href', PAYSITE_PAGES[creator.service](encodeURIComponent(creator.id)));
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
  }
});

test.describe('creator header', () => {
  for (const viewport of [NARROW, WIDE]) {
    test(`shows Community only for a creator with chats, and reserves the images' boxes at ${viewport.width} px`, async ({ page }) => {
      await page.setViewportSize(viewport);
      const chatty = e2eRow<{ id: string }>(`SELECT id FROM creators WHERE service = 'patreon' AND has_chats = 1 LIMIT 1`);
      const quiet = e2eRow<{ id: string }>(`SELECT id FROM creators WHERE service = 'patreon' AND has_chats = 0 LIMIT 1`);
      expect(chatty, 'a patreon creator with chats').toBeTruthy();
      const tabs = page.getByRole('navigation', { name: 'Creator sections' });

      await page.goto(`/patreon/user/${chatty.id}`);
      await expect(tabs.getByRole('link', { name: 'Community', exact: true })).toHaveAttribute(
        'href',
        `/patreon/user/${chatty.id}/community`,
      );
      const labels = await tabs.getByRole('link').allTextContents();
      expect(labels.indexOf('Community')).toBe(labels.findIndex((label) => label.startsWith('Linked Accounts')) - 1);
      for (const image of ['.creator-header__banner', '.creator-header__avatar']) {
        await expect(page.locator(image)).toHaveAttribute('width', /^\d+$/);
        await expect(page.locator(image)).toHaveAttribute('height', /^\d+$/);
      }
      await expect(page.getByRole('link', { name: 'Upload file' })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      await page.goto(`/patreon/user/${quiet.id}`);
      await expect(tabs.getByRole('link', { name: 'Posts', exact: true })).toBeVisible();
      await expect(tabs.getByRole('link', { name: 'Community', exact: true })).toHaveCount(0);
    });
  }
});
