/**
 * The post page and the revision page in Chromium against the demo archive (its showcase post has a
 * poll, many tags, videos, downloads, two earlier versions and comments, scripts/seed/showcase.ts):
 * arrow keys, the revisions selector, tag overflow, poll sorting, image expansion, the guest buttons,
 * comments, meta tags, 375 px and keyboard use. Expectations come from the e2e database.
 */
import { expect, test, type Page } from '@playwright/test';
import { e2eRow, readE2eDb, signInBrowser } from './e2e-db.ts';

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 375, height: 740 };

interface Showcase {
  service: string;
  user: string;
  id: string;
  title: string;
  published: string;
  poll: string;
  tags: string;
}

const showcase = () =>
  e2eRow<Showcase>(`SELECT service, "user", id, title, published, poll, tags FROM posts WHERE title LIKE 'Dragon keep:%'`);
const postPath = (p: { service: string; user: string }, id: string) => `/${p.service}/user/${p.user}/post/${id}`;

/** prev is the next newer post of the creator's newest-first listing, next the next older one. */
function neighbours(p: Showcase): { prev: string | null; next: string | null } {
  return readE2eDb((db) => {
    const newer = db
      .prepare(
        `SELECT id FROM posts WHERE service = ? AND "user" = ? AND (published > ? OR (published = ? AND id > ?)) ORDER BY published, id LIMIT 1`,
      )
      .get(p.service, p.user, p.published, p.published, p.id) as { id: string } | undefined;
    const older = db
      .prepare(
        `SELECT id FROM posts WHERE service = ? AND "user" = ? AND (published < ? OR (published = ? AND id < ?)) ORDER BY published DESC, id DESC LIMIT 1`,
      )
      .get(p.service, p.user, p.published, p.published, p.id) as { id: string } | undefined;
    return { prev: newer?.id ?? null, next: older?.id ?? null };
  });
}

function revisionIds(p: Showcase): number[] {
  return readE2eDb((db) =>
    (
      db
        .prepare(`SELECT revision_id FROM post_revisions WHERE service = ? AND "user" = ? AND post_id = ? ORDER BY revision_id DESC`)
        .all(p.service, p.user, p.id) as { revision_id: number }[]
    ).map((row) => row.revision_id),
  );
}

async function expectNoOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** Islands hydrate when idle or visible: wait until the page has settled. */
async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForLoadState('networkidle');
}

