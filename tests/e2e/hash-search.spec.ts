/**
 * Hash search (/search_hash) in Chromium against the demo archive: by a typed hash, by a chosen file
 * (hashed in the page), invalid and unknown hashes, a file carried by Discord messages, back/forward,
 * keyboard use, and the layout at 375 and 1280 px. Expectations come from the e2e database (read-only)
 * and the stored files, not from the page under test.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import { readE2eDb } from './e2e-db.ts';
import { filePath } from '@shared/urls.ts';

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 375, height: 740 };
const EMPTY_STATE = 'Nobody here but us chickens! There are no posts for your query.';

interface Sample {
  hash: string;
  ext: string;
  /** "service/user/id" of every post carrying the file. */
  posts: string[];
}

interface DiscordHit {
  message: string;
  server: string;
  channel: string;
  label: string;
}

let postSample: Sample;
let discordSample: { hash: string; hits: DiscordHit[] };

test.beforeAll(() => {
  readE2eDb((db) => {
    // A stored file carried by a few posts (all fit the API's first 50) and by no Discord message.
    const file = db
      .prepare(
        `SELECT f.hash, f.ext FROM files f JOIN post_files pf ON pf.hash = f.hash
          WHERE f.hash NOT IN (SELECT hash FROM discord_attachments WHERE hash IS NOT NULL)
          GROUP BY f.hash HAVING count(DISTINCT pf.post_seq) BETWEEN 2 AND 50
          ORDER BY count(DISTINCT pf.post_seq), f.hash LIMIT 1`,
      )
      .get() as { hash: string; ext: string } | undefined;
    if (!file) throw new Error('the demo archive has no file carried by 2 to 50 posts');
    const posts = db
      .prepare(
        `SELECT DISTINCT p.service || '/' || p."user" || '/' || p.id AS ref
           FROM post_files pf JOIN posts p ON p.seq = pf.post_seq WHERE pf.hash = ?`,
      )
      .all(file.hash) as { ref: string }[];
    postSample = { ...file, posts: posts.map((row) => row.ref).sort() };

    const discordHash = db
      .prepare(
        `SELECT hash FROM discord_attachments WHERE hash IS NOT NULL
          GROUP BY hash ORDER BY count(DISTINCT message_id) DESC, hash LIMIT 1`,
      )
      .get() as { hash: string } | undefined;
    if (!discordHash) throw new Error('the demo archive has no Discord message with a file');
    const hits = db
      .prepare(
        `SELECT DISTINCT m.id AS message, m.server_id AS server, m.channel_id AS channel,
                coalesce(nullif(s.name, ''), m.server_id) AS server_label, coalesce(nullif(c.name, ''), m.channel_id) AS channel_label
           FROM discord_attachments a JOIN discord_messages m ON m.id = a.message_id
           LEFT JOIN discord_channels c ON c.id = m.channel_id
           LEFT JOIN creators s ON s.service = 'discord' AND s.id = m.server_id
          WHERE a.hash = ? LIMIT 50`,
      )
      .all(discordHash.hash) as { message: string; server: string; channel: string; server_label: string; channel_label: string }[];
    discordSample = {
      hash: discordHash.hash,
      hits: hits.map((hit) => ({ ...hit, label: `Server ${hit.server_label} channel ${hit.channel_label}` })),
    };
  });
});

const form = (page: Page) => page.locator('#hash-search-form');
const hashInput = (page: Page) => page.locator('#hash-search-hash');
const submit = (page: Page) => form(page).getByRole('button', { name: 'Submit' });
const results = (page: Page) => page.locator('.hash-search__results');

/** The island is interactive once React has hydrated it (Astro removes the `ssr` attribute). */
async function openSearch(page: Page, query = '') {
  await page.goto(`/search_hash${query}`);
  await expect(page.locator('astro-island:has(#hash-search-form)')).not.toHaveAttribute('ssr', /.*/);
}

