/**
 * The same pages on both engines: the demo archive on SQLite and on PostgreSQL
 * (tests/api/engine-parity-archive.ts: seeded once, copied, and why), the real front server with the
 * built SSR handler on each, and every page file of tests/api/page-coverage.ts requested with real demo
 * ids, as a guest or as the signed-in demo account its access needs. The loaders in src/loaders run
 * with the database injected, so this compares each loader's output as the page renders it: status,
 * Location, content type and the HTML (or feed XML) byte for byte.
 *
 * Normalised, because it must differ: each server's origin becomes '<origin>', and the number of each
 * React island's id prefix (prefix="r23": Astro counts the islands rendered in the process, and both
 * sites share the one SSR handler) becomes 'r#'. Held equal: the clock
 * (Date) is stopped and Math.random fixed for each pair of requests (pages print relative dates and
 * "today"; the random pages redirect to what they draw).
 */
import type http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '@api/app.ts';
import { dataPaths, readConfig, type Config } from '@api/config.ts';
import { getFileByHash } from '@api/data/files.ts';
import { createFrontServer } from '@api/server/front.ts';
import { PageStore } from '@api/server/page-store.ts';
import { createPageRenderer, loadSsrHandler } from '@api/server/ssr.ts';
import { DIST_DIR } from '../../scripts/lib/build.ts';
import { closeServer, listen } from '../helpers/http.ts';
import {
  type DemoCaller,
  type DemoIds,
  type DemoOnBothEngines,
  demoOnBothEngines,
  ENGINE_NAMES,
  signInDemoCallers,
} from './engine-parity-archive.ts';
import type { Caller } from './engine-parity-routes.ts';
import { PAGE_COVERAGE } from './page-coverage.ts';

interface PageCase {
  /** The page file of page-coverage.ts. */
  file: string;
  url: string;
  as?: Caller;
}

interface Site {
  origin: string;
  http: http.Server;
  cookies: Record<DemoCaller, string>;
}

interface Page {
  status: number;
  location: string | null;
  type: string | null;
  text: string;
}

