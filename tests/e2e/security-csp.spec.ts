/**
 * The Content-Security-Policy in Chromium: every page kind of the page permission matrix
 * (tests/api/page-coverage.ts), with real data of the demo archive and as the role that may see it, plus
 * the Discord server view, a community channel and hash search hashing a file (WebAssembly), runs
 * without one `securitypolicyviolation` and with every island hydrated. And an inline script or event
 * handler injected into a stored, a prerendered and an on-demand page does not run.
 */
import { createHash } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import type { Role } from '@api/data/accounts.ts';
import { PAGE_COVERAGE } from '../api/page-coverage.ts';
import { e2eRow, signInBrowser } from './e2e-db.ts';

interface Violation {
  directive: string;
  blocked: string;
  sample: string;
  page: string;
}

declare global {
  interface Window {
    __injected?: string[];
  }
}

/**
 * Collects every violation of every document the context opens (a page may navigate by itself, as
 * logout does). The listener is installed before any page script runs, so a violation by the first
 * inline script is seen too.
 */
async function watchViolations(context: BrowserContext): Promise<Violation[]> {
  const seen: Violation[] = [];
  await context.exposeBinding('__reportCspViolation', ({ page }, violation: Omit<Violation, 'page'>) => {
    seen.push({ ...violation, page: page?.url() ?? '' });
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (v: object) => void }).__reportCspViolation;
      report({ directive: event.violatedDirective, blocked: event.blockedURI, sample: event.sample });
    });
  });
  // Chat avatars and emojis come from the Discord content host: allowed, but there is no network here.
  await context.route('https://cdn.discordapp.com/**', (route) => route.abort());
  return seen;
}

/** Violations are reported asynchronously: give the last ones a moment to arrive. */
async function settled(page: Page, seen: Violation[]): Promise<Violation[]> {
  await page.waitForTimeout(200);
  return seen;
}