async function cardRefs(scope: Locator): Promise<string[]> {
  const cards = await scope
    .locator('article.post-card')
    .evaluateAll((nodes) =>
      nodes.map((node) => `${node.getAttribute('data-service')}/${node.getAttribute('data-user')}/${node.getAttribute('data-id')}`),
    );
  return cards.sort();
}

async function expectNoHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

function storedBytes(sample: Sample): Buffer {
  return fs.readFileSync(path.join(E2E_DATA_DIR, 'files', filePath(sample.hash, sample.ext)));
}

for (const [name, viewport] of [
  ['1280 px', WIDE],
  ['375 px', NARROW],
] as const) {
  test.describe(`hash search at ${name}`, () => {
    test.use({ viewport });

    test('a typed hash (any case) shows the post cards of every post carrying the file', async ({ page }) => {
      await openSearch(page);
      await hashInput(page).fill(`  ${postSample.hash.toUpperCase()} `);
      await submit(page).click();
      await expect(page).toHaveURL(`/search_hash?hash=${postSample.hash}`);
      await expect(hashInput(page)).toHaveValue(postSample.hash);
      await expect(results(page).locator('article.post-card')).toHaveCount(postSample.posts.length);
      expect(await cardRefs(results(page))).toEqual(postSample.posts);
      await expect(results(page)).toContainText(postSample.hash);
      await expect(page.locator('.hash-search__discord')).toHaveCount(0);
      await expectNoHorizontalScroll(page);
    });

    test('a chosen file is hashed in the page with progress, put in the URL and searched', async ({ page }) => {
      await openSearch(page);
      await page.locator('#hash-search-file').setInputFiles({
        name: `sample${postSample.ext}`,
        mimeType: 'application/octet-stream',
        buffer: storedBytes(postSample),
      });
      await expect(hashInput(page)).toBeDisabled();
      await submit(page).click();
      const progress = page.locator('progress#hash-search-progress');
      await expect(progress).toHaveAttribute('value', '100');
      await expect(progress).toHaveAttribute('aria-valuenow', '100');
      await expect(page.locator('.hash-search__percent')).toHaveText('100%');
      await expect(page).toHaveURL(`/search_hash?hash=${postSample.hash}`);
      await expect(hashInput(page)).toHaveValue(postSample.hash);
      await expect(results(page).locator('article.post-card')).toHaveCount(postSample.posts.length);
      expect(await cardRefs(results(page))).toEqual(postSample.posts);
      await expectNoHorizontalScroll(page);
    });

    test("an invalid hash says 'Invalid hash!' under the form and searches nothing", async ({ page }) => {
      await openSearch(page);
      let apiCalls = 0;
      page.on('request', (request) => {
        if (request.url().includes('/api/v1/search_hash/')) apiCalls += 1;
      });
      for (const bad of ['', 'abc', 'g'.repeat(64), `${postSample.hash}0`]) {
        await hashInput(page).fill(bad);
        await submit(page).click();
        await expect(form(page).getByRole('alert')).toHaveText('Invalid hash!');
      }
      await expect(page).toHaveURL('/search_hash');
      await expect(results(page)).toHaveCount(0);
      expect(apiCalls).toBe(0);
      await expectNoHorizontalScroll(page);
    });

    test('a hash carried by Discord messages lists them as "Server X channel Y" linking to each message', async ({ page }) => {
      await openSearch(page, `?hash=${discordSample.hash}`);
      const items = page.locator('.hash-search__discord li a');
      await expect(items).toHaveCount(discordSample.hits.length);
      for (const hit of discordSample.hits) {
        const link = page.locator(`.hash-search__discord a[href="/discord/server/${hit.server}/${hit.channel}/${hit.message}"]`);
        await expect(link).toHaveText(hit.label);
      }
      await expectNoHorizontalScroll(page);
    });
  });
}

