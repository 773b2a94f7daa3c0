/**
 * The import specs' shared steps: waiting on /importer/status/{id} while the server's worker runs the
 * import in real time, rebuilding the stored pages after it, and clearing the submission limit.
 */
import { execFileSync } from 'node:child_process';
import { expect, type Page } from '@playwright/test';
import { openDatabase } from '@api/data/db.ts';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import { E2E_DB_FILE } from './e2e-db.ts';
import { IMPORT_POLL_MS } from '@shared/constants.ts';

/**
 * Polls the status table until it says `wanted`. The page polls every IMPORT_POLL_MS: the test installs
 * a fake clock (page.clock.install() before the page loads) and moves it on instead of waiting.
 */
export async function waitForImportStatus(page: Page, wanted: 'Finished' | 'Failed', timeout = 60_000) {
  const status = page.locator('[data-field="Status"]');
  await expect
    .poll(
      async () => {
        if ((await status.textContent()) !== wanted) await page.clock.runFor(IMPORT_POLL_MS);
        return status.textContent();
      },
      { timeout, intervals: [500] },
    )
    .toBe(wanted);
}

/**
 * Submits a session key for the default paysite (Patreon) on /importer, as the page's signed-in user,
 * and waits on the status page until the site's worker has finished the import.
 */
export async function submitKeyUntilFinished(page: Page, key: string): Promise<void> {
  await page.clock.install();
  await page.goto('/importer');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Session key' }).fill(key);
  await page.getByRole('button', { name: 'Submit Key' }).click();
  await page.waitForURL(/\/importer\/status\/[0-9a-f]+$/);
  await waitForImportStatus(page, 'Finished');
}

/** The stored pages follow an import at the next rebuild (the e2e server does not run its rebuild loop). */
export function rebuildStoredPages(): void {
  execFileSync('npx', ['tsx', 'scripts/rebuild.ts'], {
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR, TROVE_ENV: 'test' },
    encoding: 'utf8',
  });
}

/**
 * Earlier runs on the same data folder leave the import-submission limit used: start from none, after
 * any other `DELETE ...` statements given (DMs a previous run approved, for instance).
 */
export function allowImportSubmissions(...cleanups: Array<[sql: string, ...args: unknown[]]>): void {
  const db = openDatabase(E2E_DB_FILE);
  try {
    for (const [sql, ...args] of cleanups) db.prepare(sql).run(...args);
    db.prepare("DELETE FROM rate_limits WHERE key LIKE 'import-%'").run();
  } finally {
    db.close();
  }
}
