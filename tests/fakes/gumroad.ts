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
 * The hosts' routes are in gumroad-routes.ts, the page rendering in gumroad-pages.ts, what the hosts
 * share (state, signed URLs, CSRF tokens) in gumroad-state.ts, the dataset and its props in gumroad-data.ts.
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { demoDataset, digest, fileSizes, productBy, publicFilePath, type GrDataset, type GrFile, type GrView } from './gumroad-data.ts';
import { handleApp, serveCdn } from './gumroad-routes.ts';
import type { GumroadState } from './gumroad-state.ts';
import { Clock, Faults, logInto, startHost, type FakeHost, type FakeRequestLog } from './kit/server.ts';
import { Signer } from './kit/signing.ts';

export * from './gumroad-data.ts';
export { INERTIA_VERSION } from './gumroad-pages.ts';

/**
 * A cookie-store session value shaped like Rails 7's encrypted cookies (base64 data--iv--auth tag, 308
 * characters: the real ones are 200 to 1,024), with + / = in it (send it URL-encoded, as browsers show it).
 */
export const FAKE_GUMROAD_KEY =
  'PB6mnUry1EJ5qPEAxOjcz/GPE2IurSPm24C2T06lOVFFVeZsVTrAoGCW5rjLYaIg3DQWWAb4W81YGAqXh6zoHoJN8fxAxAEWyapg3UqXUMqNggSz/9Fx+VC0XEabpZ9V9qj9QP/xlhq1GgZb0U5R6fHRTIHeWGp0f+0xwauS0/BNB8Pxo1bOmDAij0y9ifAnYb4U8x223suSW2Yj89AeDZ6wLt23ggbU61Th/VlpRSfJiYAzTJfDoQDU6FkYVwON--8LU7LaBB/KSe8LmDkGCzRQ==--5NI+hB2OiAQZACe84xgPpQ==';

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

const LOG_HEADERS = ['cookie', 'accept', 'x-inertia', 'x-inertia-version', 'x-csrf-token', 'referer', 'user-agent', 'content-type'];

export async function startFakeGumroad(options: FakeGumroadOptions = {}): Promise<FakeGumroad> {
  const dataset = options.dataset ?? demoDataset();
  const pageSize = options.pageSize ?? 15;
  const generation = options.generation ?? 'inertia';
  const key = options.key ?? FAKE_GUMROAD_KEY;
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
  const app = await host('app', options.port, (req, res) => handleApp(state, 'app')(req, res));
  const cdn = await host('cdn', options.cdnPort, (req, res) => serveCdn(state, req, res));
  const creators = new Map<string, FakeHost>();
  for (const { username } of dataset.sellers)
    creators.set(username, await host(`creator:${username}`, undefined, (req, res) => handleApp(state, `creator:${username}`)(req, res)));

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
  const state: GumroadState = {
    dataset,
    key,
    live: true,
    pageSize,
    generation,
    now,
    faults,
    signer,
    csrfSecret,
    sizes,
    files,
    publicFiles,
    view,
    cdnOrigin: cdn.origin,
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
    expireKey: () => void (state.live = false),
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
