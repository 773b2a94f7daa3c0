/**
 * A fake Gumroad for the importer tests: real node:http servers on 127.0.0.1. `url` is app.gumroad.com
 * (gumroad.com is the same application and is folded onto it), `creatorUrl(username)` is one server per
 * seller standing for {username}.gumroad.com, `cdnUrl` stands for files.gumroad.com (signed purchased
 * files), the CloudFront distribution of HLS segments, public-files.gumroad.com and assets.gumroad.com
 * (their paths do not overlap). Facts from /work/research/gumroad.md (mostly Gumroad's own open-source
 * server); choices where it is unsure are marked (uncertain).
 *
 * app answers: GET /library?page&sort&query&creators&show_archived_only (the props in the page: Inertia's
 *   <div id="app" data-page> by default, or with `generation: 'react_on_rails'` the 2025 script
 *   js-react-on-rails-component LibraryPage, unpaged, with creator_id/permalink; X-Inertia: true with the
 *   current X-Inertia-Version answers the page JSON, another version 409 + X-Inertia-Location),
 *   GET /d/{token} (download page props), GET /confirm + POST /confirm-redirect (e-mail confirmation),
 *   GET /r/{token}/product_files[.json]?product_file_ids[]= (302 to a signed file URL / {"files":[...]}),
 *   GET /zip/{token}[.json], GET /r/{token}/{file_id}/index.m3u8 (an HLS playlist of the clip's three
 *   MPEG-TS segments, CloudFront-signed for 12 h), GET /s/{token}/{id}, /read/{token}/{id},
 *   GET /r/{token}/expired|membership_inactive, GET /l/{permalink} (301 to the seller's host), GET /login.
 * Each seller's host: GET / (creator_profile; component name uncertain), GET /l/{permalink}[.json], /d/...
 * Refusals: the key is the `_gumroad_app_session` cookie, read the way Rack reads cookies (URL-decoded,
 *   '+' is a space), so the value must be sent URL-encoded. /library without a live key: 302 to
 *   /login?next=%2Flibrary with Rails' "You are being redirected." body; Accept: application/json: 404
 *   {"success":false,"error":"Not found"}. /d/, /r/, /zip/ without the key are "another IP": 302 to
 *   /confirm?id={token}&destination=download_page until the buyer's e-mail is confirmed (the fake treats
 *   every key-less request so; the real check also needs an earlier IP). Unknown or refunded tokens: 404.
 *   Signed file URLs: without `verify` 403, a wrong or expired one 403 (Cloudflare's body is unknown: a
 *   plain "Access denied"); expiry = size / 50 KiB/s clamped to 10 min..3 h, 12 h for video.
 *   Rate limit: Rack::Attack's 429 "Retry later" text/plain with no Retry-After (the knob can add one).
 *   Files stamped with the buyer's e-mail redirect back to the download page once ("preparing").
 * Knobs: rateLimit, fail, expireKey, editPost (changes a product: content_updated_at moves on),
 *   advanceTime, delayMs.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type http from 'node:http';
import {
  avatarOf,
  demoDataset,
  digest,
  fileSizes,
  downloadPageProps,
  fileNameOf,
  libraryCard,
  libraryPurchases,
  productBy,
  productPageProps,
  publicFilePath,
  type GrDataset,
  type GrFile,
  type GrPurchase,
  type GrView,
} from './gumroad-data.ts';
import { HLS_TYPE, hlsPlaylist } from './kit/hls.ts';
import { bytesFor, media, zipFor } from './kit/media.ts';
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
  type FakeHost,
  type FakeRequestLog,
} from './kit/server.ts';
import { Signer } from './kit/signing.ts';

export * from './gumroad-data.ts';

/**
 * A cookie-store session value shaped like Rails 7's encrypted cookies (base64 data--iv--auth tag, 308
 * characters: the real ones are 200 to 1,024), with + / = in it (send it URL-encoded, as browsers show it).
 */
export const FAKE_GUMROAD_KEY =
  'PB6mnUry1EJ5qPEAxOjcz/GPE2IurSPm24C2T06lOVFFVeZsVTrAoGCW5rjLYaIg3DQWWAb4W81YGAqXh6zoHoJN8fxAxAEWyapg3UqXUMqNggSz/9Fx+VC0XEabpZ9V9qj9QP/xlhq1GgZb0U5R6fHRTIHeWGp0f+0xwauS0/BNB8Pxo1bOmDAij0y9ifAnYb4U8x223suSW2Yj89AeDZ6wLt23ggbU61Th/VlpRSfJiYAzTJfDoQDU6FkYVwON--8LU7LaBB/KSe8LmDkGCzRQ==--5NI+hB2OiAQZACe84xgPpQ==';
