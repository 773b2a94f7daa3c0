/**
 * The artists list (/artists): the stored default listing without JavaScript, the island's debounced
 * search, service filter, the five sorts and the order toggle against the database, history, the empty
 * state, the spec's 400 messages, a failed creators.txt, and the layout at 375 and 1280 px.
 */
import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openDatabase } from '@api/data/db.ts';
import { countCreators, upsertCreator } from '@api/data/creators.ts';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import { readE2eDb } from './e2e-db.ts';

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 375, height: 740 };
/** More than one page of 50, so the listing has a paginator. */
const WANTED_CREATORS = 75;

interface Row {
  service: string;
  id: string;
  name: string;
  indexed: number;
  updated: number;
  favorited: number;
}

/** The demo archive has 30 creators; more are added (once per data folder) and the store rebuilt. */
test.beforeAll(async () => {
  const db = openDatabase(path.join(E2E_DATA_DIR, 'trove.sqlite'));
  let added = 0;
  try {
    for (let n = 0; (await countCreators(db)) < WANTED_CREATORS; n += 1) {
      const id = `artists-e2e-${String(n).padStart(2, '0')}`;
      // Spread dates so every sort puts them in a different order than their ids.
      const indexed = 1_600_000_000 + ((n * 7919) % 97) * 86_400;
      const updated = 1_650_000_000 + ((n * 104_729) % 89) * 86_400;
      if (
        (await upsertCreator(db, {
          service: n % 3 ? 'gumroad' : 'subscribestar',
          id,
          name: `Fixture ${['Ink', 'moss', 'Orbit', 'quill'][n % 4]} Studio ${n}`,
          indexed,
          updated,
        })) === 'inserted'
      )
        added += 1;
    }
  } finally {
    db.close();
  }
  if (added > 0)
    execFileSync('npx', ['tsx', 'scripts/rebuild.ts'], {
      env: { ...process.env, DATA_DIR: E2E_DATA_DIR, TROVE_ENV: 'test' },
      encoding: 'utf8',
    });
});

function creatorRows(): Map<string, Row> {
  const rows = readE2eDb(
    (db) =>
      db
        .prepare(
          `SELECT c.service, c.id, c.name, c.indexed, c.updated,
                  (SELECT count(*) FROM favorite_creators f WHERE f.service = c.service AND f.creator_id = c.id) AS favorited
             FROM creators c`,
        )
        .all() as Row[],
  );
  return new Map(rows.map((row) => [`${row.service}/${row.id}`, row]));
}

/**
 * The creators the cards show, in order, with their database rows. Favourite counts are the ones the
 * card shows: other specs favourite creators meanwhile, and a stored page keeps the counts it was
 * rendered with until the next rebuild.
 */
async function shownRows(page: Page): Promise<Row[]> {
  const rows = creatorRows();
  const cards = await page.locator('.artists-results .creator-card').evaluateAll((elements) =>
    elements.map((card) => ({
      key: `${card.getAttribute('data-service')}/${card.getAttribute('data-id')}`,
      favorited: Number(card.getAttribute('data-favorited')),
    })),
  );
  return cards.map(({ key, favorited }) => {
    const row = rows.get(key);
    if (!row) throw new Error(`a card shows an unknown creator ${key}`);
    expect(Number.isInteger(favorited), `${key} shows its favourite count`).toBe(true);
    return { ...row, favorited };
  });
}

type SortKey = (row: Row) => number | string;
const SORT_KEYS: Record<string, SortKey> = {
  favorited: (row) => row.favorited,
  indexed: (row) => row.indexed,
  updated: (row) => row.updated,
  name: (row) => row.name.toLowerCase(),
  service: (row) => row.service,
};

function expectOrdered(rows: Row[], key: SortKey, order: 'asc' | 'desc') {
  expect(rows.length).toBeGreaterThan(1);
  for (let n = 1; n < rows.length; n += 1) {
    const [before, after] = [key(rows[n - 1]), key(rows[n])];
    if (order === 'asc') expect(before <= after, `${before} then ${after}`).toBe(true);
    else expect(before >= after, `${before} then ${after}`).toBe(true);
  }
}

/**
 * The first card's elements, attributes (sorted: React sets an image's src last) and texts. Favourite
 * counts are left out: the stored page keeps the counts of its last rebuild while other specs favourite.
 */
async function cardShape(page: Page): Promise<string[]> {
  const lines = await page
    .locator('.creator-card')
    .first()
    .evaluate((card) => {
      const lines: string[] = [];
      const walk = (node: Node, depth: number) => {
        if (node instanceof Element) {
          const attributes = [...node.attributes].map((a) => `${a.name}="${a.value}"`).sort();
          lines.push(`${depth}:${node.localName} ${attributes.join(' ')}`);
        } else if (node.textContent?.trim()) {
          lines.push(`${depth}:"${node.textContent.trim()}"`);
        }
        for (const child of node.childNodes) walk(child, depth + 1);
      };
      walk(card, 0);
      return lines;
    });
  return lines.map((line) => line.replace(/data-favorited="\d+"/, 'data-favorited="N"').replace(/· \d+ favorites?/, '· N favorites'));
}

