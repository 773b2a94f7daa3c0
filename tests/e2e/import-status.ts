/** Waiting on /importer/status/{id} while the server's worker runs the import in real time. */
import { expect, type Page } from '@playwright/test';
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