export const INERTIA_VERSION = 'f4c3b2a1e0d9';

export interface FakeGumroadOptions {
  key?: string;
  dataset?: GrDataset;
  /** Library results per page (Gumroad: 15). */
  pageSize?: number;
  generation?: 'inertia' | 'react_on_rails';
  port?: number;
  cdnPort?: number;
}

export interface FakeGumroad {
  url: string;
  cdnUrl: string;
  creatorUrl(username: string): string;
  key: string;
  /** The key as a Cookie header value wants it (URL-encoded). */
  cookie: string;
  dataset: GrDataset;
  requests: FakeRequestLog[];
  /** The next n requests to Gumroad's hosts answer 429 "Retry later" (with Retry-After only if given). */
  rateLimit(n: number, retryAfterSeconds?: number): void;
  fail(n: number, status?: number): void;
  expireKey(): void;
  editPost(permalink: string, change: { name?: string; descriptionHtml?: string; pageText?: string }): void;
  advanceTime(seconds: number): void;
  delayMs: number;
  close(): Promise<void>;
}

const formDecode = (value: string) => new URLSearchParams(`v=${value}`).get('v') ?? '';
const LOG_HEADERS = ['cookie', 'accept', 'x-inertia', 'x-inertia-version', 'x-csrf-token', 'referer', 'user-agent', 'content-type'];