/** Every island hydrates: client:visible ones once scrolled to. */
async function expectHydrated(page: Page): Promise<void> {
  // client:visible islands hydrate once scrolled to: each in turn, a frame apart. (No actionability
  // wait: an island may sit in a closed menu.)
  const count = await page.locator('astro-island').count();
  for (let index = 0; index < count; index += 1) {
    await page.evaluate(async (nth) => {
      // The island element itself has no box (display: contents): its content is what scrolls into view.
      const island = document.querySelectorAll('astro-island')[nth];
      (island?.firstElementChild ?? island)?.scrollIntoView();
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    }, index);
  }
  const unhydrated = () =>
    page.evaluate(() => [...document.querySelectorAll('astro-island[ssr]')].map((island) => island.getAttribute('component-url')));
  await expect.poll(unhydrated, { message: `islands left unhydrated on ${page.url()}`, timeout: 15_000 }).toEqual([]);
}

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|hydrat/i.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/** The real URL of each page file in the demo archive (the matrix's sample URLs use made-up ids). */
function realUrls(): Record<string, string> {
  const post = e2eRow<{ service: string; user: string; id: string }>(
    `SELECT service, "user", id FROM posts WHERE service = 'patreon' ORDER BY seq LIMIT 1`,
  );
  const revision = e2eRow<{ service: string; user: string; post_id: string; revision_id: number }>(
    'SELECT service, "user", post_id, revision_id FROM post_revisions ORDER BY revision_id LIMIT 1',
  );
  const fancard = e2eRow<{ user_id: string }>('SELECT user_id FROM fancards LIMIT 1');
  const announcement = e2eRow<{ service: string; user_id: string }>('SELECT service, user_id FROM announcements LIMIT 1');
  const dm = e2eRow<{ service: string; user: string }>(`SELECT service, "user" FROM dms WHERE status = 'approved' LIMIT 1`);
  const community = e2eRow<{ creator_id: string; channel_id: string }>('SELECT creator_id, channel_id FROM community_channels LIMIT 1');
  const discord = e2eRow<{ server_id: string }>('SELECT server_id FROM discord_channels WHERE type = 0 LIMIT 1');
  const archive = e2eRow<{ file_hash: string }>('SELECT file_hash FROM archive_files LIMIT 1');
  const share = e2eRow<{ share_id: number; service: string; creator_id: string }>(
    'SELECT share_id, service, creator_id FROM share_creators LIMIT 1',
  );
  const imported = e2eRow<{ id: string } | undefined>('SELECT id FROM imports LIMIT 1');
  const account = e2eRow<{ id: number }>(`SELECT id FROM accounts WHERE role = 'consumer' LIMIT 1`);
  const creator = `/${post.service}/user/${post.user}`;
  return {
    'src/pages/[service]/post/[post].astro': `/${post.service}/post/${post.id}`,
    'src/pages/[service]/user/[id]/announcements.astro': `/${announcement.service}/user/${announcement.user_id}/announcements`,
    'src/pages/[service]/user/[id]/dms.astro': `/${dm.service}/user/${dm.user}/dms`,
    'src/pages/[service]/user/[id]/community/index.astro': `/patreon/user/${community.creator_id}/community`,
    'src/pages/[service]/user/[id]/community/[channel].astro': `/patreon/user/${community.creator_id}/community/${community.channel_id}`,
    'src/pages/discord/server/[...path].astro': `/discord/server/${discord.server_id}`,
    'src/pages/[service]/user/[id]/fancards.astro': `/fanbox/user/${fancard.user_id}/fancards`,
    'src/pages/[service]/user/[id]/index.astro': creator,
    'src/pages/[service]/user/[id]/links.astro': `${creator}/links`,
    'src/pages/[service]/user/[id]/post/[post].astro': `${creator}/post/${post.id}`,
    'src/pages/[service]/user/[id]/post/[post]/revision/[revision].astro': `/${revision.service}/user/${revision.user}/post/${revision.post_id}/revision/${revision.revision_id}`,
    'src/pages/[service]/user/[id]/post/[post]/revision/index.astro': `/${revision.service}/user/${revision.user}/post/${revision.post_id}/revision/`,
    'src/pages/[service]/user/[id]/shares.astro': `/${share.service}/user/${share.creator_id}/shares`,
    'src/pages/[service]/user/[id]/tags.astro': `${creator}/tags`,
    'src/pages/[service]/user/[id]/links/new.astro': `${creator}/links/new`,
    'src/pages/account/[service]/user/[id]/links/new.astro': `/account${creator}/links/new`,
    'src/pages/importer/status/[importId].astro': `/importer/status/${imported?.id ?? 'unknown'}`,
    'src/pages/file/[hash].astro': `/file/${archive.file_hash}`,
    'src/pages/posts/archives/[hash].astro': `/posts/archives/${archive.file_hash}`,
    'src/pages/share/[id].astro': `/share/${share.share_id}`,
    'src/pages/account/administrator/account/[id].astro': `/account/administrator/account/${account.id}`,
  };
}

const roleFor: Record<string, Role | undefined> = {
  public: undefined,
  account: 'consumer',
  moderator: 'moderator',
  administrator: 'administrator',
};

