/**
 * The login page's `location` through the real form in Chromium: whatever it holds (dot segments that
 * normalise into '//host', encodings, backslashes, tabs and newlines, schemes), the browser must land
 * on this site. Each payload is a real, successful login of the demo consumer followed by a logout.
 */
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config.ts';
import { DEFAULT_AFTER_LOGIN, safeLocation } from '@shared/redirects.ts';
import { E2E_DB_FILE } from './e2e-db.ts';

const SITE = `http://127.0.0.1:${E2E_PORT}`;

/** `location` values as written in the address bar (so percent-escapes reach the server decoded once). */
const HOSTILE = [
  '/.//evil.example',
  '/..//evil.example',
  '/%2e%2e//evil.example',
  '/%252e%252e//evil.example',
  '/x/..//evil.example',
  '/x/%252E%252E//evil.example',
  '/a/b/../..//evil.example/steal?x=1#y',
  '/.%2F/evil.example',
  '/%2e/%2e%2e//evil.example',
  '//evil.example',
  '///evil.example',
  '%2F%2Fevil.example',
  '/%5Cevil.example',
  '/%255Cevil.example',
  '/\\evil.example',
  '%5C%5Cevil.example',
  '/%5C/evil.example',
  '/..%5C/evil.example',
  '%09//evil.example',
  '/%09/evil.example',
  '/%0A/evil.example',
  '/%0D%0A/evil.example',
  '%0D%0ALocation:%20//evil.example',
  'javascript:alert(document.domain)',
  'JaVaScRiPt%3Aalert(1)',
  '%20javascript:alert(1)',
  'java%09script:alert(1)',
  'data:text/html,%3Cscript%3Ealert(1)%3C/script%3E',
  'https:evil.example',
  'https:/evil.example',
  'https://evil.example/',
  'http:%2F%2Fevil.example',
  'https:%5C%5Cevil.example',
  '//evil.example@127.0.0.1',
  'evil.example',
];
/** Same-site locations: the login still follows them (the test can see a followed location at all). */
const SAME_SITE = ['/posts', '/artists?q=ab', '/x/../posts', '/%2e/artists'];

/** The login limits count per address: the payloads are more logins than one address gets per minute. */
function resetLoginLimits(): void {
  const db = new Database(E2E_DB_FILE);
  try {
    db.prepare("DELETE FROM rate_limits WHERE key LIKE 'login-%'").run();
  } finally {
    db.close();
  }
}

for (const location of [...HOSTILE, ...SAME_SITE]) {
  test(`login with location=${location} lands on this site`, async ({ page, context }) => {
    // Anything off this site answers a page of its own, so a wrong landing is seen rather than a DNS error.
    await context.route(
      (url) => url.origin !== SITE,
      (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Another site</h1>' }),
    );
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    resetLoginLimits();

    await page.goto(`/authentication/login?location=${location}`);
    const form = page.getByRole('form', { name: 'Login' });
    await expect(form.getByRole('status')).toHaveText('Ready for submit');
    await form.getByLabel('Username').fill('consumer');
    await form.getByLabel('Password').fill('consumer-password');
    await form.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((url) => !(url.origin === SITE && url.pathname === '/authentication/login'), { timeout: 15_000 });

    const landed = new URL(page.url());
    expect(landed.origin).toBe(SITE);
    expect(dialogs).toEqual([]);
    const sent = new URLSearchParams(`location=${location}`).get('location');
    const expected = safeLocation(sent);
    if (HOSTILE.includes(location)) expect(expected).toBe(DEFAULT_AFTER_LOGIN);
    expect(landed.pathname + landed.search).toBe(expected);
    // The login really happened (this is not the form's fallback for a failure).
    expect((await page.request.get('/api/v1/account')).status()).toBe(200);

    const logout = await page.request.post('/api/v1/authentication/logout');
    expect(logout.status()).toBe(204);
  });
}