test.describe('hash search at 1280 px', () => {
  test.use({ viewport: WIDE });

  test('opening a URL with a hash shows the results at once; an unknown hash shows the empty state', async ({ page }) => {
    // The server rendered the search: the island does not ask the API again.
    let apiCalls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/search_hash/')) apiCalls += 1;
    });
    await openSearch(page, `?hash=${postSample.hash}`);
    await expect(results(page).locator('article.post-card')).toHaveCount(postSample.posts.length);
    await page.waitForLoadState('networkidle');
    expect(apiCalls).toBe(0);

    await openSearch(page, `?hash=${'0'.repeat(64)}`);
    await expect(results(page).locator('p.empty')).toHaveText(EMPTY_STATE);
    await expect(results(page).locator('article.post-card')).toHaveCount(0);

    await openSearch(page, '?hash=not-a-hash');
    await expect(form(page).getByRole('alert')).toHaveText('Invalid hash!');
    await expect(hashInput(page)).toHaveValue('not-a-hash');
    await page.waitForLoadState('networkidle');
    expect(apiCalls).toBe(0);
  });

  test('back to the URL the server rendered shows its results again without asking the API', async ({ page }) => {
    await openSearch(page, `?hash=${postSample.hash}`);
    await hashInput(page).fill(discordSample.hash);
    await submit(page).click();
    await expect(page.locator('.hash-search__discord li')).toHaveCount(discordSample.hits.length);
    let apiCalls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/search_hash/')) apiCalls += 1;
    });
    await page.goBack();
    await expect(page).toHaveURL(`/search_hash?hash=${postSample.hash}`);
    expect(await cardRefs(results(page))).toEqual(postSample.posts);
    await expect(hashInput(page)).toHaveValue(postSample.hash);
    expect(apiCalls).toBe(0);
  });

  test('the file picker is a site button for a hidden, focusable input and shows the chosen name', async ({ page }) => {
    await openSearch(page);
    const input = page.locator('#hash-search-file');
    const button = page.locator('label.hash-search__file-button');
    await expect(button).toHaveText('Choose file');
    await expect(input).toHaveAccessibleName('Choose file');
    // The native control is visually hidden (1 px, clipped); the label is a site .button.
    const box = await input.evaluate((node) => node.getBoundingClientRect().width * node.getBoundingClientRect().height);
    expect(box).toBeLessThanOrEqual(1);
    const looks = await button.evaluate((node) => {
      const style = getComputedStyle(node);
      return { minHeight: style.minHeight, radius: style.borderTopLeftRadius, weight: style.fontWeight, cursor: style.cursor };
    });
    expect(looks).toEqual({ minHeight: '38.4px', radius: '6px', weight: '600', cursor: 'pointer' });
    await expect(page.locator('.hash-search__file-name')).toHaveText('No file chosen');

    // Keyboard: Tab reaches the hidden input and the focus ring shows on the button.
    await page.locator('body').focus();
    let reached = false;
    for (let i = 0; i < 60 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await input.evaluate((node) => node === document.activeElement);
    }
    expect(reached).toBe(true);
    const ring = await button.evaluate((node) => [getComputedStyle(node).outlineStyle, getComputedStyle(node).outlineColor]);
    expect(ring).toEqual(['solid', 'rgb(142, 197, 255)']);
    // Enter or Space on the focused input opens the file chooser. On a loaded machine Chromium now and
    // then drops the first key's chooser, so Enter gets a second chance before the test gives up.
    const opened = page.waitForEvent('filechooser', { timeout: 5_000 }).catch(() => undefined);
    await page.keyboard.press('Space');
    let chooser = await opened;
    if (!chooser) {
      await expect(input).toBeFocused();
      const again = page.waitForEvent('filechooser', { timeout: 10_000 });
      await page.keyboard.press('Enter');
      chooser = await again;
    }
    await chooser.setFiles({ name: 'picked-file.bin', mimeType: 'application/octet-stream', buffer: Buffer.from('x') });
    await expect(page.locator('.hash-search__file-name')).toHaveText('picked-file.bin');
    await expect(input).toHaveAccessibleDescription('picked-file.bin');
    await page.getByRole('button', { name: 'Remove file' }).click();
    await expect(page.locator('.hash-search__file-name')).toHaveText('No file chosen');
  });

  test('a file of several MiB is hashed in chunks in the page (same SHA-256 as Node)', async ({ page }) => {
    const bytes = randomBytes(3 * 1024 * 1024 + 4321);
    const expected = createHash('sha256').update(bytes).digest('hex');
    await openSearch(page);
    await page.locator('#hash-search-file').setInputFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: bytes });
    await submit(page).click();
    await expect(page).toHaveURL(`/search_hash?hash=${expected}`);
    await expect(page.locator('.hash-search__percent')).toHaveText('100%');
    await expect(results(page).locator('p.empty')).toHaveText(EMPTY_STATE);

    // Another file can be picked, or the file removed to type a hash again.
    await page.locator('#hash-search-file').setInputFiles({
      name: 'again.bin',
      mimeType: 'application/octet-stream',
      buffer: storedBytes(postSample),
    });
    await expect(page.locator('#hash-search-progress')).toHaveCount(0);
    await submit(page).click();
    await expect(page).toHaveURL(`/search_hash?hash=${postSample.hash}`);
    await expect(results(page).locator('article.post-card')).toHaveCount(postSample.posts.length);
    await page.getByRole('button', { name: 'Remove file' }).click();
    await expect(page.locator('#hash-search-file')).toBeFocused();
    await expect(hashInput(page)).toBeEnabled();
  });

  test('back and forward replay earlier searches', async ({ page }) => {
    await openSearch(page);
    await hashInput(page).fill(postSample.hash);
    await submit(page).click();
    await expect(results(page).locator('article.post-card')).toHaveCount(postSample.posts.length);
    await hashInput(page).fill(discordSample.hash);
    await submit(page).click();
    await expect(page.locator('.hash-search__discord li')).toHaveCount(discordSample.hits.length);

    await page.goBack();
    await expect(page).toHaveURL(`/search_hash?hash=${postSample.hash}`);
    await expect(hashInput(page)).toHaveValue(postSample.hash);
    await expect(page.locator('.hash-search__discord')).toHaveCount(0);
    expect(await cardRefs(results(page))).toEqual(postSample.posts);
    await page.goForward();
    await expect(page.locator('.hash-search__discord li')).toHaveCount(discordSample.hits.length);
  });

  test('keyboard: Tab reaches the hash input, Enter submits, Tab then reaches the results', async ({ page }) => {
    await openSearch(page);
    await page.locator('body').focus();
    let reached = false;
    for (let i = 0; i < 60 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await hashInput(page).evaluate((input) => input === document.activeElement);
    }
    expect(reached).toBe(true);
    await page.keyboard.type(postSample.hash);
    await page.keyboard.press('Enter');
    await expect(results(page).locator('article.post-card')).toHaveCount(postSample.posts.length);
    await expect(page.locator('#hash-search-form-status')).toHaveText('Ready for submit');
    await page.keyboard.press('Tab'); // the Submit button
    await page.keyboard.press('Tab'); // the first card
    await expect(results(page).locator('article.post-card a').first()).toBeFocused();
  });

  test("result cards have the markup of the listings' post cards", async ({ page }) => {
    await page.goto('/posts');
    // A listed card whose thumbnail file is carried by at most 50 posts (the API's first page).
    const thumbnails = await page
      .locator('article.post-card img.post-card__image')
      .evaluateAll((images) => images.map((image) => image.getAttribute('src') ?? ''));
    const index = readE2eDb((db) => {
      const carriers = db.prepare('SELECT count(DISTINCT post_seq) AS n FROM post_files WHERE hash = ?');
      return thumbnails.findIndex((src) => {
        const candidate = /\/([0-9a-f]{64})\.[a-z0-9]+$/.exec(src)?.[1];
        return !!candidate && (carriers.get(candidate) as { n: number }).n <= 50;
      });
    });
    expect(index, 'a listed card with a thumbnail').toBeGreaterThanOrEqual(0);
    const listed = page.locator('article.post-card:has(img.post-card__image)').nth(index);
    const hash = /\/([0-9a-f]{64})\.[a-z0-9]+$/.exec(thumbnails[index]!)![1];
    const id = await listed.getAttribute('data-id');
    const serialize = (node: Element) => {
      const walk = (element: Element): string => {
        const attributes = [...element.attributes]
          .map((a) => `${a.name}=${a.value}`)
          .sort()
          .join(' ');
        const children = [...element.childNodes]
          .map((child) => (child.nodeType === 1 ? walk(child as Element) : (child.textContent ?? '').trim()))
          .filter(Boolean)
          .join('');
        return `<${element.tagName.toLowerCase()} ${attributes}>${children}</>`;
      };
      return walk(node);
    };
    const fromListing = await listed.evaluate(serialize);

    await openSearch(page, `?hash=${hash}`);
    const found = results(page).locator(`article.post-card[data-id="${id}"]`).first();
    await expect(found).toBeVisible();
    expect(await found.evaluate(serialize)).toBe(fromListing);
  });

  test("a network failure shows the API client's message", async ({ page }) => {
    await openSearch(page);
    await page.route('**/api/v1/search_hash/**', (route) => route.abort('failed'));
    await hashInput(page).fill('1'.repeat(64));
    await submit(page).click();
    // The client retries network failures with backoff (1 + 2 + 4 s) before giving up.
    await expect(form(page).getByRole('alert')).toHaveText('Failed to fetch due to client settings.', { timeout: 20_000 });
  });
});