test.describe('every page kind runs under the policy', () => {
  let urls: Record<string, string>;
  test.beforeAll(() => {
    urls = realUrls();
  });

  const extra = {
    'Discord channel with messages': () => {
      const channel = e2eRow<{ server_id: string; id: string }>(
        'SELECT c.server_id, c.id FROM discord_channels c JOIN discord_messages m ON m.channel_id = c.id GROUP BY c.id ORDER BY count(*) DESC LIMIT 1',
      );
      return `/discord/server/${channel.server_id}/${channel.id}`;
    },
    'post with files': () => {
      const row = e2eRow<{ service: string; user: string; id: string }>(
        'SELECT p.service, p."user", p.id FROM posts p JOIN post_files pf ON pf.post_seq = p.seq GROUP BY p.seq ORDER BY count(*) DESC LIMIT 1',
      );
      return `/${row.service}/user/${row.user}/post/${row.id}`;
    },
    'search results': () => '/posts?q=the',
  };
  const cases = [
    ...Object.entries(PAGE_COVERAGE).map(([file, page]) => ({ name: file, file, access: page.access, url: () => urls[file] ?? page.url })),
    ...Object.entries(extra).map(([name, url]) => ({ name, file: undefined, access: 'public' as const, url })),
  ];

  /** Pages that leave by themselves once hydrated: where they go. */
  const leavesFor: Record<string, string> = { 'src/pages/authentication/logout.astro': '/' };

  for (const { name, access, url } of cases) {
    test(`${name} (${access})`, async ({ page, context }) => {
      const seen = await watchViolations(context);
      const role = roleFor[access];
      if (role) await signInBrowser(context, { role });
      const errors = watchErrors(page);
      const target = url();
      const response = await page.goto(target);
      expect(response, target).not.toBeNull();
      const headers = await response!.allHeaders();
      // Endpoints (the feeds) answer documents for feed readers, not pages: no script of ours runs in them.
      if (name.endsWith('.ts')) {
        expect(headers['content-type'], target).not.toMatch(/^text\/html/);
        return;
      }
      const policy = headers['content-security-policy'] ?? '';
      // A page may redirect (random, the Discord server view): the policy is checked on where it landed.
      expect(policy, `${target} → ${page.url()}`).toMatch(/script-src 'self'/);
      expect(policy.match(/script-src[^;]*/)![0]).not.toContain('unsafe-inline');
      await page.waitForLoadState('load');
      if (leavesFor[name]) await page.waitForURL((landed) => landed.pathname === leavesFor[name]);
      await expectHydrated(page);
      // The inline head scripts ran (a blocked one would leave these unset).
      await expect(page.locator('html')).toHaveAttribute('data-sidebar', /^(open|closed)$/);
      expect(await page.evaluate(() => document.documentElement.style.getPropertyValue('--card-size'))).toMatch(/^\d+px$/);
      expect(await settled(page, seen), `${target} → ${page.url()}`).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
});

test('hash search hashes a chosen file (WebAssembly) under the policy', async ({ page, context }) => {
  const seen = await watchViolations(context);
  const errors = watchErrors(page);
  await page.goto('/search_hash');
  await expectHydrated(page);
  const bytes = Buffer.from('csp probe');
  await page.locator('#hash-search-file').setInputFiles({ name: 'probe.bin', mimeType: 'application/octet-stream', buffer: bytes });
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(`/search_hash?hash=${createHash('sha256').update(bytes).digest('hex')}`);
  expect(await settled(page, seen)).toEqual([]);
  expect(errors).toEqual([]);
});

test.describe('an injected inline script does not run', () => {
  const pages = {
    'a stored archive page': () => {
      const creator = e2eRow<{ service: string; id: string }>(`SELECT service, id FROM creators WHERE service = 'patreon' LIMIT 1`);
      return `/${creator.service}/user/${creator.id}`;
    },
    'a prerendered text page': () => '/contact',
    'a page rendered on demand': () => '/authentication/login',
  };
  const INJECTED =
    `<script>(window.__injected = window.__injected || []).push('inline script')</script>` +
    `<img src="/favicon.svg" alt="" onload="(window.__injected = window.__injected || []).push('event handler')">` +
    `<a id="injected-link" href="javascript:(window.__injected = window.__injected || []).push('javascript: URL')">x</a>`;

  for (const [kind, url] of Object.entries(pages)) {
    test(kind, async ({ page, context }) => {
      const seen = await watchViolations(context);
      const target = url();
      // The server's real answer, headers and all, with markup an attacker got into the page.
      await page.route(
        (requested) => requested.pathname === target,
        async (route) => {
          const response = await route.fetch({ headers: { ...route.request().headers(), 'accept-encoding': 'identity' } });
          const body = (await response.text()).replace('<body>', `<body>${INJECTED}`);
          const headers = Object.fromEntries(
            Object.entries(response.headers()).filter(([name]) => !/^content-(length|encoding)$/i.test(name)),
          );
          await route.fulfill({ status: response.status(), headers, body });
        },
      );
      const response = await page.goto(target);
      expect((await response!.allHeaders())['content-security-policy']).toMatch(/script-src 'self'/);
      await expect(page.locator('#injected-link')).toHaveCount(1);
      // Followed like a click (the fixed sidebar covers where the link was injected).
      await page.evaluate(() => document.getElementById('injected-link')!.click());
      await expectHydrated(page);
      expect(await page.evaluate(() => window.__injected ?? [])).toEqual([]);
      await settled(page, seen);
      // The inline script and the javascript: URL (script-src-elem) and the event handler (script-src-attr).
      expect(seen.map((v) => v.directive).sort()).toEqual(['script-src-attr', 'script-src-elem', 'script-src-elem']);
      // The page's own inline scripts still ran.
      await expect(page.locator('html')).toHaveAttribute('data-sidebar', /^(open|closed)$/);
    });
  }
});