/** The island is interactive once React has hydrated it (Astro removes the `ssr` attribute). */
async function hydrated(page: Page) {
  await expect(page.locator('astro-island:has(form.artists-search)')).not.toHaveAttribute('ssr', /.*/);
}

/** The island has shown the listing in the URL (creators.txt has arrived). */
async function settled(page: Page) {
  await expect(page.locator('.artists-results')).toHaveAttribute('aria-busy', 'false');
}

async function expectNoOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

const serviceSelect = (page: Page) => page.getByLabel('Service', { exact: true });
const sortSelect = (page: Page) => page.getByLabel('Sort by', { exact: true });
const search = (page: Page) => page.getByRole('searchbox', { name: 'Search artists' });
const orderButton = (page: Page) => page.getByRole('button', { name: /^Order: / });

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the default listing is stored, shows 50 cards, most favourited first, and paginators', async ({ page }) => {
    const total = creatorRows().size;
    const answer = await page.goto('/artists');
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['etag']).toBeTruthy(); // answered from the page store
    await expect(page).toHaveTitle(/^Artists \| /);
    await expect(page.locator('.creator-card')).toHaveCount(50);
    await expect(page.locator('nav.paginator')).toHaveCount(2);
    await expect(page.locator('.paginator__summary').first()).toHaveText(`Showing 1 - 50 of ${total}`);
    expectOrdered(await shownRows(page), SORT_KEYS.favorited, 'desc');

    await page.getByRole('link', { name: 'Next page' }).first().click();
    await expect(page).toHaveURL(/\/artists\?o=50$/);
    await expect(page.locator('.creator-card')).toHaveCount(Math.min(50, total - 50));
  });

  test('the form is a plain GET form: service, sort and the order toggle', async ({ page }) => {
    await page.goto('/artists');
    await serviceSelect(page).selectOption('fanbox');
    await sortSelect(page).selectOption({ label: 'Alphabetical Order' });
    await search(page).press('Enter');
    await expect(page).toHaveURL(/service=fanbox/);
    expect(new URL(page.url()).searchParams.get('order')).toBe('desc');
    const rows = await shownRows(page);
    expect(rows.every((row) => row.service === 'fanbox')).toBe(true);
    expectOrdered(rows, SORT_KEYS.name, 'desc');

    await orderButton(page).click();
    expect(new URL(page.url()).searchParams.get('order')).toBe('asc');
    expectOrdered(await shownRows(page), SORT_KEYS.name, 'asc');
    await expect(orderButton(page)).toHaveText(/Ascending/);
  });
});

test('typing searches 500 ms after the last keystroke and writes q to the URL', async ({ page }) => {
  const rows = [...creatorRows().values()];
  const word = 'studio';
  const expected = rows.filter((row) => row.name.toLowerCase().includes(word) || row.id.toLowerCase().includes(word)).length;
  expect(expected).toBeGreaterThan(0);
  await page.goto('/artists');
  await hydrated(page);
  const before = await page.locator('.creator-card').count();
  const typedAt = Date.now();
  await search(page).pressSequentially('StUdIo');
  // Just typed: nothing applied yet.
  expect(new URL(page.url()).search).toBe('');
  await expect(page.locator('.creator-card')).toHaveCount(before);
  await page.waitForURL((url) => url.searchParams.get('q') === 'StUdIo');
  expect(Date.now() - typedAt).toBeGreaterThanOrEqual(500);
  await settled(page);
  await expect(page.locator('.creator-card')).toHaveCount(Math.min(expected, 50));
  for (const row of await shownRows(page)) expect(`${row.name} ${row.id}`.toLowerCase()).toContain(word);

  // A reload shows the same listing, rendered by the server.
  await page.reload();
  await expect(search(page)).toHaveValue('StUdIo');
  await expect(page.locator('.creator-card')).toHaveCount(Math.min(expected, 50));
});

test('the service filter applies at once, and Back returns to the full list', async ({ page }) => {
  const fanbox = [...creatorRows().values()].filter((row) => row.service === 'fanbox').length;
  await page.goto('/artists');
  await hydrated(page);
  await serviceSelect(page).selectOption('fanbox');
  await expect(page).toHaveURL(/\/artists\?service=fanbox$/);
  await settled(page);
  await expect(page.locator('.creator-card')).toHaveCount(fanbox);
  expect((await shownRows(page)).every((row) => row.service === 'fanbox')).toBe(true);

  await page.goBack();
  await expect(page).toHaveURL(/\/artists$/);
  await expect(page.locator('.creator-card')).toHaveCount(50);
  await expect(serviceSelect(page)).toHaveValue('');
  await page.goForward();
  await expect(page.locator('.creator-card')).toHaveCount(fanbox);
  await expect(serviceSelect(page)).toHaveValue('fanbox');
});