for (const viewport of [WIDE, NARROW]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('the showcase post shows its parts, sorts its poll, folds its tags and expands images', async ({ page }) => {
      const post = showcase();
      await open(page, postPath(post, post.id));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title);
      await expect(page.locator('.post-header__dates')).toContainText(`Published: ${post.published.replace('T', ' ')}`);
      await expect(page.getByRole('button', { name: 'Flag' })).toBeDisabled();
      await expect(page.getByRole('button', { name: 'Flag' })).toHaveAttribute('title', 'Flagging requires an account');

      // Poll: percentages to 2 decimals; the header cycles descending, ascending, stored order.
      const poll = JSON.parse(post.poll) as { choices: { text: string; votes: number }[]; total_votes: number };
      const rows = page.locator('.post-poll__choices tbody tr');
      const texts = () => rows.locator('td:first-child').allTextContents();
      const stored = poll.choices.map((c) => c.text);
      await expect(rows).toHaveCount(poll.choices.length);
      for (const [index, choice] of poll.choices.entries()) {
        await expect(rows.nth(index).locator('.post-poll__percent')).toHaveText(`${((choice.votes / poll.total_votes) * 100).toFixed(2)}%`);
      }
      const byVotes = [...poll.choices].map((c, i) => ({ ...c, i }));
      const desc = [...byVotes].sort((a, b) => b.votes - a.votes || a.i - b.i).map((c) => c.text);
      const asc = [...byVotes].sort((a, b) => a.votes - b.votes || a.i - b.i).map((c) => c.text);
      const sort = page.locator('.post-poll__sort');
      expect(await texts()).toEqual(stored);
      await sort.click();
      await expect.poll(texts).toEqual(desc);
      await expect(page.locator('.post-poll__choices th[aria-sort]').first()).toHaveAttribute('aria-sort', 'descending');
      await sort.click();
      await expect.poll(texts).toEqual(asc);
      await sort.click();
      await expect.poll(texts).toEqual(stored);

      // Tags: one row, 'Show all »' shows the rest and becomes '« Hide'.
      const tags = JSON.parse(post.tags) as string[];
      const list = page.locator('.post-tags__list');
      const lastTag = list.getByRole('link', { name: tags[tags.length - 1], exact: true });
      await expect(list.locator('a')).toHaveCount(tags.length);
      await expect(lastTag).not.toBeInViewport();
      const showAll = page.getByRole('button', { name: 'Show all »' });
      await showAll.click();
      await expect(page.getByRole('button', { name: '« Hide' })).toHaveAttribute('aria-expanded', 'true');
      await lastTag.scrollIntoViewIfNeeded();
      await expect(lastTag).toBeInViewport();
      await page.getByRole('button', { name: '« Hide' }).click();
      await expect(showAll).toBeVisible();

      // Images: a click shows the full file in place, another the thumbnail again.
      const first = page.locator('.post-files__link').first();
      const image = first.locator('img');
      await expect(image).toHaveAttribute('src', /^\/thumbnail\/data\//);
      const full = await first.getAttribute('href');
      await first.click();
      await expect(image).toHaveAttribute('src', full!);
      await expect(first).toHaveAttribute('aria-expanded', 'true');
      expect(new URL(page.url()).pathname).toBe(postPath(post, post.id));
      await first.click();
      await expect(image).toHaveAttribute('src', /^\/thumbnail\/data\//);

      // Downloads, videos, comments with their earlier versions.
      await expect(page.locator('.post-downloads__browse').first()).toHaveAttribute('href', /^\/file\/[0-9a-f]{64}$/);
      await expect(page.locator('.post-downloads a[download]').first()).toHaveAttribute('href', /\?f=/);
      await expect(page.locator('video[controls][preload="none"]')).toHaveCount(2);
      const edited = page.locator('.post-comment').filter({ has: page.locator('details') });
      await expect(edited.locator('details')).not.toHaveAttribute('open');
      await edited.getByText(/Earlier versions \(2\)/).click();
      await expect(edited.locator('details')).toHaveAttribute('open');
      await expect(edited.locator('details .post-comment__content').first()).toBeVisible();
      await expectNoOverflow(page);
    });

    test('the revision page says it is an earlier version and fits the screen', async ({ page }) => {
      const post = showcase();
      const [newest] = revisionIds(post);
      await open(page, `${postPath(post, post.id)}/revision/${newest}`);
      await expect(page.locator('.post-header__revision')).toBeVisible();
      await expectNoOverflow(page);
    });
  });
}

test('meta and open-graph tags describe the post', async ({ page }) => {
  const post = showcase();
  await page.goto(postPath(post, post.id));
  const meta = (selector: string) => page.locator(`head meta[${selector}]`);
  await expect(meta('name="service"')).toHaveAttribute('content', post.service);
  await expect(meta('name="id"')).toHaveAttribute('content', post.id);
  await expect(meta('name="user"')).toHaveAttribute('content', post.user);
  await expect(meta('name="published"')).toHaveAttribute('content', post.published);
  await expect(meta('property="og:title"')).toHaveAttribute('content', post.title);
  await expect(meta('property="og:type"')).toHaveAttribute('content', 'article');
  await expect(meta('property="og:url"')).toHaveAttribute('content', postPath(post, post.id));
  await expect(meta('property="og:image"')).toHaveAttribute('content', /^\/thumbnail\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.\w+$/);
  await expect(meta('property="og:description"')).toHaveAttribute('content', /^The dragon keep is finished!/);
});

test('arrow keys follow prev and next, but not with a modifier or while typing', async ({ page }) => {
  const post = showcase();
  const { prev, next } = neighbours(post);
  expect(prev && next).toBeTruthy();
  const here = postPath(post, post.id);
  await open(page, here);
  await expect(page.locator('a[rel="prev"]')).toHaveAttribute('href', postPath(post, prev!));
  await expect(page.locator('a[rel="next"]')).toHaveAttribute('href', postPath(post, next!));

  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Control+ArrowLeft');
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.id = 'typing';
    document.querySelector('main')!.prepend(input);
  });
  await page.locator('#typing').focus();
  await page.keyboard.type('abc');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(300);
  expect(new URL(page.url()).pathname).toBe(here);

  await page.locator('#typing').blur();
  await page.keyboard.press('ArrowRight');
  await page.waitForURL((url) => url.pathname === postPath(post, next!));
  await page.keyboard.press('ArrowLeft');
  await page.waitForURL((url) => url.pathname === here);
  await page.keyboard.press('ArrowLeft');
  await page.waitForURL((url) => url.pathname === postPath(post, prev!));
});

