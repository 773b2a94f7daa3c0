/**
 * A fake Fansly for the importer tests: real node:http servers on 127.0.0.1, one for
 * apiv3.fansly.com (with fansly.com's home page and main.<hash>.js folded onto the same origin) and
 * one for cdn3.fansly.com. Follows /work/research/fansly.md.
 *
 * API (all `GET /api/v1/...`, answers `{"success": true, "response": ...}`; `ngsw-bypass=true` is
 * accepted and not required):
 *   device/id (no auth: a new device id), account/me, subscriptions[?ids=], account/{me}/following
 *   (limit/offset), account?ids= | ?usernames=, timelinenew/{creatorId}?before=&after=0&wallId=
 *   (newest first, `before` = id of the last post of the previous page, an empty `posts` at the
 *   end), post?ids=, account/media?ids=, messaging/groups, message?groupId=&limit=&before=.
 *   OPTIONS on any path answers the CORS preflight (204) without auth, as a browser-facing API does.
 * Auth, refused with 401 {"success":false,"error":{"code":401,"details":"unauthorized"}} (the body
 * prof79/fansly-downloader-ng#41 quotes):
 *   - `authorization: <token>` (the bare token, no Bearer) missing, wrong or expired (expireKey);
 *   - the signing headers, on every call but device/id: `fansly-client-id` (a device id this fake
 *     issued), `fansly-client-ts` (epoch ms within clientTsToleranceSeconds of the fake's clock) and
 *     `fansly-client-check` = cyrb53(checkKey + '_' + pathname + '_' + deviceId) in hex;
 *   - `fansly-session-id` (the first ':' field of the base64-decoded token) on every call but
 *     account/me and device/id (JK's client marks it mandatory except for /account/me).
 * Uncertain points, chosen: whether missing signing headers are refused and how is not known (open
 * question 1); a wrong check key is known to end in "unauthorized" (prof79 #34/#41), so every signing
 * failure answers that 401. Rate limits: 429 {"success":false,"error":{"code":429,...}} with a
 * Retry-After header (no client reads one; Fansly's 429 body is not recorded). No Origin check, no
 * WebSocket (the session id comes from the token). Pinned posts are listed in the account's
 * pinnedPosts and appear once, at their place in the timeline. The timeline's accountMedia holds only
 * media attached one by one: bundle members must be fetched from account/media, as the notes warn
 * the real list can be incomplete. Audio is Media type 3 (not recorded; mimetype audio/mp4 is).
 * Deleted media keep their accountMedia entry (deleted, deletedAt) with no locations.
 * CDN: files under /{accountId}/{mediaId}.{ext} need the CloudFront signature the API put in their
 * URL (403 with CloudFront's XML when missing, wrong or expired: advanceClock past urlTtlSeconds);
 * HLS (master {id}.m3u8, rendition {id}_180.m3u8, segments {id}_180_0000N.ts, a real clip) take the
 * location metadata's Policy/Key-Pair-Id/Signature as query parameters or CloudFront-* cookies.
 */
import type http from 'node:http';
import { findCreatorPost } from './kit/data.ts';
import { HLS_TYPE, hlsMedia } from './kit/hls.ts';
import { image, media } from './kit/media.ts';
import { Clock, Faults, cookiesOf, header, jsonAs, logInto, send, startHost, type FakeRequestLog } from './kit/server.ts';
import { CLOUDFRONT_ERRORS, NO_SUCH_KEY, UrlSigner } from './kit/signing.ts';
import { demoDataset, type FanslyCreator, type FanslyDataset, type FanslyMediaSpec } from './fansly-data.ts';
import {
  SIZES,
  hlsFiles,
  mediaPaths,
  renderAccount,
  renderAccountMedia,
  renderMessagePage,
  renderPostContainer,
  renderSubscription,
  type RenderContext,
} from './fansly-render.ts';

export * from './fansly-data.ts';
export * from './fansly-render.ts';

/** The session id inside the demo token. */
export const FAKE_FANSLY_SESSION_ID = '790000000000000001';
/** A 71-character token as Fansly's are: base64 (no padding) of `<sessionId>:1:2:<hex>`. */
export const FAKE_FANSLY_TOKEN = 'NzkwMDAwMDAwMDAwMDAwMDAxOjE6MjpjYTEyMmY0MDIzOTliMzFiYTgwOWFhMGRiMjQ5Mjk';
/** The checkKey JK's client gives as current (2025-10-25). */
export const FAKE_FANSLY_CHECK_KEY = 'oybZy8-fySzis-bubayf';
export const FANSLY_MAIN_JS = 'main.9f2c41d7e8a3b605.js';

