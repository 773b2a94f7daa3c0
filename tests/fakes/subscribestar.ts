/**
 * A fake SubscribeStar for the importer tests: three real node:http servers on 127.0.0.1. `url` is
 * www.subscribestar.com, `adultUrl` is the adult site (subscribestar.adult, now subscribestar.art: the
 * same engine and paths), `cdnUrl` stands for the upload hosts (the CloudFront distribution of
 * uploads_v2 files and ss-uploads-prod.b-cdn.net). A star lives on one of the two sites; each site has
 * its own cookies, so each has its own key. Facts from /work/research/subscribestar.md; choices where
 * it is unsure are marked (uncertain).
 *
 * Both sites answer (HTML unless said):
 *   GET /{slug}[?tag=] (profile header, first page of div.post, a.posts-more "load more" link),
 *   GET /posts?page_end_order_position=N&star_id=ID and /posts?slug=S&page=N&sort_by=newest (JSON
 *     {"html": fragment}; stop when it has no .posts-more), GET /feed and /feed/page.json?page_end_order_position=N
 *     (the key's subscriptions, newest first; the query is uncertain), GET /posts/{id} (single post; an
 *     accessible one carries data-post_id), GET /posts/{id}/comments.json ({"html","error"}),
 *   GET /profile/settings (.top_bar-user_info, .top_bar-user_name, img[data-user-id]), GET /login,
 *   GET /{slug}/verify_subscriber, GET /away?url=<base64> (302 to the real link),
 *   GET /uploads?payload= (302 to a signed CDN URL; with htmlRedirects, Rails' small "redirected" page
 *     with 200 instead, as gallery-dl #6916 saw).
 * The adult site without the 18_plus_agreement_generic=true cookie (with strictAgeGate, without having
 *   posted the form in this session): 302 to
 *   /age_confirmation_warning?return_to=..., whose form (POST, authenticity_token) sets that cookie
 *   (the form's fields are uncertain).
 * Refusals, as the notes say the site does: no 401. The key is the `_personalization_id` cookie
 *   (`cookieName`; gallery-dl's login cookie since 2025; uncertain, see the notes' §1); a wrong, missing
 *   or expired one is a visitor: 200 pages without .top_bar-user-menu_wrapper, every post above tier 0
 *   `.post-body.is-locked` with /previews gallery URLs and no docs or audio; /feed and /profile/settings
 *   302 to /login (uncertain). A star asking for verification: 302 to /{slug}/verify_subscriber.
 *   CDN: no Key-Pair-Id 403 MissingKey; a wrong or expired signature 403 AccessDenied (the signing
 *   scheme is uncertain: the notes saw a query they took for CloudFront's; expiry `urlTtlSeconds`).
 * Knobs: rateLimit (429 with Retry-After; the site's own style was never seen), fail, challenge
 *   (Cloudflare's 403 "Just a moment..."), expireKey, editPost ("Updated on"), deletePost, advanceTime,
 *   delayMs. Page size: unknown (about 6 to 20 in the sources); 10 by default.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type http from 'node:http';
import {
  avatarUrl,
  commentsHtml,
  coverUrl,
  demoDataset,
  livePosts,
  moreLink,
  orderPosition,
  previewUrl,
  profileHeader,
  renderPost,
  ssDate,
  type SsCreator,
  type SsDataset,
  type SsPost,
  type SsView,
} from './subscribestar-data.ts';
import { bytesFor } from './kit/media.ts';
import {
  Clock,
  Faults,
  cookiesOf,
  escapeHtml as h,
  logInto,
  railsRedirect,
  readBody,
  send,
  sendHtml,
  sendJson,
  startHost,
  type FakeRequestLog,
} from './kit/server.ts';
import { CLOUDFRONT_ERRORS, NO_SUCH_KEY, Signer } from './kit/signing.ts';

export * from './subscribestar-data.ts';

export const FAKE_SUBSCRIBESTAR_KEY = 'c3NzLWNvbS1mYWtlLXBlcnNvbmFsaXphdGlvbg--4f1c2e9a7b3d5f60718293a4b5c6d7e8f9012345';
export const FAKE_SUBSCRIBESTAR_ADULT_KEY = 'c3NzLWFkdWx0LWZha2UtcGVyc29uYWxpemF0aW9u--0a9b8c7d6e5f40312233445566778899aabbccdd';

type Domain = 'com' | 'adult';

export interface FakeSubscribestarOptions {
  keys?: Partial<Record<Domain, string>>;
  /** The cookie that carries the key (default _personalization_id). */
  cookieName?: string;
  dataset?: SsDataset;
  /** Posts per page (default 10). */
  pageSize?: number;
  urlTtlSeconds?: number;
  /** /uploads?payload= answers a 200 "You are being redirected" page instead of a 302. */
  htmlRedirects?: boolean;
  /**
   * The adult site takes the agreement only from a session that posted the age form (the cookie sent up
   * front is not enough), as a site that changed its gate would: the importer must pass the form.
   */
  strictAgeGate?: boolean;
  port?: number;
  adultPort?: number;
  cdnPort?: number;
}