/** Every page file with real demo ids (a few files more than once). */
function pageCases(d: DemoIds): PageCase[] {
  const c = (service: string, id: string) => `/${service}/user/${encodeURIComponent(id)}`;
  const busiest = c(d.busiest.service, d.busiest.id);
  const creator = c(d.showcase.service, d.showcase.user);
  const post = `${creator}/post/${d.showcase.id}`;
  const fanbox = c('fanbox', d.fanbox);
  const page = (file: string, url: string, as?: Caller): PageCase => ({ file: `src/pages/${file}`, url, as });
  return [
    page('404.astro', '/no-such-page'),
    page('[...unknown].astro', '/no/such/page'),
    page('500.astro', '/500'),
    page('[page].astro', '/contact'),
    page('[service]/post/[post].astro', `/${d.showcase.service}/post/${d.showcase.id}`),
    page('[service]/user/[id]/announcements.astro', `${c(d.announced.service, d.announced.id)}/announcements`),
    page('[service]/user/[id]/dms.astro', `${c(d.dmCreator.service, d.dmCreator.id)}/dms`),
    page('[service]/user/[id]/community/index.astro', `${c('patreon', d.community.creator)}/community`),
    page('[service]/user/[id]/community/[channel].astro', `${c('patreon', d.community.creator)}/community/${d.community.channel}`),
    page('discord/server/[...path].astro', `/discord/server/${d.discordServer}`),
    page('discord/server/[...path].astro', `/discord/server/${d.discordServer}/${d.discordChannel}`),
    page('[service]/user/[id]/fancards.astro', `${fanbox}/fancards`),
    page('[service]/user/[id]/index.astro', busiest),
    page('[service]/user/[id]/index.astro', `${busiest}?o=50`),
    page('[service]/user/[id]/index.astro', `${busiest}?q=th`),
    page('[service]/user/[id]/index.astro', `${creator}?tag=dragons`),
    page('[service]/user/[id]/links.astro', `${c(d.linked.service, d.linked.id)}/links`),
    page('[service]/user/[id]/post/[post].astro', post),
    page('[service]/user/[id]/post/[post].astro', post, 'consumer'),
    page('[service]/user/[id]/post/[post]/revision/[revision].astro', `${post}/revision/${d.revision}`),
    page('[service]/user/[id]/post/[post]/revision/index.astro', `${post}/revision/`),
    page('[service]/user/[id]/shares.astro', `${c(d.sharer.service, d.sharer.id)}/shares`),
    page('[service]/user/[id]/tags.astro', `${creator}/tags`),
    page('[service]/user/[id]/feed.[format].ts', `${busiest}/feed.rss`),
    page('[service]/user/[id]/dms/feed.[format].ts', `${c(d.dmCreator.service, d.dmCreator.id)}/dms/feed.atom`),
    page('posts/feed.[format].ts', '/posts/feed.rss'),
    page('posts/popular/feed.[format].ts', `/posts/popular/feed.atom?period=week&date=${d.popularDay}`),
    page('posts/tags/[tag]/feed.[format].ts', `/posts/tags/${encodeURIComponent(d.tag)}/feed.rss`),
    page('importer/index.astro', '/importer'),
    page('importer/status/[importId].astro', `/importer/status/${d.importId}`),
    page(
      'account/posts/upload.astro',
      `/account/posts/upload?service=${d.busiest.service}&user=${encodeURIComponent(d.busiest.id)}`,
      'consumer',
    ),
    page('account/index.astro', '/account', 'consumer'),
    page('account/notifications.astro', '/account/notifications', 'consumer'),
    page('account/keys.astro', '/account/keys', 'consumer'),
    page('account/review_dms.astro', '/account/review_dms', 'consumer'),
    page('account/review_dms.astro', '/account/review_dms?status=ignored', 'consumer'),
    page('account/change_password.astro', '/account/change_password', 'consumer'),
    page('account/favorites/artists.astro', '/account/favorites/artists', 'consumer'),
    page('account/favorites/posts.astro', '/account/favorites/posts?sort_by=published&order=asc', 'consumer'),
    page('account/favorites/index.astro', '/account/favorites', 'consumer'),
    page('account/favorites/new.astro', '/account/favorites/new?since=2024-01-01', 'consumer'),
    page('feeds/favorites.[format].ts', '/feeds/favorites.rss?token=unknown'),
    page('account/hidden.astro', '/account/hidden', 'consumer'),
    page('favorites.astro', '/favorites', 'consumer'),
    page('authentication/login.astro', '/authentication/login'),
    page('authentication/register.astro', '/authentication/register'),
    page('authentication/logout.astro', '/authentication/logout'),
    page('artists/index.astro', '/artists'),
    page('artists/index.astro', '/artists?o=50', 'consumer'),
    page('artists/random.astro', '/artists/random'),
    page('artists/updated.astro', '/artists/updated'),
    page('dms.astro', '/dms'),
    page('documentation/api.astro', '/documentation/api'),
    page('file/[hash].astro', `/file/${d.lockedKnown}`),
    page('file/index.astro', '/file/'),
    page('importer/[page].astro', '/importer/faq'),
    page('importer/keys/[service].astro', '/importer/keys/patreon'),
    page('importer/tutorial.astro', '/importer/tutorial'),
    page('index.astro', '/'),
    page('posts/archives/[hash].astro', `/posts/archives/${d.zip}`),
    page('posts/index.astro', '/posts'),
    page('posts/index.astro', '/posts?o=100'),
    page('posts/index.astro', `/posts?q=${encodeURIComponent(d.word)}`),
    page('posts/index.astro', `/posts?tag=${encodeURIComponent(d.tag)}`, 'consumer'),
    page('posts/popular.astro', '/posts/popular'),
    page('posts/popular.astro', `/posts/popular?period=month&date=${d.popularDay}`),
    page('posts/random.astro', '/posts/random'),
    page('posts/tags.astro', '/posts/tags'),
    page('posts/upload.astro', '/posts/upload'),
    page('search_hash.astro', `/search_hash?hash=${d.image}`),
    page('share/[id].astro', `/share/${d.share}`),
    page('shares.astro', '/shares'),
    page('[service]/user/[id]/links/new.astro', `${busiest}/links/new`, 'consumer'),
    page('account/[service]/user/[id]/links/new.astro', `/account${busiest}/links/new`, 'consumer'),
    page('account/moderator/tasks/creator_links.astro', '/account/moderator/tasks/creator_links', 'moderator'),
    page('account/moderator/flags.astro', '/account/moderator/flags', 'moderator'),
    page('account/administrator/accounts/index.astro', '/account/administrator/accounts', 'admin'),
    page('account/administrator/accounts/[page].astro', '/account/administrator/accounts/1', 'admin'),
    page('account/administrator/account/[id].astro', `/account/administrator/account/${d.consumerId}`, 'admin'),
    page('account/administrator/audit.astro', '/account/administrator/audit', 'admin'),
    page('account/administrator/imports.astro', '/account/administrator/imports', 'admin'),
    page('account/administrator/do_not_post.astro', '/account/administrator/do_not_post', 'admin'),
  ];
}