/** cyrb53 with seed 0, the variant Fansly's bundle and JK's client use (h2 mixed with the new h1). */
export function cyrb53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The fansly-client-check header for a request path (no query) from this device. */
export const fanslyClientCheck = (checkKey: string, pathname: string, deviceId: string) =>
  cyrb53(`${checkKey}_${pathname}_${deviceId}`).toString(16);

/** The session id a token carries (first ':' field of its base64 text). */
export const sessionIdOf = (token: string) => Buffer.from(token, 'base64').toString().split(':')[0];

export interface FakeFanslyOptions {
  token?: string;
  checkKey?: string;
  dataset?: FanslyDataset;
  /** Posts per timeline page (the real one gives up to 15). */
  pageSize?: number;
  /** Largest `limit` a message page honours. */
  maxMessageLimit?: number;
  urlTtlSeconds?: number;
  clientTsToleranceSeconds?: number;
  port?: number;
  cdnPort?: number;
}

export interface FakeFansly {
  /** apiv3.fansly.com and fansly.com (home page, main.*.js). */
  url: string;
  apiUrl: string;
  /** cdn3.fansly.com */
  cdnUrl: string;
  token: string;
  sessionId: string;
  checkKey: string;
  dataset: FanslyDataset;
  requests: FakeRequestLog[];
  deviceIds: Set<string>;
  delayMs: number;
  rateLimit(count: number, retryAfterSeconds: number): void;
  fail(count: number, status?: number): void;
  expireKey(): void;
  /** main.*.js answers 404 from now on (a site change the importer cannot read its check key from). */
  hideCheckKey(): void;
  editPost(postId: string, content: string): void;
  advanceClock(seconds: number): void;
  close(): Promise<void>;
}

const unauthorized = { success: false, error: { code: 401, details: 'unauthorized' } };
const ok = (response: unknown) => ({ success: true, response });
const json = jsonAs('application/json');
const RELEVANT = [
  'authorization',
  'fansly-client-id',
  'fansly-client-ts',
  'fansly-client-check',
  'fansly-session-id',
  'origin',
  'referer',
  'user-agent',
  'cookie',
];

