import { defineConfig } from '@playwright/test';
import path from 'node:path';
import { CHROMIUM_ARGS, findSystemChromium } from './scripts/lib/chromium.ts';

// The browser tests run against `npm start` on a throwaway data folder with the demo archive.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4391);
export const E2E_DATA_DIR = path.resolve(process.env.E2E_DATA_DIR ?? '.tmp/e2e-data');
/** A fake Patreon (tests/fakes/patreon-server.ts) the site's importer talks to in the browser tests. */
export const E2E_FAKE_PATREON_PORT = Number(process.env.E2E_FAKE_PATREON_PORT ?? E2E_PORT + 1000);
const fakePatreonUrl = `http://127.0.0.1:${E2E_FAKE_PATREON_PORT}`;
/** A fake CandFans (tests/fakes/candfans.ts: candfans.jp, then image. and video. on the next ports); range E2E_PORT+1090..1099. */
export const E2E_FAKE_CANDFANS_PORT = Number(process.env.E2E_FAKE_CANDFANS_PORT ?? E2E_PORT + 1090);
const fakeCandfansUrl = `http://127.0.0.1:${E2E_FAKE_CANDFANS_PORT}`;

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    launchOptions: {
      // A system Chromium when there is one (npm test installs one if needed), else Playwright's own.
      executablePath: findSystemChromium(),
      args: CHROMIUM_ARGS,
    },
  },
  webServer: [
    {
      command: `npx tsx tests/fakes/patreon-server.ts --port ${E2E_FAKE_PATREON_PORT}`,
      // Any answer means it is up (it says 401 without the session cookie).
      url: `${fakePatreonUrl}/api/current_user`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
    {
      command: `npx tsx tests/fakes/serve.ts candfans --port ${E2E_FAKE_CANDFANS_PORT} --image-port ${E2E_FAKE_CANDFANS_PORT + 1} --video-port ${E2E_FAKE_CANDFANS_PORT + 2}`,
      // The public profile answers without a session.
      url: `${fakeCandfansUrl}/api/user/get-users?user_code=sakura_cf`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
    {
      command: 'npx tsx scripts/start.ts',
      url: `http://127.0.0.1:${E2E_PORT}/api/v1/app_version`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: {
        PORT: String(E2E_PORT),
        HOST: '127.0.0.1',
        DATA_DIR: E2E_DATA_DIR,
        TROVE_ENV: 'test',
        IMPORTER_PATREON_URL: fakePatreonUrl,
        IMPORTER_CANDFANS_URL: fakeCandfansUrl,
        IMPORTER_CANDFANS_CDN_URL: `http://127.0.0.1:${E2E_FAKE_CANDFANS_PORT + 1}`,
        IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
      },
    },
  ],
});