export interface FakeSubscribestar {
  /** www.subscribestar.com */
  url: string;
  /** subscribestar.adult / subscribestar.art */
  adultUrl: string;
  cdnUrl: string;
  keys: Record<Domain, string>;
  cookieName: string;
  dataset: SsDataset;
  requests: FakeRequestLog[];
  rateLimit(n: number, retryAfterSeconds: number): void;
  fail(n: number, status?: number): void;
  /** The next n site requests meet Cloudflare's challenge page (403). */
  challenge(n: number): void;
  /** The key of this site (default both) stops working: its pages are a visitor's. */
  expireKey(domain?: Domain): void;
  editPost(id: number, change: { title?: string | null; body?: string }): void;
  deletePost(id: number): void;
  advanceTime(seconds: number): void;
  delayMs: number;
  /** The age form answers 422 whatever it gets (a site whose form changed). */
  rejectAgeForm: boolean;
  close(): Promise<void>;
}

const KEY_PAIR_ID = 'APKAFAKESUBSCRIBESTAR';
const AGE_FREE = /^\/(login|age_confirmation_warning|uploads|away)(\/|$)/;
const LOG_HEADERS = ['cookie', 'accept', 'x-requested-with', 'x-csrf-token', 'referer', 'user-agent', 'content-type'];