export async function startFakeFansly(options: FakeFanslyOptions = {}): Promise<FakeFansly> {
  const token = options.token ?? FAKE_FANSLY_TOKEN;
  const sessionId = sessionIdOf(token);
  const checkKey = options.checkKey ?? FAKE_FANSLY_CHECK_KEY;
  const dataset = options.dataset ?? demoDataset();
  const pageSize = options.pageSize ?? 15;
  const tolerance = (options.clientTsToleranceSeconds ?? 300) * 1000;
  const faults = new Faults();
  const clock = new Clock();
  const requests: FakeRequestLog[] = [];
  const deviceIds = new Set<string>();
  let expired = false;
  let checkKeyHidden = false;
  let deviceCounter = 0n;
  const delay = () => fake.delayMs;
  const signer = new UrlSigner(`fansly-cdn-${Math.random()}`, 'K2JCJMDEHXQW5F', clock.now);

  const cdnHost = await startHost({
    port: options.cdnPort,
    log: logInto(requests, 'cdn', ['cookie', 'authorization', 'origin', 'referer']),
    delay,
    handler: (req, res, url) => cdn(req, res, url),
  });
  const ctx: RenderContext = { cdn: cdnHost.origin, signer, ttl: options.urlTtlSeconds ?? 3600 };
  const apiHost = await startHost({
    port: options.port,
    log: logInto(requests, 'api', RELEVANT),
    delay,
    handler: (req, res, url) => handle(req, res, url),
  });

  // -------------------------------------------------------------------------------------------
  // Lookups

  const creatorById = (id: string) => dataset.creators.find((c) => c.id === id);
  const findPost = (id: string) => findCreatorPost(dataset.creators, (p) => p.id === id);
  /** Every media item with its owner, creation time and bundle, from posts and messages. */
  const allMedia = () => {
    const out: { owner: FanslyCreator; spec: FanslyMediaSpec; createdAt: number; bundleId?: string; siblings: FanslyMediaSpec[] }[] = [];
    for (const c of dataset.creators)
      for (const p of c.posts)
        for (const spec of p.media) out.push({ owner: c, spec, createdAt: p.createdAt, bundleId: p.bundleId, siblings: p.media });
    for (const g of dataset.groups) {
      for (const msg of g.messages) {
        const owner = creatorById(msg.senderId);
        if (owner)
          for (const spec of msg.media) out.push({ owner, spec, createdAt: msg.createdAt, bundleId: msg.bundleId, siblings: msg.media });
      }
    }
    return out;
  };
  const idList = (url: URL, name: string) => (url.searchParams.get(name) ?? '').split(',').filter(Boolean);

  // -------------------------------------------------------------------------------------------
  // fansly.com pages and the API

  const site = (res: http.ServerResponse, path: string): boolean => {
    if (path === '/') {
      send(
        res,
        200,
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fansly</title><base href="/"></head><body><app-root></app-root><script src="runtime.1b2c3d4e5f6a7b8c.js" type="module"></script><script src="${FANSLY_MAIN_JS}" type="module"></script></body></html>`,
        'text/html; charset=utf-8',
      );
      return true;
    }
    if (path === `/${FANSLY_MAIN_JS}` && !checkKeyHidden) {
      // The key is an expression now (JK evaluates it): two parts reversed and joined, plus the last.
      const [a, b, c] = checkKey.split('-');
      const expression =
        c === undefined ? JSON.stringify(checkKey) : `[${JSON.stringify(b)},${JSON.stringify(a)}].reverse().join("-")+"-${c}"`;
      send(
        res,
        200,
        `"use strict";(self.webpackChunkfansly=self.webpackChunkfansly||[]).push([[179],{4821:(e,t,n)=>{class r{constructor(){this.deviceId_=null;this.checkKey_=${expression},this.cache_=new Map}}}}]);`,
        'application/javascript',
      );
      return true;
    }
    return false;
  };

  const handle = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const path = url.pathname;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-origin': 'https://fansly.com',
        'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
        'access-control-allow-headers':
          'authorization,fansly-client-check,fansly-client-id,fansly-client-ts,fansly-session-id,content-type',
        'access-control-allow-credentials': 'true',
      });
      return res.end();
    }
    if (!path.startsWith('/api/v1/')) {
      if (req.method === 'GET' && site(res, path)) return;
      return json(res, 404, { success: false, error: { code: 404, details: 'Not Found' } });
    }
    const fault = faults.take();
    if (fault?.kind === 'limit') {
      return json(
        res,
        429,
        { success: false, error: { code: 429, details: 'Too Many Requests' } },
        fault.retryAfter > 0 ? { 'retry-after': String(fault.retryAfter) } : {},
      );
    }
    if (fault?.kind === 'fail')
      return send(
        res,
        fault.status,
        `<html><head><title>${fault.status}</title></head><body><center><h1>${fault.status}</h1></center></body></html>`,
        'text/html',
      );
    if (path === '/api/v1/device/id') {
      const deviceId = String(780000000000000000n + BigInt(Math.floor(clock.now() / 1000)) * 1000n + ++deviceCounter);
      deviceIds.add(deviceId);
      return json(res, 200, ok(deviceId));
    }
    if (expired || header(req, 'authorization') !== token) return json(res, 401, unauthorized);
    const deviceId = header(req, 'fansly-client-id') ?? '';
    const ts = Number(header(req, 'fansly-client-ts'));
    const check = header(req, 'fansly-client-check');
    if (
      !deviceIds.has(deviceId) ||
      !Number.isFinite(ts) ||
      Math.abs(ts - clock.now()) > tolerance ||
      check !== fanslyClientCheck(checkKey, path, deviceId)
    ) {
      return json(res, 401, unauthorized);
    }
    if (path !== '/api/v1/account/me' && header(req, 'fansly-session-id') !== sessionId) return json(res, 401, unauthorized);
    if (req.method !== 'GET') return json(res, 405, { success: false, error: { code: 405, details: 'Method Not Allowed' } });
    const answer = route(path, url);
    if (answer === undefined) return json(res, 404, { success: false, error: { code: 404, details: 'Not Found' } });
    json(res, 200, ok(answer));
  };

  const route = (path: string, url: URL): unknown => {
    const me = dataset.me;
    if (path === '/api/v1/account/me') {
      return {
        account: {
          id: me.id,
          username: me.username,
          displayName: me.displayName,
          flags: 0,
          version: 1,
          createdAt: 1700000000000,
          followCount: dataset.creators.filter((c) => c.following).length,
          subscriberCount: 0,
          about: '',
          location: '',
        },
      };
    }
    if (path === '/api/v1/subscriptions') {
      const ids = idList(url, 'ids');
      const subs = dataset.creators
        .filter((c) => c.subscribed)
        .map((c) => renderSubscription(c, me.id))
        .filter((s) => ids.length === 0 || ids.includes(s.id));
      return { stats: { totalActive: subs.length, totalExpired: 0, total: subs.length }, subscriptions: subs };
    }
    let m = /^\/api\/v1\/account\/(\d+)\/following$/.exec(path);
    if (m) {
      const limit = Number(url.searchParams.get('limit') ?? 425);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const followed = m[1] === me.id ? dataset.creators.filter((c) => c.following) : [];
      return followed.slice(offset, offset + limit).map((c) => ({ accountId: c.id, followerId: me.id, createdAt: 1700000000000 }));
    }
    if (path === '/api/v1/account') {
      const ids = idList(url, 'ids');
      const names = idList(url, 'usernames').map((n) => n.toLowerCase());
      const creators = dataset.creators
        .filter((c) => ids.includes(c.id) || names.includes(c.username.toLowerCase()))
        .map((c) => renderAccount(ctx, c, me.id));
      const others = dataset.groups
        .map((g) => g.partner)
        .filter((p) => !creatorById(p.id) && (ids.includes(p.id) || names.includes(p.username)));
      return [
        ...creators,
        ...others.map((p) => ({
          id: p.id,
          username: p.username,
          displayName: p.displayName,
          flags: 0,
          version: 1,
          createdAt: 1700000000000,
          followCount: 0,
          subscriberCount: 0,
          about: '',
          location: '',
        })),
      ];
    }
    m = /^\/api\/v1\/timelinenew\/(\d+)$/.exec(path);
    if (m) {
      const creator = creatorById(m[1]);
      if (!creator) return renderPostContainer(ctx, dataset, []);
      const before = BigInt(url.searchParams.get('before') || '0');
      const wallId = url.searchParams.get('wallId') || '';
      const posts = [...creator.posts]
        .filter((p) => !wallId || p.wallId === wallId)
        .filter((p) => before === 0n || BigInt(p.id) < before)
        .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
        .slice(0, pageSize);
      return renderPostContainer(
        ctx,
        dataset,
        posts.map((post) => ({ creator, post })),
      );
    }
    if (path === '/api/v1/post') {
      const found = idList(url, 'ids')
        .map(findPost)
        .filter((x) => x !== undefined);
      return renderPostContainer(ctx, dataset, found);
    }
    if (path === '/api/v1/account/media') {
      const ids = idList(url, 'ids');
      return allMedia()
        .filter((x) => ids.includes(x.spec.id))
        .map((x) => renderAccountMedia(ctx, x.owner, x.spec, x.createdAt));
    }
    if (path === '/api/v1/messaging/groups') {
      return {
        data: dataset.groups.map((g) => ({
          account_id: me.id,
          groupId: g.id,
          partnerAccountId: g.partner.id,
          partnerUsername: g.partner.username,
          flags: creatorById(g.partner.id) ? 24 : 8,
          unreadCount: 0,
          subscriptionTierId: creatorById(g.partner.id)?.subscribed ? creatorById(g.partner.id)!.tier.id : null,
          lastMessageId: g.messages.at(-1)?.id ?? null,
          lastUnreadMessageId: null,
        })),
        aggregationData: {
          accounts: dataset.groups.map(({ partner: p }) => {
            const creator = creatorById(p.id);
            return creator
              ? renderAccount(ctx, creator, me.id)
              : { id: p.id, username: p.username, displayName: p.displayName, flags: 0, version: 1, createdAt: 1700000000000 };
          }),
          groups: dataset.groups.map((g) => ({
            id: g.id,
            type: 1,
            users: [
              { groupId: g.id, userId: me.id },
              { groupId: g.id, userId: g.partner.id },
            ],
            createdBy: g.partner.id,
            lastMessageId: g.messages.at(-1)?.id ?? null,
          })),
        },
      };
    }
    if (path === '/api/v1/message') {
      const group = dataset.groups.find((g) => g.id === url.searchParams.get('groupId'));
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 25) || 25, options.maxMessageLimit ?? 50);
      const before = BigInt(url.searchParams.get('before') || '0');
      const page = [...(group?.messages ?? [])]
        .filter((msg) => before === 0n || BigInt(msg.id) < before)
        .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
        .slice(0, limit);
      return renderMessagePage(ctx, dataset, group?.id ?? '', page);
    }
    return undefined;
  };

  // -------------------------------------------------------------------------------------------
  // cdn3.fansly.com

  type CdnFile = { type: string; hls: boolean; bytes: () => Promise<Buffer> | Buffer };
  const files = new Map<string, CdnFile>();
  const jpeg = (path: string, w: number, h: number): CdnFile => ({
    type: 'image/jpeg',
    hls: false,
    bytes: () => image(path, { format: 'jpeg', width: w, height: h, inset: true }),
  });
  const register = (owner: string, spec: FanslyMediaSpec) => {
    const paths = mediaPaths(owner, spec);
    files.set(paths.preview, jpeg(paths.preview, SIZES.thumb[0], SIZES.thumb[1]));
    if (spec.kind === 'image') {
      files.set(paths.original, jpeg(paths.original, SIZES.image[0], SIZES.image[1]));
      files.set(paths.thumb, jpeg(paths.thumb, SIZES.thumb[0], SIZES.thumb[1]));
      return;
    }
    if (spec.kind === 'audio') return void files.set(paths.original, { type: 'audio/mp4', hls: false, bytes: media.m4a });
    files.set(paths.thumb, jpeg(paths.thumb, SIZES.poster[0], SIZES.poster[1]));
    if (spec.kind === 'video') files.set(paths.original, { type: 'video/mp4', hls: false, bytes: media.mp4 });
    const hls = hlsFiles(owner, spec);
    const segments = media.segments();
    files.set(hls.master, { type: HLS_TYPE, hls: true, bytes: () => Buffer.from(hls.masterText) });
    files.set(hls.rendition, {
      type: HLS_TYPE,
      hls: true,
      bytes: () => Buffer.from(hlsMedia(segments.map((_, n) => hls.segment(n).split('/').pop()!))),
    });
    segments.forEach((bytes, n) => files.set(hls.segment(n), { type: 'video/mp2t', hls: true, bytes: () => bytes }));
  };
  for (const c of dataset.creators) {
    register(c.id, { id: c.avatarId, kind: 'image' });
    register(c.id, { id: c.bannerId, kind: 'image' });
  }
  for (const x of allMedia()) register(x.owner.id, x.spec);

  const cdn = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const file = files.get(url.pathname);
    if (!file) return send(res, 404, NO_SUCH_KEY, 'application/xml');
    const cookies = file.hls ? cookiesOf(req) : new Map<string, string>();
    const verdict = signer.check(`${cdnHost.origin}${url.pathname}`, url.searchParams, cookies);
    if (verdict !== 'ok') return send(res, 403, CLOUDFRONT_ERRORS[verdict], 'application/xml');
    send(res, 200, await file.bytes(), file.type, { 'cache-control': 'max-age=31536000' });
  };

  const fake: FakeFansly = {
    url: apiHost.origin,
    apiUrl: `${apiHost.origin}/api/v1`,
    cdnUrl: cdnHost.origin,
    token,
    sessionId,
    checkKey,
    dataset,
    requests,
    deviceIds,
    delayMs: 0,
    rateLimit: faults.rateLimit,
    fail: faults.fail,
    expireKey: () => void (expired = true),
    hideCheckKey: () => void (checkKeyHidden = true),
    editPost(postId, content) {
      const found = findPost(postId);
      if (!found) throw new Error(`no post ${postId}`);
      found.post.content = content;
    },
    advanceClock: clock.advance,
    async close() {
      await Promise.all([apiHost.close(), cdnHost.close()]);
    },
  };
  return fake;
}