/** Where two pages first differ, with a little of each around it (a whole page is too long to diff). */
function firstDifference(a: string, b: string): { at: number; sqlite: string; postgres: string } | undefined {
  if (a === b) return undefined;
  let at = 0;
  while (at < a.length && a[at] === b[at]) at += 1;
  return { at, sqlite: a.slice(Math.max(0, at - 150), at + 150), postgres: b.slice(Math.max(0, at - 150), at + 150) };
}

let demo: DemoOnBothEngines | undefined;
const sites: Site[] = [];
let cases: PageCase[];

async function request(site: Site, page: PageCase): Promise<Page> {
  const cookie = page.as && page.as !== 'guest' ? site.cookies[page.as] : undefined;
  const response = await fetch(`${site.origin}${page.url}`, {
    headers: { ...(cookie ? { Cookie: cookie } : {}), 'Accept-Encoding': 'identity' },
    redirect: 'manual',
  });
  const normalise = (text: string) =>
    text
      .split(site.origin)
      .join('<origin>')
      // Astro numbers the islands it renders in this process (React's useId prefix): one counter for both sites.
      .replace(/ prefix="r\d+"/g, ' prefix="r#"');
  const location = response.headers.get('location');
  return {
    status: response.status,
    location: location && normalise(location),
    type: response.headers.get('content-type'),
    text: normalise(await response.text()),
  };
}

describe('the pages on PostgreSQL render as on SQLite (the demo archive)', () => {
  beforeAll(async () => {
    demo = await demoOnBothEngines('engine-parity-pages');
    const handler = await loadSsrHandler(DIST_DIR);
    for (const name of ENGINE_NAMES) {
      const db = name === 'SQLite' ? demo.sqlite : demo.postgres;
      const config: Config = { ...readConfig({ DATA_DIR: demo.dataDirs[name] }), environment: 'test' };
      const paths = dataPaths(demo.dataDirs[name]);
      const server = createFrontServer({
        api: createApp({ db, config, logger: { error: () => {}, warn: () => {} } }),
        clientDir: path.join(DIST_DIR, 'client'),
        media: { ...paths, mimeOf: async (hash) => (await getFileByHash(db, hash))?.mime },
        store: new PageStore(paths.pages),
        ssr: handler,
        renderer: createPageRenderer(handler, { db, config }),
        site: { db, config },
      });
      const origin = await listen(server);
      sites.push({ origin, http: server, cookies: await signInDemoCallers(origin) });
    }
    cases = pageCases(demo.ids);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(sites.map((site) => closeServer(site.http)));
    await demo?.close();
  });

  it('requests every page file of the page list', () => {
    const visited = new Set(cases.map((page) => page.file));
    expect(Object.keys(PAGE_COVERAGE).filter((file) => !visited.has(file))).toEqual([]);
    expect(cases.filter((page) => !(page.file in PAGE_COVERAGE))).toEqual([]);
  });

  it('renders every page the same on both engines', async () => {
    const statuses = new Set<number>();
    for (const page of cases) {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      const random = vi.spyOn(Math, 'random').mockReturnValue(0.42);
      let answers: Page[];
      try {
        answers = [await request(sites[0], page), await request(sites[1], page)];
      } finally {
        random.mockRestore();
        vi.useRealTimers();
      }
      const [reference, other] = answers;
      const label = `${page.as ?? 'guest'} ${page.url}`;
      expect(other.status, `${label}: status`).toBe(reference.status);
      expect(other.location, `${label}: Location`).toBe(reference.location);
      expect(other.type, `${label}: content type`).toBe(reference.type);
      expect(firstDifference(reference.text, other.text), `${label}: the page`).toBeUndefined();
      statuses.add(reference.status);
    }
    expect([...statuses]).toEqual(expect.arrayContaining([200, 404]));
  }, 120_000);
});