test('every sort option orders the cards, and the toggle flips the order and the URL', async ({ page }) => {
  await page.goto('/artists');
  await hydrated(page);
  for (const [label, field] of [
    ['Date Indexed', 'indexed'],
    ['Date Updated', 'updated'],
    ['Alphabetical Order', 'name'],
    ['Service', 'service'],
    ['Popularity', 'favorited'],
  ] as const) {
    await sortSelect(page).selectOption({ label });
    await expect(page).toHaveURL(field === 'favorited' ? /\/artists$/ : new RegExp(`sort_by=${field}`));
    await settled(page);
    await expect(page.locator('.creator-card')).toHaveCount(50);
    expectOrdered(await shownRows(page), SORT_KEYS[field], 'desc');
  }

  await sortSelect(page).selectOption({ label: 'Date Indexed' });
  const descending = await shownRows(page);
  await expect(orderButton(page)).toHaveText(/Descending/);
  await orderButton(page).click();
  await expect(page).toHaveURL(/sort_by=indexed&order=asc$/);
  await expect(orderButton(page)).toHaveText(/Ascending/);
  const ascending = await shownRows(page);
  expectOrdered(ascending, SORT_KEYS.indexed, 'asc');
  expect(ascending[0]).not.toEqual(descending[0]);
  // Keyboard: the toggle flips back with Enter.
  await orderButton(page).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/artists\?sort_by=indexed$/);
  expectOrdered(await shownRows(page), SORT_KEYS.indexed, 'desc');
});

test('the island pages on the client with the same cards as the server', async ({ page }) => {
  await page.goto('/artists?sort_by=name&order=asc&o=50');
  await hydrated(page);
  // Both cards' dates are made relative by the same page script; wait for it before comparing.
  const firstTime = page.locator('.creator-card time').first();
  await expect(firstTime).toHaveAttribute('title', /\d{4}-\d{2}-\d{2}/);
  const serverCard = await cardShape(page);
  const firstId = await page.locator('.creator-card').first().getAttribute('data-id');

  await page.goto('/artists');
  await hydrated(page);
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await sortSelect(page).selectOption({ label: 'Alphabetical Order' });
  await settled(page);
  await orderButton(page).click();
  await page.getByRole('link', { name: 'Next page' }).last().click();
  await expect(page).toHaveURL(/\/artists\?sort_by=name&order=asc&o=50$/);
  await expect(page.locator('.creator-card').first()).toHaveAttribute('data-id', firstId!);
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await expect(firstTime).toHaveAttribute('title', /\d{4}-\d{2}-\d{2}/);
  expect(await cardShape(page)).toEqual(serverCard);
});

test('an empty result says so, on the client and from the server', async ({ page }) => {
  await page.goto('/artists');
  await hydrated(page);
  await search(page).fill('zzzqqqxxx');
  await expect(page.getByText('No creators found for your query.')).toBeVisible();
  await settled(page);
  await expect(page.locator('.creator-card')).toHaveCount(0);
  await expect(page.locator('nav.paginator')).toHaveCount(0);
  const answer = await page.goto('/artists?q=zzzqqqxxx');
  expect(answer?.status()).toBe(200);
  await expect(page.getByText('No creators found for your query.')).toBeVisible();
});

test("invalid values answer 400 with the spec's messages", async ({ request }) => {
  for (const [query, message] of [
    ['sort_by=age', 'Invalid sort field value'],
    ['order=up', 'Invalid order by field'],
    ['service=myspace', 'Unknown service'],
    ['o=10', 'Offset 10 is not a multiple of 50.'],
  ]) {
    const answer = await request.get(`/artists?${query}`);
    expect(answer.status(), query).toBe(400);
    expect(await answer.text()).toContain(message);
  }
  expect((await request.get('/artists?o=5000')).status()).toBe(404);
});

test("a failed creators.txt shows 'Failed to load artists.' with the details", async ({ page }) => {
  await page.route('**/api/v1/creators.txt', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Database is resting."}' }),
  );
  await page.goto('/artists');
  await hydrated(page);
  await serviceSelect(page).selectOption('patreon');
  // The API client retries a 5xx three times (1 + 2 + 4 s) before giving up.
  const alert = page.getByRole('alert').filter({ hasText: 'Failed to load artists.' });
  await expect(alert).toBeVisible({ timeout: 15_000 });
  await expect(alert).toContainText('Internal Server Error');
  const details = page.getByRole('region', { name: 'Error details' });
  await expect(details).toContainText('500');
  await expect(details).toContainText('Database is resting.');
});

for (const viewport of [WIDE, NARROW]) {
  test(`fits ${viewport.width} px and works from the keyboard`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/artists');
    await expectNoOverflow(page);
    await hydrated(page);
    await search(page).focus();
    await page.keyboard.press('Tab'); // Search
    await page.keyboard.press('Tab'); // Service
    await expect(serviceSelect(page)).toBeFocused();
    await page.keyboard.press('Tab'); // Sort by
    await page.keyboard.press('Tab'); // order toggle
    await expect(orderButton(page)).toBeFocused();
    await page.keyboard.press('Space');
    await expect(page).toHaveURL(/order=asc/);
    await expect(page.locator('.creator-card').first()).toBeVisible();
    await expectNoOverflow(page);
  });
}