export async function startFakeGumroad(options: FakeGumroadOptions = {}): Promise<FakeGumroad> {
  const dataset = options.dataset ?? demoDataset();
  const pageSize = options.pageSize ?? 15;
  const generation = options.generation ?? 'inertia';
  const key = options.key ?? FAKE_GUMROAD_KEY;
  let live = true;
  const clock = new Clock();
  const now = clock.now;
  const faults = new Faults();
  const signer = new Signer();
  const csrfSecret = randomBytes(32);
  const requests: FakeRequestLog[] = [];
  const publicFiles = new Map<string, string>();
  const sizes = await fileSizes(dataset);
  const files = new Map<string, { file: GrFile; sellerId: string }>();
  for (const seller of dataset.sellers)
    for (const p of seller.products) for (const f of p.files) files.set(f.id, { file: f, sellerId: seller.externalId });

  /** The file hosts answer without the delay and the fault knobs. */
  const host = (
    name: string,
    port: number | undefined,
    handler: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<number>,
  ) => startHost({ port, log: logInto(requests, name, LOG_HEADERS), delay: () => (name === 'cdn' ? 0 : fake.delayMs), handler });
  const app = await host('app', options.port, (req, res) => handle('app')(req, res));
  const cdn = await host('cdn', options.cdnPort, (req, res) => serveCdn(req, res));
  const creators = new Map<string, FakeHost>();
  for (const { username } of dataset.sellers)
    creators.set(username, await host(`creator:${username}`, undefined, (req, res) => handle(`creator:${username}`)(req, res)));

  const view: GrView = {
    app: app.origin,
    creator: (username) => creators.get(username)!.origin,
    publicUrl(name) {
      const file = name.replace(/^variant:/, '');
      publicFiles.set(digest(file), file);
      return cdn.origin + publicFilePath(name);
    },
    assetUrl: (name) => `${cdn.origin}/assets/${name}`,
  };

  const signedFile = (path: string, ttlSeconds: number, style: 'cloudflare' | 'cloudfront' = 'cloudflare') => {
    const expires = Math.floor(now() / 1000) + ttlSeconds;
    const sig = signer.sign(`${path}|${expires}`);
    return style === 'cloudflare'
      ? `${cdn.origin}${path}?response-content-disposition=attachment&verify=${expires}-${encodeURIComponent(sig)}`
      : `${cdn.origin}${path}?Expires=${expires}&Signature=${sig}&Key-Pair-Id=APKAFAKEGUMROAD`;
  };
  const fileTtl = (f: GrFile) =>
    f.extension === 'MP4' ? 12 * 3600 : Math.min(10800, Math.max(600, Math.ceil((sizes.get(f.id) ?? 0) / 51200)));
  const filePath = (f: GrFile, sellerId: string) =>
    `/attachments/${sellerId}/${digest(f.id, 32)}/original/${encodeURIComponent(fileNameOf(f))}`;

  const csrf = (session: string) => createHmac('sha256', csrfSecret).update(session).digest('base64');
  const confirmation = (token: string) => signer.sign(`confirmed:${token}`);

  /** A page with its props embedded the way the current generation does. */
  const renderPage = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    session: { id: string; fresh: boolean },
    component: { inertia: string; react: string },
    props: unknown,
    status = 200,
  ) => {
    const headers: Record<string, string> = session.fresh
      ? { 'set-cookie': `_gumroad_app_session=${encodeURIComponent(session.id)}; path=/; secure; HttpOnly; SameSite=Lax` }
      : {};
    if (generation === 'inertia') {
      const page = {
        component: component.inertia,
        props,
        url: req.url ?? '/',
        version: INERTIA_VERSION,
        encryptHistory: false,
        clearHistory: false,
      };
      if (req.headers['x-inertia'] === 'true') {
        if (req.headers['x-inertia-version'] !== INERTIA_VERSION)
          return (send(res, 409, '', 'text/plain', { 'x-inertia-location': `${app.origin}${req.url}` }), 409);
        return (sendJson(res, status, page, { ...headers, 'x-inertia': 'true', vary: 'X-Inertia' }), status);
      }
      return (
        sendHtml(
          res,
          status,
          `<!DOCTYPE html><html><head><meta name="csrf-param" content="authenticity_token"><meta name="csrf-token" content="${csrf(session.id)}"><title>Gumroad</title></head><body><div id="app" data-page="${h(JSON.stringify(page))}"></div></body></html>`,
          { ...headers, vary: 'X-Inertia' },
        ),
        status
      );
    }
    const dom = `${component.react}-react-component-${randomBytes(8).toString('hex')}`;
    const json = JSON.stringify(props).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
    return (
      sendHtml(
        res,
        status,
        `<!DOCTYPE html><html><head><meta name="csrf-param" content="authenticity_token"><meta name="csrf-token" content="${csrf(session.id)}"><title>Gumroad</title></head><body><script type="application/json" class="js-react-on-rails-component" data-component-name="${component.react}" data-dom-id="${dom}">${json}</script><div id="${dom}"></div></body></html>`,
        headers,
      ),
      status
    );
  };

  const library = (q: URLSearchParams) => {
    const sort = q.get('sort') === 'purchase_date' ? 'purchase_date' : 'recently_updated';
    const archivedOnly = q.get('show_archived_only') === 'true';
    const query = (q.get('query') ?? '').toLowerCase();
    const creatorIds = (q.get('creators') ?? '').split(',').filter(Boolean);
    const seen = libraryPurchases(dataset).filter((p) => !!p.archived === archivedOnly);
    const sellerOf = (p: GrPurchase) => productBy(dataset, p.permalink)!;
    const updated = (p: GrPurchase) => sellerOf(p).product.contentUpdatedAt ?? sellerOf(p).product.createdAt;
    const all = seen
      .filter((p) => !creatorIds.length || creatorIds.includes(sellerOf(p).seller.externalId))
      .filter((p) => !query || `${sellerOf(p).product.name} ${sellerOf(p).seller.name}`.toLowerCase().includes(query))
      .sort((a, b) => (sort === 'purchase_date' ? b.createdAt - a.createdAt : updated(b) - updated(a)));
    const counts = new Map<string, { id: string; name: string; count: number }>();
    for (const p of seen) {
      const s = sellerOf(p).seller;
      counts.set(s.externalId, { id: s.externalId, name: s.name, count: (counts.get(s.externalId)?.count ?? 0) + 1 });
    }
    if (generation === 'react_on_rails') {
      return {
        results: all.map((p) => libraryCard(view, dataset, p, generation)),
        creators: [...counts.values()],
        bundles: [],
        reviews_page_enabled: true,
        following_wishlists_enabled: true,
      };
    }
    const pages = Math.max(1, Math.ceil(all.length / pageSize));
    const asked = /^\d+$/.test(q.get('page') ?? '') ? Number(q.get('page')) : 1;
    const page = Math.min(Math.max(1, asked), pages);
    const results = all.slice((page - 1) * pageSize, page * pageSize);
    const from = results.length ? (page - 1) * pageSize + 1 : 0;
    return {
      results: results.map((p) => libraryCard(view, dataset, p, generation)),
      pagination: { page, pages, from, to: from ? from + results.length - 1 : 0, count: all.length },
      creators: [...counts.values()],
      bundles: [],
      bundle_downloads: [],
      archived_count: libraryPurchases(dataset).filter((p) => p.archived).length,
      unarchived_count: libraryPurchases(dataset).filter((p) => !p.archived).length,
      search: { sort, query: q.get('query') ?? '', creators: creatorIds, bundles: [], show_archived_only: archivedOnly },
    };
  };

  const handle =
    (host: string) =>
    async (req: http.IncomingMessage, res: http.ServerResponse): Promise<number> => {
      const origin = host === 'app' ? app.origin : creators.get(host.slice(8))!.origin;
      const u = new URL(req.url ?? '/', origin);
      const path = u.pathname;
      const q = u.searchParams;
      const cookies = cookiesOf(req);
      const raw = cookies.get('_gumroad_app_session');
      const session = { id: raw ? formDecode(raw) : randomBytes(24).toString('base64'), fresh: !raw };
      const loggedIn = live && session.id === key;
      const refused = faults.take();
      if (refused?.kind === 'limit')
        return (
          send(res, 429, 'Retry later\n', 'text/plain', refused.retryAfter ? { 'retry-after': String(refused.retryAfter) } : {}), 429
        );
      if (refused?.kind === 'fail')
        return (sendHtml(res, refused.status, "<h1>We're sorry, but something went wrong.</h1>"), refused.status);
      const notFound = () => (
        sendHtml(res, 404, "<!DOCTYPE html><html><body><h1>The page you were looking for doesn't exist.</h1></body></html>"), 404
      );
      const purchaseOf = (token: string) => dataset.purchases.find((p) => p.token === token);
      const allowed = (p: GrPurchase) =>
        loggedIn || cookies.get('confirmed_redirect') === encodeURIComponent(`${p.token}--${confirmation(p.token)}`);
      /** The checks /d/, /r/ and /zip/ share; a number when it answered. */
      const gate = (token: string): GrPurchase | number => {
        const p = purchaseOf(token);
        if (!p || p.state === 'refunded') return notFound();
        if (p.state === 'revoked') return (railsRedirect(res, `${app.origin}/r/${token}/expired`), 302);
        if (p.state === 'membership_inactive') return (railsRedirect(res, `${app.origin}/r/${token}/membership_inactive`), 302);
        if (!allowed(p)) return (railsRedirect(res, `${app.origin}/confirm?id=${token}&destination=download_page`), 302);
        return p;
      };

      if (req.method === 'POST' && path === '/confirm-redirect') {
        const form = new URLSearchParams(await readBody(req));
        if (session.fresh || form.get('authenticity_token') !== csrf(session.id))
          return (sendHtml(res, 422, '<h1>The change you wanted was rejected.</h1>'), 422);
        const token = form.get('id') ?? '';
        if (!purchaseOf(token) || form.get('email') !== dataset.buyer.email)
          return (railsRedirect(res, `${app.origin}/confirm?id=${encodeURIComponent(token)}&destination=download_page`), 302);
        return (
          railsRedirect(res, `${app.origin}/d/${token}`, 302, {
            'set-cookie': `confirmed_redirect=${encodeURIComponent(`${token}--${confirmation(token)}`)}; path=/; secure; HttpOnly`,
          }),
          302
        );
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') return notFound();

      if (host !== 'app') {
        const seller = dataset.sellers.find((s) => s.username === host.slice(8))!;
        if (path === '/')
          return renderPage(
            req,
            res,
            session,
            { inertia: 'Users/Show', react: 'Profile' },
            {
              creator_profile: {
                external_id: seller.externalId,
                avatar_url: avatarOf(view, seller),
                name: seller.name,
                twitter_handle: null,
                subdomain: new URL(origin).host,
              },
            },
          );
        const product = /^\/l\/([^/.]+)(\.json)?$/.exec(path);
        if (product) {
          const p = seller.products.find((x) => x.permalink === product[1]);
          if (!p) return notFound();
          if (product[2]) {
            const cover = p.covers.find((c) => c.type === 'image');
            return (
              sendJson(res, 200, {
                name: p.name,
                description: p.descriptionHtml,
                require_shipping: false,
                preview_url: cover ? view.publicUrl(cover.file) : null,
                id: p.permalink,
                external_id: p.externalId,
                price: 500,
                currency: 'usd',
                short_url: `${app.origin}/l/${p.permalink}`,
                formatted_price: '$5',
                recommendable: true,
                rated_as_adult: false,
                custom_delivery_url: null,
              }),
              200
            );
          }
          const bought = loggedIn ? dataset.purchases.find((x) => x.permalink === p.permalink && x.state !== 'refunded') : undefined;
          return renderPage(
            req,
            res,
            session,
            { inertia: 'Products/Show', react: 'ProductPage' },
            productPageProps(view, seller, p, bought),
          );
        }
        if (!path.startsWith('/d/')) return notFound();
      }

      if (path === '/login')
        return renderPage(
          req,
          res,
          session,
          { inertia: 'Logins/New', react: 'LoginPage' },
          { email: null, application_name: null, recaptcha_site_key: null },
        );
      if (path === '/library') {
        if (/application\/json/.test(req.headers.accept ?? '') && req.headers['x-inertia'] !== 'true')
          return (sendJson(res, 404, { success: false, error: 'Not found' }), 404);
        if (!loggedIn) return (railsRedirect(res, `${app.origin}/login?next=%2Flibrary`), 302);
        return renderPage(req, res, session, { inertia: 'Library/Index', react: 'LibraryPage' }, library(q));
      }
      const l = /^\/l\/([^/]+)$/.exec(path);
      if (l) {
        const found = productBy(dataset, l[1].replace(/\.json$/, ''));
        return found ? (railsRedirect(res, `${view.creator(found.seller.username)}${path}${u.search}`, 301), 301) : notFound();
      }
      if (path === '/confirm') {
        const p = purchaseOf(q.get('id') ?? '');
        if (!p) return notFound();
        const props = {
          content_unavailability_reason_code: 'email_confirmation_required',
          confirmation_info: { id: p.token, destination: q.get('destination') ?? 'download_page', display: null, email: null },
          creator: null,
          installment: null,
          purchase: null,
        };
        return renderPage(req, res, session, { inertia: 'UrlRedirects/ConfirmPage', react: 'DownloadPageWithoutContent' }, props);
      }
      const d = /^\/d\/([^/]+)$/.exec(path);
      if (d) {
        const p = gate(d[1]);
        if (typeof p === 'number') return p;
        return renderPage(
          req,
          res,
          session,
          { inertia: 'UrlRedirects/DownloadPage', react: 'DownloadPageWithContent' },
          downloadPageProps(view, dataset, p, sizes),
        );
      }
      const notice = /^\/r\/([^/]+)\/(expired|membership_inactive|rental_expired)$/.exec(path);
      if (notice)
        return (
          sendHtml(
            res,
            200,
            `<!DOCTYPE html><html><body><h1>${notice[2] === 'expired' ? 'Access to this product has been revoked.' : 'Your membership is inactive.'}</h1></body></html>`,
          ),
          200
        );
      const download = /^\/r\/([^/]+)\/product_files(\.json)?$/.exec(path);
      if (download) {
        const p = gate(download[1]);
        if (typeof p === 'number') return p;
        const { product } = productBy(dataset, p.permalink)!;
        const picked = q.getAll('product_file_ids[]').map((id) => product.files.find((f) => f.id === id && !f.deleted && !f.streamOnly));
        if (!picked.length || picked.some((f) => !f)) return notFound();
        const urls = picked.map((f) => ({
          url: signedFile(filePath(f!, files.get(f!.id)!.sellerId), fileTtl(f!)),
          filename: fileNameOf(f!),
        }));
        if (download[2]) return (sendJson(res, 200, { files: urls }), 200);
        const first = picked[0]!;
        if (first.stamped === 'pending') {
          first.stamped = 'ready';
          return (
            railsRedirect(res, `${app.origin}/d/${p.token}`, 302, {
              'set-cookie': `flash=${encodeURIComponent('We are preparing the file for download. Please try again in a few minutes.')}; path=/`,
            }),
            302
          );
        }
        return (railsRedirect(res, urls[0].url), 302);
      }
      const zip = /^\/zip\/([^/.]+)(\.json)?$/.exec(path);
      if (zip) {
        const p = gate(zip[1]);
        if (typeof p === 'number') return p;
        const { seller, product } = productBy(dataset, p.permalink)!;
        if (!product.archive) return notFound();
        const url = signedFile(
          `/attachments/${seller.externalId}/${digest(product.permalink, 32)}/archive/${encodeURIComponent(product.name)}.zip`,
          3600,
        );
        return zip[2] ? (sendJson(res, 200, { url }), 200) : (railsRedirect(res, url), 302);
      }
      const stream = /^\/(r|s|read)\/([^/]+)\/([^/]+)(\/index\.m3u8)?$/.exec(path);
      if (stream && (stream[1] !== 'r' || stream[4])) {
        const p = gate(stream[2]);
        if (typeof p === 'number') return p;
        const entry = files.get(stream[3]);
        if (!entry || entry.file.deleted || !productBy(dataset, p.permalink)!.product.files.includes(entry.file)) return notFound();
        if (stream[1] === 'r') {
          const segments = media.segmentSeconds.map((seconds, n) => ({
            uri: signedFile(`/attachments/${entry.sellerId}/${digest(entry.file.id, 32)}/hls/segment-${n}.ts`, 12 * 3600, 'cloudfront'),
            seconds,
          }));
          return (send(res, 200, hlsPlaylist(segments, 3), HLS_TYPE), 200);
        }
        const src =
          stream[1] === 's'
            ? `/r/${p.token}/${entry.file.id}/index.m3u8`
            : `/r/${p.token}/product_files?product_file_ids%5B%5D=${entry.file.id}`;
        return (
          sendHtml(
            res,
            200,
            `<!DOCTYPE html><html><body><${stream[1] === 's' ? 'video controls' : 'iframe'} src="${h(src)}"></${stream[1] === 's' ? 'video' : 'iframe'}></body></html>`,
          ),
          200
        );
      }
      return notFound();
    };

  const serveCdn = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<number> => {
    const u = new URL(req.url ?? '/', cdn.origin);
    const path = u.pathname;
    const q = u.searchParams;
    const deny = () => (send(res, 403, 'Access denied', 'text/plain'), 403);
    if (path.startsWith('/attachments/')) {
      const verify = /^(\d+)-(.+)$/.exec(q.get('verify') ?? '');
      const expires = Number(verify?.[1] ?? q.get('Expires'));
      const sig = verify ? verify[2] : q.get('Signature');
      if (!sig || !signer.check(`${path}|${expires}`, sig) || expires * 1000 <= now()) return deny();
      const name = decodeURIComponent(path.split('/').pop()!);
      const segment = /\/hls\/segment-(\d)\.ts$/.exec(path);
      if (segment) return (send(res, 200, media.segments()[Number(segment[1])], 'video/mp2t'), 200);
      const { bytes, type } = path.includes('/archive/') ? { bytes: await zipFor(name), type: 'application/zip' } : await bytesFor(name);
      const disposition: Record<string, string> =
        q.get('response-content-disposition') === 'attachment'
          ? { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}` }
          : {};
      return (send(res, 200, bytes, type, disposition), 200);
    }
    const asset = /^\/assets\/(gumroad-default-avatar-5\.png)$/.exec(path);
    const publicKey = /^\/(?:variants\/)?([0-9a-f]{28})(?:\/[0-9a-f]{64})?$/.exec(path);
    const name = asset ? asset[1] : publicKey ? publicFiles.get(publicKey[1]) : undefined;
    if (!name) return (send(res, 404, 'Not Found', 'text/plain'), 404);
    const { bytes, type } = await bytesFor(name);
    return (send(res, 200, bytes, type, { 'cache-control': 'public, max-age=31536000' }), 200);
  };

  const fake: FakeGumroad = {
    url: app.origin,
    cdnUrl: cdn.origin,
    creatorUrl: (username) => view.creator(username),
    key,
    cookie: `_gumroad_app_session=${encodeURIComponent(key)}`,
    dataset,
    requests,
    rateLimit: faults.rateLimit,
    fail: faults.fail,
    expireKey: () => void (live = false),
    editPost(permalink, change) {
      const found = productBy(dataset, permalink);
      if (!found) throw new Error(`no product ${permalink}`);
      const p = found.product;
      if (change.name !== undefined) p.name = change.name;
      if (change.descriptionHtml !== undefined) p.descriptionHtml = change.descriptionHtml;
      if (change.pageText !== undefined)
        p.pages = [
          {
            id: p.pages[0]?.id ?? 'pg_edit',
            title: p.pages[0]?.title ?? 'Content',
            doc: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: change.pageText }] }] },
          },
        ];
      p.contentUpdatedAt = now();
    },
    advanceTime: clock.advance,
    delayMs: 0,
    close: async () => void (await Promise.all([app, cdn, ...creators.values()].map((x) => x.close()))),
  };
  return fake;
}