export async function startFakeSubscribestar(options: FakeSubscribestarOptions = {}): Promise<FakeSubscribestar> {
  const dataset = options.dataset ?? demoDataset();
  const pageSize = options.pageSize ?? 10;
  const ttl = options.urlTtlSeconds ?? 3600;
  const cookieName = options.cookieName ?? '_personalization_id';
  const keys: Record<Domain, string> = {
    com: options.keys?.com ?? FAKE_SUBSCRIBESTAR_KEY,
    adult: options.keys?.adult ?? FAKE_SUBSCRIBESTAR_ADULT_KEY,
  };
  const live: Record<Domain, boolean> = { com: true, adult: true };
  const faults = new Faults();
  const signer = new Signer();
  const csrfSecret = randomBytes(32);
  const agreedSessions = new Set<string>();
  const requests: FakeRequestLog[] = [];
  let challenges = 0;
  const clock = new Clock();
  const now = clock.now;

  const host = (
    name: string,
    port: number | undefined,
    handler: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<number>,
  ) => startHost({ port, log: logInto(requests, name, LOG_HEADERS), delay: () => fake.delayMs, handler });
  const hosts = [
    await host('com', options.port, (req, res) => site('com')(req, res)),
    await host('adult', options.adultPort, (req, res) => site('adult')(req, res)),
    await host('cdn', options.cdnPort, (req, res) => cdn(req, res)),
  ];
  const roots: Record<Domain, string> = { com: hosts[0].origin, adult: hosts[1].origin };
  const cdnUrl = hosts[2].origin;

  const view = (domain: Domain, c: SsCreator | undefined, loggedIn: boolean): SsView => ({
    root: roots[domain],
    cdn: cdnUrl,
    tier: loggedIn && c ? c.subscribed : null,
    sign(path) {
      const expires = Math.floor(now() / 1000) + ttl;
      return `&Expires=${expires}&Signature=${signer.sign(`${path}|${expires}`)}&Key-Pair-Id=${KEY_PAIR_ID}`;
    },
    payload: (path) => `${Buffer.from(path).toString('base64url')}.${signer.sign(`payload:${path}`)}`,
  });

  const creatorBy = (domain: Domain, test: (c: SsCreator) => boolean) => dataset.creators.find((c) => c.domain === domain && test(c));
  const postById = (domain: Domain, id: number) => {
    for (const c of dataset.creators) {
      const post = c.domain === domain ? c.posts.find((p) => p.id === id && !p.deleted) : undefined;
      if (post) return { c, post };
    }
    return undefined;
  };

  const csrf = (session: string) => createHmac('sha256', csrfSecret).update(session).digest('base64');
  /** A page; a request without a session cookie gets the one its csrf-token belongs to. */
  const layout = (
    res: http.ServerResponse,
    session: { id: string; fresh: boolean },
    loggedIn: boolean,
    title: string,
    body: string,
    status = 200,
  ) => {
    const headers: Record<string, string> = session.fresh
      ? { 'set-cookie': `_subscribestar_session=${session.id}; path=/; HttpOnly; SameSite=Lax` }
      : {};
    const top = loggedIn
      ? `<div class="top_bar-user-menu_wrapper"><div class="top_bar-user_info"><img class="top_bar-user_avatar" data-user-id="${dataset.me.id}" src="${cdnUrl}/uploads/users/${dataset.me.id}/avatar/me.png" alt="${h(dataset.me.name)}"><div class="top_bar-user_name">${h(dataset.me.name)}</div></div></div>`
      : `<a class="top_bar-login" href="/login">Log in</a>`;
    sendHtml(
      res,
      status,
      `<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="csrf-param" content="authenticity_token"><meta name="csrf-token" content="${csrf(session.id)}"><title>${h(title)} | SubscribeStar</title></head><body><div class="top_bar">${top}</div><div class="layout-content">${body}</div></body></html>`,
      headers,
    );
    return status;
  };

  /** One page of posts older than `before` (an order position), with its load-more link when more follow. */
  const pageOf = (
    domain: Domain,
    loggedIn: boolean,
    posts: { c: SsCreator; post: SsPost }[],
    before: number | null,
    next: (position: number) => string,
  ) => {
    const rest = posts.filter(({ post }) => before === null || orderPosition(post) < before);
    const page = rest.slice(0, pageSize);
    const html = page.map(({ c, post }) => renderPost(view(domain, c, loggedIn), c, post)).join('');
    return rest.length > pageSize ? html + moreLink(next(orderPosition(page[page.length - 1].post))) : html;
  };
  const starPosts = (c: SsCreator, tag: string | null) =>
    livePosts(c)
      .filter((p) => !tag || p.tags.includes(tag))
      .map((post) => ({ c, post }));
  const feedPosts = (domain: Domain) =>
    dataset.creators
      .filter((c) => c.domain === domain && c.subscribed !== null)
      .flatMap((c) => livePosts(c).map((post) => ({ c, post })))
      .sort((a, b) => b.post.publishedAt - a.post.publishedAt);
  const starNext = (c: SsCreator, tag: string | null) => (pos: number) =>
    `/posts?page_end_order_position=${pos}&star_id=${c.id}${tag ? `&tag=${encodeURIComponent(tag)}` : ''}`;

  const site =
    (domain: Domain) =>
    async (req: http.IncomingMessage, res: http.ServerResponse): Promise<number> => {
      const root = roots[domain];
      const u = new URL(req.url ?? '/', root);
      const path = u.pathname;
      const q = u.searchParams;
      const cookies = cookiesOf(req);
      const known = cookies.get('_subscribestar_session');
      const session = { id: known ?? randomBytes(16).toString('hex'), fresh: !known };
      const loggedIn = live[domain] && cookies.get(cookieName) === keys[domain];
      const refused = faults.take();
      if (refused?.kind === 'limit')
        return (sendHtml(res, 429, '<h1>Too many requests</h1>', { 'retry-after': String(refused.retryAfter) }), 429);
      if (refused?.kind === 'fail')
        return (sendHtml(res, refused.status, "<h1>We're sorry, but something went wrong.</h1>"), refused.status);
      if (challenges > 0) {
        challenges--;
        return (
          sendHtml(
            res,
            403,
            '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="challenge-form">Checking your browser</div></body></html>',
            { 'cf-mitigated': 'challenge', server: 'cloudflare' },
          ),
          403
        );
      }
      const page = (title: string, body: string, status = 200) => layout(res, session, loggedIn, title, body, status);
      const notFound = () => page('Not found', "<h1>The page you were looking for doesn't exist.</h1>", 404);

      const agreed = cookies.get('18_plus_agreement_generic') === 'true' && (!options.strictAgeGate || agreedSessions.has(session.id));
      if (domain === 'adult' && !AGE_FREE.test(path) && !agreed) {
        return (railsRedirect(res, `${root}/age_confirmation_warning?return_to=${encodeURIComponent(path + u.search)}`), 302);
      }
      if (path === '/age_confirmation_warning' && req.method === 'POST') {
        const form = new URLSearchParams(await readBody(req));
        if (fake.rejectAgeForm || session.fresh || form.get('authenticity_token') !== csrf(session.id))
          return (sendHtml(res, 422, '<h1>The change you wanted was rejected.</h1>'), 422);
        agreedSessions.add(session.id);
        const back = form.get('return_to') ?? '/';
        return (
          railsRedirect(res, `${root}${back.startsWith('/') ? back : '/'}`, 302, {
            'set-cookie': '18_plus_agreement_generic=true; path=/; max-age=31536000',
          }),
          302
        );
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') return notFound();
      if (path === '/age_confirmation_warning') {
        return page(
          'Age confirmation',
          `<div class="age_confirmation"><p>This page contains adult content.</p><form action="/age_confirmation_warning" method="post"><input type="hidden" name="authenticity_token" value="${csrf(session.id)}"><input type="hidden" name="return_to" value="${h(q.get('return_to') ?? '/')}"><button type="submit">I am 18 years or older</button></form></div>`,
        );
      }
      if (path === '/login')
        return page('Log in', '<form class="login-form" action="/session.json" method="post"><input name="email" type="email"></form>');
      if (path === '/away') return (railsRedirect(res, Buffer.from(q.get('url') ?? '', 'base64').toString()), 302);
      if (path === '/uploads') {
        const [encoded, sig] = (q.get('payload') ?? '').split('.');
        const target = Buffer.from(encoded ?? '', 'base64url').toString();
        if (!target.startsWith('/uploads_v2/') || !signer.check(`payload:${target}`, sig ?? null)) return notFound();
        const location = `${cdnUrl}${target}${view(domain, undefined, false).sign(target)}`;
        if (options.htmlRedirects)
          return (sendHtml(res, 200, `<html><body>You are being <a href="${h(location)}">redirected</a>.</body></html>`), 200);
        return (railsRedirect(res, location), 302);
      }
      if ((path === '/feed' || path === '/feed/page.json' || path === '/profile/settings') && !loggedIn)
        return (railsRedirect(res, `${root}/login`), 302);
      if (path === '/profile/settings')
        return page('Settings', `<h1>Account settings</h1><div class="settings-name">${h(dataset.me.name)}</div>`);
      if (path === '/feed') {
        const more = (pos: number) => `/feed/page.json?page_end_order_position=${pos}`;
        return page(
          'Feed',
          `<div class="posts" data-role="infinite_scroll-container">${pageOf(domain, true, feedPosts(domain), null, more)}</div>`,
        );
      }
      if (path === '/feed/page.json') {
        const html = pageOf(
          domain,
          true,
          feedPosts(domain),
          Number(q.get('page_end_order_position')) || null,
          (pos) => `/feed/page.json?page_end_order_position=${pos}`,
        );
        return (sendJson(res, 200, { html }), 200);
      }
      if (path === '/posts') {
        const tag = q.get('tag');
        if (q.has('slug')) {
          const c = creatorBy(domain, (s) => s.slug === q.get('slug'));
          if (!c) return (sendJson(res, 404, { error: 'Not found' }), 404);
          const n = Math.max(1, Number(q.get('page')) || 1);
          const all = starPosts(c, tag);
          const html = all
            .slice((n - 1) * pageSize, n * pageSize)
            .map(({ post }) => renderPost(view(domain, c, loggedIn), c, post))
            .join('');
          const next = n * pageSize < all.length ? moreLink(`/posts?slug=${c.slug}&page=${n + 1}&sort_by=newest`) : '';
          return (sendJson(res, 200, { html: html + next }), 200);
        }
        const c = creatorBy(domain, (s) => String(s.id) === q.get('star_id'));
        if (!c) return (sendJson(res, 404, { error: 'Not found' }), 404);
        const html = pageOf(domain, loggedIn, starPosts(c, tag), Number(q.get('page_end_order_position')) || null, starNext(c, tag));
        return (sendJson(res, 200, { html }), 200);
      }
      const comments = /^\/posts\/(\d+)\/comments\.json$/.exec(path);
      if (comments) {
        const found = postById(domain, Number(comments[1]));
        if (!found) return (sendJson(res, 404, { html: '', error: 'Not found' }), 404);
        return (sendJson(res, 200, { html: commentsHtml(found.post), error: null }), 200);
      }
      const single = /^\/posts\/(\d+)$/.exec(path);
      if (single) {
        const found = postById(domain, Number(single[1]));
        if (!found) return notFound();
        const { c, post } = found;
        const date = post.updatedAt ? `Updated on ${ssDate(post.updatedAt)}` : ssDate(post.publishedAt);
        return page(
          post.title ?? c.name,
          `<div class="section-title_date">${date}</div><a class="star_link" href="/${c.slug}"><img data-type="avatar" data-user-id="${c.id}" alt="${h(c.name)}" src=""></a>${renderPost(view(domain, c, loggedIn), c, post, true)}`,
        );
      }
      const verify = /^\/([A-Za-z0-9_-]+)\/verify_subscriber$/.exec(path);
      if (verify)
        return page('Verification', '<div class="verify_subscriber">This creator asks subscribers to verify their account.</div>');
      const star = /^\/([A-Za-z0-9_-]+)$/.exec(path);
      const c = star ? creatorBy(domain, (s) => s.slug === star[1]) : undefined;
      if (!c) return notFound();
      if (c.verifySubscriber) return (railsRedirect(res, `${root}/${c.slug}/verify_subscriber`), 302);
      const tag = q.get('tag');
      const posts = pageOf(domain, loggedIn, starPosts(c, tag), null, starNext(c, tag));
      return page(
        c.name,
        `${profileHeader(view(domain, c, loggedIn), c)}<div class="posts" data-role="infinite_scroll-container">${posts}</div>`,
      );
    };

  /** The avatar, cover and /previews paths the pages name (any other is 404). */
  const publicPaths = () => {
    const paths = new Set([`/uploads/users/${dataset.me.id}/avatar/me.png`]);
    for (const c of dataset.creators) {
      const v = { ...view(c.domain, c, false), cdn: '' };
      paths.add(avatarUrl(v, c)).add(coverUrl(v, c));
      for (const post of c.posts)
        for (const u of [...post.uploads, ...(post.inline ? [post.inline] : [])]) paths.add(previewUrl(v, c, post, u));
    }
    return paths;
  };
  const cdn = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<number> => {
    const u = new URL(req.url ?? '/', cdnUrl);
    const q = u.searchParams;
    const isPublic = publicPaths().has(u.pathname);
    if (!isPublic) {
      if (!/^\/uploads_v2\/users\/\d+\/posts\/\d+\/[^/]+$/.test(u.pathname)) return (send(res, 404, NO_SUCH_KEY, 'text/xml'), 404);
      if (!q.get('Key-Pair-Id')) return (send(res, 403, CLOUDFRONT_ERRORS.missing, 'text/xml'), 403);
      const signed = `${u.pathname}?filename=${encodeURIComponent(q.get('filename') ?? '')}`;
      const expires = Number(q.get('Expires'));
      if (!signer.check(`${signed}|${expires}`, q.get('Signature')) || expires * 1000 <= now())
        return (send(res, 403, CLOUDFRONT_ERRORS.bad, 'text/xml'), 403);
    }
    const name = decodeURIComponent(q.get('filename') ?? u.pathname.split('/').pop()!);
    const { bytes, type } = await bytesFor(name);
    return (send(res, 200, bytes, type, { 'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(name)}` }), 200);
  };

  const findPost = (id: number) => {
    const post = dataset.creators.flatMap((c) => c.posts).find((p) => p.id === id);
    if (!post) throw new Error(`no post ${id}`);
    return post;
  };
  const fake: FakeSubscribestar = {
    url: roots.com,
    adultUrl: roots.adult,
    cdnUrl,
    keys,
    cookieName,
    dataset,
    requests,
    rateLimit: faults.rateLimit,
    fail: faults.fail,
    challenge: (n) => void (challenges = n),
    expireKey(domain) {
      for (const d of domain ? [domain] : (['com', 'adult'] as const)) live[d] = false;
    },
    editPost(id, change) {
      const post = findPost(id);
      if (change.title !== undefined) post.title = change.title;
      if (change.body !== undefined) post.body = change.body;
      post.updatedAt = now();
    },
    deletePost: (id) => void (findPost(id).deleted = true),
    advanceTime: clock.advance,
    delayMs: 0,
    rejectAgeForm: false,
    close: async () => void (await Promise.all(hosts.map((x) => x.close()))),
  };
  return fake;
}