test.describe('hash search without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: WIDE });

  test('the form submits with GET and the server renders posts, the Discord list, the empty state and Invalid hash!', async ({ page }) => {
    const answer = await page.goto('/search_hash');
    expect(answer?.status()).toBe(200);
    // No file picker without JavaScript; the hash input and Submit work.
    await expect(page.locator('input[type="file"]')).toHaveCount(0);
    await expect(page.getByText('Choosing a file needs JavaScript; paste its hash here.')).toBeVisible();
    await hashInput(page).fill(postSample.hash.toUpperCase());
    await submit(page).click();
    await expect(page).toHaveURL(`/search_hash?hash=${postSample.hash.toUpperCase()}`);
    await expect(hashInput(page)).toHaveValue(postSample.hash);
    await expect(results(page).locator('article.post-card')).toHaveCount(postSample.posts.length);
    expect(await cardRefs(results(page))).toEqual(postSample.posts);
    await expect(results(page)).toContainText(postSample.hash);

    await page.goto(`/search_hash?hash=${discordSample.hash}`);
    for (const hit of discordSample.hits) {
      await expect(page.locator(`.hash-search__discord a[href="/discord/server/${hit.server}/${hit.channel}/${hit.message}"]`)).toHaveText(
        hit.label,
      );
    }

    await hashInput(page).fill('0'.repeat(64));
    await submit(page).click();
    await expect(page).toHaveURL(`/search_hash?hash=${'0'.repeat(64)}`);
    await expect(results(page).locator('p.empty')).toHaveText(EMPTY_STATE);

    await hashInput(page).fill('not-a-hash');
    const bad = page.waitForResponse((response) => response.url().includes('/search_hash?hash=not-a-hash'));
    await submit(page).click();
    expect((await bad).status()).toBe(400);
    await expect(form(page).getByRole('alert')).toHaveText('Invalid hash!');
    await expect(hashInput(page)).toHaveValue('not-a-hash');
    await expect(results(page)).toHaveCount(0);
  });

  test('at 375 px the server-rendered results fit the width', async ({ page }) => {
    await page.setViewportSize(NARROW);
    await page.goto(`/search_hash?hash=${postSample.hash}`);
    await expect(results(page).locator('article.post-card')).toHaveCount(postSample.posts.length);
    await expectNoHorizontalScroll(page);
  });
});
