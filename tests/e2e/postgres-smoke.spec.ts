/**
 * One smoke test of Trove on PostgreSQL in Chromium, against the second server playwright.config.ts
 * starts (tests/e2e/postgres-server.ts: a throwaway cluster, a fresh data folder, the demo archive seeded
 * into the cluster). As a user: sign in with the login form as the demo consumer, favourite a demo
 * creator and find it on the favourites page, import from the fake Patreon, then open the imported
 * creator and one of its new posts. The cluster itself is asked whether the import landed in it.
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { dataPaths } from '@api/config.ts';
import { E2E_POSTGRES_DATA_DIR, E2E_POSTGRES_PORT, E2E_POSTGRES_URL_FILE } from '../../playwright.config.ts';
import { FAKE_CREATOR_ID, FAKE_CREATOR_NAME, FAKE_PATREON_KEY } from '../fakes/patreon.ts';
import { submitKeyUntilFinished } from './import-status.ts';

test.use({ baseURL: `http://127.0.0.1:${E2E_POSTGRES_PORT}` });

/** The fake's 'Fake post 1', with a post file and an image attachment (tests/fakes/patreon-data.ts). */
const FIRST_POST_ID = '90000001';
const creatorPath = `/patreon/user/${FAKE_CREATOR_ID}`;

test('on PostgreSQL: sign in, favourite a creator, import from Patreon, open the new post', async ({ page }) => {
  test.setTimeout(90_000);
  const db = new pg.Client({ connectionString: fs.readFileSync(E2E_POSTGRES_URL_FILE, 'utf8').trim() });
  await db.connect();
  try {
    // The server answers from the cluster: the demo archive is in it, and no SQLite file was made.
    const sessions = await db.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
    );
    expect(sessions.rows[0].n).toBeGreaterThan(0);
    expect(fs.existsSync(dataPaths(E2E_POSTGRES_DATA_DIR).database)).toBe(false);
    // A demo creator with posts that the demo consumer has not favourited yet.
    const { rows: creators } = await db.query<{ service: string; id: string; name: string }>(
      `SELECT c.service, c.id, c.name FROM creators c
        WHERE c.service IN ('patreon', 'fanbox', 'fantia')
          AND EXISTS (SELECT 1 FROM posts p WHERE p.service = c.service AND p."user" = c.id)
          AND NOT EXISTS (SELECT 1 FROM favorite_creators f JOIN accounts a ON a.id = f.account_id
                          WHERE a.username = 'consumer' AND f.service = c.service AND f.creator_id = c.id)
        ORDER BY c.service, c.id LIMIT 1`,
    );
    expect(creators).toHaveLength(1);
    const [creator] = creators;

    // Sign in with the form.
    await page.goto(`/authentication/login?location=${encodeURIComponent(`/${creator.service}/user/${creator.id}`)}`);
    const form = page.getByRole('form', { name: 'Login' });
    await expect(form.getByRole('status')).toHaveText('Ready for submit');
    await form.getByLabel('Username').fill('consumer');
    await form.getByLabel('Password').fill('consumer-password');
    await form.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((url) => url.pathname === `/${creator.service}/user/${creator.id}`);

    // Favourite the creator from its page; the favourites page lists it.
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await page.getByRole('button', { name: '☆ Favorite' }).click();
    await expect(page.getByRole('button', { name: '★ Unfavorite' })).toBeEnabled();
    await page.goto('/account/favorites/artists');
    await expect(page.locator(`.creator-card[data-service="${creator.service}"][data-id="${creator.id}"]`)).toBeVisible();

    // Import from the fake Patreon.
    await submitKeyUntilFinished(page, FAKE_PATREON_KEY);

    // The imported creator and one new post, with its file. Its stored page follows the import within the
    // rebuild interval (2 s here): a page stored while the import was running may be served until then.
    await expect(async () => {
      await page.goto(creatorPath);
      await expect(page.locator('.post-card')).toHaveCount(12, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.locator('.creator-header__name')).toHaveText(FAKE_CREATOR_NAME);
    await page.locator(`.post-card[data-id="${FIRST_POST_ID}"] a`).click();
    await expect(page.locator('.post-header__title')).toHaveText('Fake post 1');
    const files = page.getByRole('region', { name: 'Files' });
    await expect(files.getByRole('img', { name: 'extra-1.png' })).toBeVisible();
    const href = await files.locator('a[href^="/data/"]').first().getAttribute('href');
    const file = await page.request.get(href!);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('image/png');

    // The posts and the favourite are rows of the cluster.
    const posts = await db.query('SELECT count(*)::int AS n FROM posts WHERE service = $1 AND "user" = $2', ['patreon', FAKE_CREATOR_ID]);
    expect(posts.rows[0].n).toBe(12);
    const favourite = await db.query(
      `SELECT count(*)::int AS n FROM favorite_creators f JOIN accounts a ON a.id = f.account_id
        WHERE a.username = 'consumer' AND f.service = $1 AND f.creator_id = $2`,
      [creator.service, creator.id],
    );
    expect(favourite.rows[0].n).toBe(1);
  } finally {
    await db.end();
  }
});
