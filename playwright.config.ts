import { defineConfig } from '@playwright/test';
import path from 'node:path';
import { CHROMIUM_ARGS, findSystemChromium } from './scripts/lib/chromium.ts';

// The browser tests run against `npm start` on a throwaway data folder with the demo archive.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4391);
export const E2E_DATA_DIR = path.resolve(process.env.E2E_DATA_DIR ?? '.tmp/e2e-data');
/** A fake Patreon (tests/fakes/patreon-server.ts) the site's importer talks to in the browser tests. */
export const E2E_FAKE_PATREON_PORT = Number(process.env.E2E_FAKE_PATREON_PORT ?? E2E_PORT + 1000);
const fakePatreonUrl = `http://127.0.0.1:${E2E_FAKE_PATREON_PORT}`;
/**
 * A second Trove on PostgreSQL for tests/e2e/postgres-smoke.spec.ts (tests/e2e/postgres-server.ts: a
 * throwaway cluster, then `npm start` with DATABASE_URL), on its own data folder, emptied at each start.
 * The server writes its cluster's DATABASE_URL to E2E_POSTGRES_URL_FILE for the spec to query.
 */
export const E2E_POSTGRES_PORT = Number(process.env.E2E_POSTGRES_PORT ?? E2E_PORT + 2);
export const E2E_POSTGRES_DATA_DIR = `${E2E_DATA_DIR}-postgres`;
export const E2E_POSTGRES_URL_FILE = `${E2E_POSTGRES_DATA_DIR}.url`;

/**
 * The other fake paysites the import specs (tests/e2e/import-<site>.spec.ts) submit keys to, each run by
 * `tests/fakes/serve.ts <site>` on E2E_PORT + offset (its CDN or file hosts on the next port), with the
 * settings that point Trove's importer at it. `ready` is a path that answers once the fake is up (a 401
 * counts). E2E_FAKE_<SITE>_PORT moves one.
 */
interface E2eFake {
  site: string;
  offset: number;
  ready: string;
  env: (url: string, port: number) => Record<string, string>;
  /** The fake's options beyond --port (default: its CDN on the next port). */
  args?: (port: number) => string;
}
const ONLYFANS_RULES = 'tests/fakes/onlyfans-rules.json';
const FAKES: E2eFake[] = [
  { site: 'fantia', offset: 1010, ready: '/', env: (url) => ({ IMPORTER_FANTIA_URL: url }) },
  {
    site: 'subscribestar',
    offset: 1020,
    ready: '/login',
    env: (url, port) => ({ IMPORTER_SUBSCRIBESTAR_URL: url, IMPORTER_SUBSCRIBESTAR_ADULT_URL: `http://127.0.0.1:${port + 1}` }),
    args: (port) => `--adult-port ${port + 1} --cdn-port ${port + 2}`,
  },
  { site: 'gumroad', offset: 1030, ready: '/login', env: (url) => ({ IMPORTER_GUMROAD_URL: url }) },
  { site: 'boosty', offset: 1040, ready: '/v1/user/current', env: (url) => ({ IMPORTER_BOOSTY_URL: url }) },
  { site: 'afdian', offset: 1050, ready: '/api/my/profile', env: (url) => ({ IMPORTER_AFDIAN_URL: url }) },
  {
    site: 'dlsite',
    offset: 1060,
    ready: '/api/v3/content/count',
    env: (url) => ({ IMPORTER_DLSITE_URL: url, IMPORTER_DLSITE_PLAY_URL: url }),
  },
  { site: 'fansly', offset: 1070, ready: '/', env: (url) => ({ IMPORTER_FANSLY_URL: url }) },
  {
    site: 'candfans',
    offset: 1090,
    // The public profile answers without a session.
    ready: '/api/user/get-users?user_code=sakura_cf',
    env: (url, port) => ({ IMPORTER_CANDFANS_URL: url, IMPORTER_CANDFANS_CDN_URL: `http://127.0.0.1:${port + 1}` }),
    args: (port) => `--image-port ${port + 1} --video-port ${port + 2}`,
  },
  {
    site: 'onlyfans',
    offset: 1080,
    // 400 for an unsigned request means it is up.
    ready: '/api2/v2/users/me',
    env: (url) => ({ IMPORTER_ONLYFANS_URL: url, IMPORTER_ONLYFANS_RULES: ONLYFANS_RULES }),
    args: (port) => `--cdn-port ${port + 1} --public-port ${port + 2} --rules ${ONLYFANS_RULES}`,
  },
];
const fakePort = (fake: E2eFake) => Number(process.env[`E2E_FAKE_${fake.site.toUpperCase()}_PORT`] ?? E2E_PORT + fake.offset);
/** The port a spec finds its fake paysite on. */
export function e2eFakePort(site: string): number {
  const fake = FAKES.find((candidate) => candidate.site === site);
  if (!fake) throw new Error(`no fake ${site} in playwright.config.ts`);
  return fakePort(fake);
}
const fakeUrl = (fake: E2eFake) => `http://127.0.0.1:${fakePort(fake)}`;

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
    ...FAKES.map((fake) => ({
      command: `npx tsx tests/fakes/serve.ts ${fake.site} --port ${fakePort(fake)} ${fake.args?.(fakePort(fake)) ?? `--cdn-port ${fakePort(fake) + 1}`}`,
      url: `${fakeUrl(fake)}${fake.ready}`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe' as const,
    })),
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
        ...Object.assign({}, ...FAKES.map((fake) => fake.env(fakeUrl(fake), fakePort(fake)))),
        IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
      },
    },
    {
      // After the SQLite server, which leaves an up-to-date build (dist/) behind: Playwright starts its web
      // servers one after the other, so the two never run `astro build` into the same folder at once.
      command: 'npx tsx tests/e2e/postgres-server.ts',
      url: `http://127.0.0.1:${E2E_POSTGRES_PORT}/api/v1/app_version`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      // SIGTERM, not Playwright's default SIGKILL: the script stops its cluster on the way out.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      env: {
        PORT: String(E2E_POSTGRES_PORT),
        HOST: '127.0.0.1',
        DATA_DIR: E2E_POSTGRES_DATA_DIR,
        E2E_POSTGRES_URL_FILE,
        TROVE_ENV: 'test',
        IMPORTER_PATREON_URL: fakePatreonUrl,
        IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
        // The stored pages follow the import by themselves (the SQLite-only rebuildStoredPages cannot).
        REBUILD_INTERVAL_SECONDS: '2',
      },
    },
  ],
});
