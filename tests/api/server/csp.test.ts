/**
 * The pages' Content-Security-Policy and Strict-Transport-Security through the real front server and
 * build: every page (stored, prerendered, rendered on demand; each page file of the permission matrix as
 * the role that may see it) carries the policy, and every inline script in it is allowed by hash, so a
 * new `<script is:inline>` that is not in shared/inline-scripts.ts fails here. Media and the API keep
 * their own headers.
 */
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { getFileByHash } from '@api/data/files.ts';
import { upsertPost } from '@api/data/posts.ts';
import type { Role } from '@api/data/accounts.ts';
import { storeFile } from '@api/media/store.ts';
import { cameOverHttps, pageSecurityPolicy, scriptHashSource, STRICT_TRANSPORT_SECURITY } from '@api/server/csp.ts';
import { createFrontServer } from '@api/server/front.ts';
import { readConfig } from '@api/config.ts';
import { INLINE_SCRIPTS } from '@shared/inline-scripts.ts';
import { DIST_DIR } from '../../../scripts/lib/build.ts';
import { createTestSite, type TestSite } from '../../helpers/front-server.ts';
import { httpRequest, listen, type RawAnswer } from '../../helpers/http.ts';
import { signIn } from '../../helpers/session.ts';
import { PAGE_COVERAGE } from '../page-coverage.ts';

const SETTINGS = {
  imageHost: '',
  discordContentHost: 'https://cdn.discordapp.com',
  iconsPath: '/icons',
  bannersPath: '/banners',
  trustProxy: false,
};

let site: TestSite;
let base: string;
let image: { path: string };
const cookies = new Map<Role, string>();

function get(pathname: string, headers: Record<string, string> = {}, at = base): Promise<RawAnswer> {
  return httpRequest(`${at}${pathname}`, { headers: { 'accept-encoding': 'identity', ...headers } });
}

/** The executable inline scripts of a page (no src; JSON data blocks do not run). */
function inlineScripts(html: string): { attributes: string; text: string }[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .map(([, attributes, text]) => ({ attributes, text }))
    .filter(({ attributes }) => !/\bsrc=/i.test(attributes) && !/type="application\/(ld\+)?json"/i.test(attributes));
}

function scriptSources(policy: string): string[] {
  const directive = policy
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith('script-src '));
  return directive ? directive.split(/\s+/).slice(1) : [];
}

/** The page carries the policy and every inline script in it is allowed by its hash. */
function expectPolicyCovers(answer: RawAnswer, label: string): void {
  const policy = String(answer.headers['content-security-policy'] ?? '');
  expect(policy, label).toBe(pageSecurityPolicy(SETTINGS));
  const allowed = scriptSources(policy);
  const scripts = inlineScripts(answer.body.toString('utf8'));
  expect(scripts.length, `${label} has the head scripts`).toBeGreaterThanOrEqual(2);
  for (const script of scripts) {
    expect(allowed, `${label}: inline script not allowed by hash: ${script.text.slice(0, 80)}`).toContain(scriptHashSource(script.text));
  }
}

beforeAll(async () => {
  site = await createTestSite('csp');
  image = await storeFile(site.paths.files, Buffer.from('bytes of an image'), 'png');
  await upsertCreator(site.db, {
    service: 'fanbox',
    id: 'artist1',
    name: 'CSP Test Artist',
    indexed: 1_700_000_000,
    updated: 1_700_000_000,
  });
  for (let n = 1; n <= 3; n += 1) {
    await upsertPost(site.db, {
      service: 'fanbox',
      user: 'artist1',
      id: `p${n}`,
      title: `Post ${n}`,
      content: `<p>Hi<script>alert(${n})</script><img src="x" onerror="alert(${n})"></p>`,
      published: `2024-05-0${n}T10:00:00`,
      file: { name: 'a.png', path: image.path },
    });
  }
  for (const role of ['consumer', 'moderator', 'administrator'] as const) cookies.set(role, (await signIn(site.db, { role })).cookie);
  base = await site.start();
}, 300_000);

afterAll(() => site?.close());

describe('the policy', () => {
  it('allows scripts of this origin and inline ones by hash only, and nothing to plug in, frame or rebase', () => {
    const policy = pageSecurityPolicy(SETTINGS);
    const scripts = scriptSources(policy);
    expect(scripts.slice(0, 2)).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(scripts.slice(2).every((source) => /^'sha256-[A-Za-z0-9+/]{43}='$/.test(source))).toBe(true);
    expect(
      scripts.filter((source) => /^('unsafe-inline'|'unsafe-eval'|'unsafe-hashes'|'strict-dynamic'|\*|https?:|data:|blob:)/.test(source)),
    ).toEqual([]);
    for (const text of INLINE_SCRIPTS) expect(scripts).toContain(scriptHashSource(text));
    for (const directive of [
      "default-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'self'",
      "form-action 'self'",
    ]) {
      expect(policy).toContain(directive);
    }
    expect(policy).toContain("img-src 'self' https://cdn.discordapp.com;");
  });

  it('lets images come from IMAGE_HOST, the Discord content host and icon or banner hosts, and media from the first two', () => {
    const policy = pageSecurityPolicy({
      ...SETTINGS,
      imageHost: 'https://img.example.org',
      discordContentHost: 'https://discord-cdn.example.net/content',
      bannersPath: 'https://banners.example.org/b',
    });
    expect(policy).toContain("img-src 'self' https://img.example.org https://banners.example.org https://discord-cdn.example.net;");
    expect(policy).toContain("media-src 'self' https://img.example.org https://discord-cdn.example.net;");
  });
});