test('the revisions selector opens a revision, whose page has the same neighbours and keys', async ({ page }) => {
  const post = showcase();
  const [newest, oldest] = revisionIds(post);
  const { next } = neighbours(post);
  const here = postPath(post, post.id);
  await open(page, here);
  const select = page.getByRole('combobox', { name: 'Revision' });
  await expect(select.locator('option')).toHaveCount(3);
  await expect(select.locator('option').first()).toHaveText('Current');
  await select.selectOption(`${here}/revision/${oldest}`);
  await page.waitForURL((url) => url.pathname === `${here}/revision/${oldest}`);
  await expect(page.getByRole('combobox', { name: 'Revision' })).toHaveValue(`${here}/revision/${oldest}`);
  await expect(page.locator('head meta[name="revision"]')).toHaveAttribute('content', String(oldest));
  await expect(page.locator('head meta[name="service"]')).toHaveAttribute('content', post.service);
  const first = e2eRow<{ title: string }>(
    `SELECT json_extract(data, '$.title') AS title FROM post_revisions WHERE revision_id = ?`,
    oldest,
  );
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(first.title || 'Untitled');
  await expect(page.locator('a[rel="next"]')).toHaveAttribute('href', postPath(post, next!));

  await page.getByRole('combobox', { name: 'Revision' }).selectOption(`${here}/revision/${newest}`);
  await page.waitForURL((url) => url.pathname === `${here}/revision/${newest}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dragon keep (work in progress)');
  await page.getByRole('combobox', { name: 'Revision' }).selectOption({ label: 'Current' });
  await page.waitForURL((url) => url.pathname === here);

  await open(page, `${here}/revision/${newest}`);
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('ArrowRight');
  await page.waitForURL((url) => url.pathname === postPath(post, next!));
});

test('unknown revisions are 404 and a missing revision id is the guard message', async ({ request }) => {
  const post = showcase();
  const here = postPath(post, post.id);
  expect((await request.get(`${here}/revision/99999999`)).status()).toBe(404);
  expect((await request.get(`${here}/revision/abc`)).status()).toBe(404);
  const missing = await request.get(`${here}/revision`);
  expect(missing.status()).toBe(400);
  expect(await missing.text()).toContain('Revision ID is required.');
});

test('a post without comments says so; a guest favourites it on the device', async ({ page }) => {
  const quiet = e2eRow<{ service: string; user: string; id: string }>(
    `SELECT p.service, p."user", p.id FROM posts p WHERE NOT EXISTS (SELECT 1 FROM comments c WHERE c.service = p.service AND c."user" = p."user" AND c.post_id = p.id) LIMIT 1`,
  );
  const here = postPath(quiet, quiet.id);
  await open(page, here);
  await expect(page.getByText('No comments found for this post.')).toBeVisible();
  await page.getByRole('button', { name: '☆ Favorite' }).click();
  await expect(page.getByRole('button', { name: '★ Unfavorite' })).toBeVisible();
});

test('signed in, a failed flag goes back to Flag with an alert', async ({ page, context }) => {
  // A real failure: the session ends between loading the page and clicking (the server answers 401).
  const post = showcase();
  await signInBrowser(context);
  await page.goto('/');
  await page.evaluate(() => localStorage.setItem('logged_in', 'yes'));
  await open(page, postPath(post, post.id));
  const flag = page.getByRole('button', { name: /Flag/ });
  await expect(flag).toBeEnabled();
  await expect(flag).not.toHaveAttribute('title', 'Flagging requires an account');
  await context.clearCookies();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.accept();
  });
  await flag.click();
  await expect.poll(() => dialogs.length).toBe(2);
  expect(dialogs[0]).toMatch(/^confirm: /);
  expect(dialogs[1]).toBe('alert: Error flagging: You must be registered to access this page.');
  // The 401 also cleared the login state: the guest's disabled Flag.
  await expect(page.getByRole('button', { name: '⚑ Flag' })).toHaveAttribute('title', 'Flagging requires an account');
});

test('the folded tag row keeps its hidden tags out of the tab order and the accessibility tree', async ({ page }) => {
  await page.setViewportSize(WIDE);
  const post = showcase();
  await open(page, postPath(post, post.id));
  const tags = JSON.parse(post.tags) as string[];
  const list = page.locator('.post-tags__list');
  const showAll = page.getByRole('button', { name: 'Show all »' });
  await expect(showAll).toBeVisible();
  const firstRow = await list.evaluate((ul) => {
    const items = Array.from(ul.children) as HTMLElement[];
    return items.filter((item) => item.offsetTop === items[0].offsetTop).length;
  });
  expect(firstRow).toBeGreaterThan(0);
  expect(firstRow).toBeLessThan(tags.length);
  // Only the tags one can see are links to assistive technology.
  await expect(list.getByRole('link')).toHaveCount(firstRow);
  await expect(list.getByRole('link', { name: tags[firstRow], exact: true })).toHaveCount(0);

  // Tab goes through each tag in sight and its hide button, from the last straight to 'Show all »',
  // and the focus ring is not clipped.
  await list.locator('a').first().focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  for (let index = 0; index < firstRow; index += 1) {
    await expect(list.getByRole('link', { name: tags[index], exact: true })).toBeFocused();
    const ring = await page.evaluate(() => {
      const link = document.activeElement as HTMLElement;
      const box = link.getBoundingClientRect();
      const clip = link.closest('ul')!.getBoundingClientRect();
      const style = getComputedStyle(link);
      const out = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
      return { top: box.top - out - clip.top, bottom: clip.bottom - (box.bottom + out), left: box.left - out - clip.left };
    });
    expect(Math.min(ring.top, ring.bottom, ring.left)).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Tab');
    await expect(list.getByRole('button', { name: `Hide tag ${tags[index]}`, exact: true })).toBeFocused();
    await page.keyboard.press('Tab');
  }
  await expect(showAll).toBeFocused();

  // Shown, every tag is back: a link, and a tab stop before '« Hide'.
  await page.keyboard.press('Enter');
  const hide = page.getByRole('button', { name: '« Hide' });
  await expect(hide).toBeFocused();
  await expect(list.getByRole('link')).toHaveCount(tags.length);
  await page.keyboard.press('Shift+Tab');
  await expect(list.getByRole('button', { name: `Hide tag ${tags[tags.length - 1]}`, exact: true })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(list.getByRole('link', { name: tags[tags.length - 1], exact: true })).toBeFocused();
  await hide.click();
  await expect(list.getByRole('link')).toHaveCount(firstRow);
});

test('everything works from the keyboard', async ({ page }) => {
  const post = showcase();
  await open(page, postPath(post, post.id));
  /** Tabs until `name` has the focus (at most 80 presses). */
  async function tabTo(name: RegExp) {
    for (let i = 0; i < 80; i += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el ? `${el.tagName} ${el.getAttribute('aria-label') ?? ''} ${el.textContent ?? ''} ${el.getAttribute('href') ?? ''}` : '';
      });
      if (name.test(focused)) return;
    }
    throw new Error(`${name} never got the focus`);
  }
  await tabTo(/^BUTTON\s.*☆ Favorite/);
  await tabTo(/^A .*next »/);
  await tabTo(/^SELECT/);
  await tabTo(/Show all »/);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: '« Hide' })).toBeFocused();
  await tabTo(/^BUTTON .*Choice/);
  await page.keyboard.press('Enter');
  await expect(page.locator('.post-poll__choices th[aria-sort]').first()).toHaveAttribute('aria-sort', 'descending');
  await tabTo(/post-files|^A .*\/data\/.*\.(png|jpe?g|webp|gif)\?f=/);
  await page.keyboard.press('Enter');
  await expect(page.locator('.post-files__link').first()).toHaveAttribute('aria-expanded', 'true');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('revisions are links, every tag shows and thumbnails link to their files', async ({ page }) => {
    const post = showcase();
    const [newest] = revisionIds(post);
    const here = postPath(post, post.id);
    await page.goto(here);
    await expect(page.getByRole('combobox', { name: 'Revision' })).toBeHidden();
    await page
      .getByRole('navigation', { name: 'Revisions' })
      .getByRole('link', { name: new RegExp(`^Revision ${newest}`) })
      .click();
    await expect(page).toHaveURL(new RegExp(`${here}/revision/${newest}$`));
    await page.goto(here);
    const tags = JSON.parse(post.tags) as string[];
    await expect(page.locator('.post-tags__list').getByRole('link', { name: tags[tags.length - 1], exact: true })).toBeVisible();
    await expect(page.locator('.post-files__link').first()).toHaveAttribute('href', /^\/data\/.*\?f=/);
  });
});