describe('pages carry it', () => {
  it('on a stored archive page, both when rendered into the store and when served from it', async () => {
    const first = await get('/fanbox/user/artist1');
    expect(first.status).toBe(200);
    expect(site.store.has('/fanbox/user/artist1')).toBe(true);
    expectPolicyCovers(first, 'first request');
    const stored = await get('/fanbox/user/artist1', { 'accept-encoding': 'br' });
    expect(stored.headers['content-encoding']).toBe('br');
    expect(stored.headers['content-security-policy']).toBe(pageSecurityPolicy(SETTINGS));
    expectPolicyCovers(await get('/fanbox/user/artist1'), 'stored');
  });

  it('on a post page whose content tried to bring its own script', async () => {
    const post = await get('/fanbox/user/artist1/post/p2');
    expect(post.status).toBe(200);
    expect(post.body.toString()).not.toContain('alert(2)');
    expectPolicyCovers(post, 'post');
  });

  it('on prerendered text pages and the home page', async () => {
    for (const pathname of ['/', '/contact', '/importer/tutorial']) {
      const answer = await get(pathname);
      expect(answer.status, pathname).toBe(200);
      expectPolicyCovers(answer, pathname);
    }
  });

  it('on pages rendered on demand, error pages and redirects', async () => {
    for (const pathname of ['/authentication/login?location=/posts', '/posts?q=post', '/no-such-page', '/fanbox/user/nobody']) {
      expectPolicyCovers(await get(pathname), pathname);
    }
    const redirect = await get('/posts/random');
    expect(redirect.status).toBe(302);
    expect(redirect.headers['content-security-policy']).toBe(pageSecurityPolicy(SETTINGS));
  });

  it.each(Object.entries(PAGE_COVERAGE).map(([file, page]) => ({ file, ...page })))(
    'on $file as a role that may see it',
    async ({ url, access }) => {
      const role = ({ account: 'consumer', moderator: 'moderator', administrator: 'administrator' } as Record<string, Role>)[access];
      const answer = await get(url, role ? { cookie: cookies.get(role)! } : {});
      if (answer.status >= 300 && answer.status < 400) {
        expect(answer.headers['content-security-policy'], url).toBe(pageSecurityPolicy(SETTINGS));
        return;
      }
      if (!String(answer.headers['content-type']).startsWith('text/html')) {
        // Feeds (XML) and a feed's plain-text 404 carry the policy too, but no page and no scripts.
        expect(answer.headers['content-security-policy'], url).toBe(pageSecurityPolicy(SETTINGS));
        expect(String(answer.headers['content-type']), url).toMatch(/^(application\/(rss|atom)\+xml|text\/plain);/);
        return;
      }
      expectPolicyCovers(answer, `${url} (${answer.status})`);
    },
  );

  it('keeps bundled page scripts as files of this origin, never inline modules', async () => {
    const post = (await get('/fanbox/user/artist1/post/p1')).body.toString();
    expect(inlineScripts(post).filter(({ attributes }) => /type="module"/.test(attributes))).toEqual([]);
    expect(post).toMatch(/<script type="module" src="\/_astro\/[^"]+\.js"><\/script>/);
  });

  it('leaves media and the API with their own headers', async () => {
    const file = await get(`/data${image.path}`);
    expect(file.status).toBe(200);
    expect(file.headers['content-security-policy']).toBeUndefined();
    const html = await storeFile(site.paths.files, Buffer.from('<script>alert(1)</script>'), 'html');
    expect((await get(`/data${html.path}`)).headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    expect((await get('/api/v1/app_version')).headers['content-security-policy']).toBeUndefined();
  });
});

describe('Strict-Transport-Security', () => {
  it('is sent only for https: a TLS socket, or X-Forwarded-Proto https behind TRUST_PROXY', async () => {
    const plain = await get('/contact', { 'x-forwarded-proto': 'https' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();

    const server = createFrontServer({
      api: createApp({ db: site.db, config: { ...readConfig({ DATA_DIR: site.dataDir }), environment: 'test', trustProxy: true } }),
      clientDir: path.join(DIST_DIR, 'client'),
      media: { ...site.paths, mimeOf: async (hash) => (await getFileByHash(site.db, hash))?.mime },
      store: site.store,
      ssr: site.handler,
      renderer: site.renderer,
      site: { db: site.db, config: site.config },
      security: { ...SETTINGS, trustProxy: true },
    });
    const proxied = await listen(server);
    try {
      for (const pathname of ['/contact', '/fanbox/user/artist1', '/api/v1/app_version', `/data${image.path}`]) {
        const https = await get(pathname, { 'x-forwarded-proto': 'https' }, proxied);
        expect(https.headers['strict-transport-security'], pathname).toBe(STRICT_TRANSPORT_SECURITY);
      }
      expect((await get('/contact', { 'x-forwarded-proto': 'https, http' }, proxied)).headers['strict-transport-security']).toBe(
        STRICT_TRANSPORT_SECURITY,
      );
      expect((await get('/contact', { 'x-forwarded-proto': 'http' }, proxied)).headers['strict-transport-security']).toBeUndefined();
      expect((await get('/contact', {}, proxied)).headers['strict-transport-security']).toBeUndefined();
    } finally {
      server.close();
    }
  });

  it('reads a TLS socket as https whatever the proxy setting', () => {
    const request = (encrypted: boolean, proto?: string) =>
      ({ socket: { encrypted }, headers: proto ? { 'x-forwarded-proto': proto } : {} }) as unknown as IncomingMessage;
    expect(cameOverHttps(request(true), false)).toBe(true);
    expect(cameOverHttps(request(false, 'https'), false)).toBe(false);
    expect(cameOverHttps(request(false, 'HTTPS'), true)).toBe(true);
    expect(cameOverHttps(request(false, 'http, https'), true)).toBe(false);
  });
});
