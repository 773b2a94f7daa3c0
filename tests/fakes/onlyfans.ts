/**
 * A fake OnlyFans for the importer tests: real node:http servers on 127.0.0.1 for onlyfans.com (the
 * API under /api2/v2), cdn2.onlyfans.com (post media, CloudFront-signed URLs) and public.onlyfans.com
 * (avatars and headers, public). Follows /work/research/onlyfans.md.
 *
 * API, all GET, answering JSON:
 *   users/me; subscriptions/count/all; subscriptions/subscribes?offset=&limit=&type=active|expired|all
 *   [&format=infinite] ({list, hasMore} with format=infinite, else a bare array); users/{id|username};
 *   users/{id}/posts?limit=&order=publish_date_desc|asc&pinned=0&beforePublishTime=|afterPublishTime=
 *   [&format=infinite] (pinned=0 leaves pinned posts out; the cursor is the last post's
 *   postedAtPrecise, strictly before/after it); users/{id}/posts?pinned=1 (offset paging);
 *   users/{id}/posts/archived (same paging as posts); posts/{id}.
 * Every request is signed with the rules object (options.rules: the public dynamic-rules JSON shape;
 * default tests/fakes/onlyfans-rules.json): sha1(static_param \n time \n path-with-query-as-sent \n
 * user id) in hex, checksum = |sum of the hex's char codes at checksum_indexes + checksum_constant|,
 * sign = prefix:sha1:checksum-hex:suffix (or `format`). The user id is the `user-id` header, else the
 * auth_id cookie, else 0. Refusals:
 *   - missing or wrong app-token, time or sign, or a time more than signMaxAgeSeconds (default 300)
 *     away from the fake's clock (time is epoch ms, as the site's JS sends; seconds count as stale):
 *     400 {"error":{"code":401,"message":"Please refresh the page"}} (the status, body and 58-byte
 *     length clients logged: UltimaScraper#1284, buer.haus write-up);
 *   - unknown or expired `sess` cookie, or an auth_id / user-id that is not the session's: 401
 *     {"error":{"code":401,"message":"Access denied."}} (401 on users/me: Amenly/onlyfans-scraper
 *     #50/#150; the message: k0rnh0li0/onlyfans-dl #11/#144);
 *   - the right session with another x-bc or User-Agent: the same 401, and the session is ended, as
 *     users report a wrong User-Agent logs their browser out (Amenly #50, k0rnh0li0 #144).
 * Uncertain points, chosen: the auth_id cookie is not required (VO sends it misspelled) but must match
 * when sent; `user-id` is optional (rules' remove_headers); the staleness window is a guess at "a few
 * minutes"; 429 body {"error":{"code":429,"message":"Too Many Requests"}} with Retry-After (none
 * recorded); unknown user 404 {"error":{"code":0,"message":"User not found"}}. The rules file's
 * `revision` is a placeholder (DH's file has none; RG's does). Deleted posts are not listed (only the
 * fixture shows isDeleted). CDN files need the signature in their URL (CloudFront 403 XML otherwise,
 * or after advanceClock past urlTtlSeconds); no cookies are needed there, as VO downloads without.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import { findCreatorPost } from './kit/data.ts';
import { image, media } from './kit/media.ts';
import { Clock, Faults, cookiesOf, header, jsonAs, logInto, send, startHost, type FakeRequestLog } from './kit/server.ts';
import { CLOUDFRONT_ERRORS, NO_SUCH_KEY, UrlSigner } from './kit/signing.ts';
import {
  SIZES,
  avatarPaths,
  demoDataset,
  mediaPaths,
  renderPost,
  renderUser,
  type OnlyfansDataset,
  type RenderContext,
} from './onlyfans-data.ts';

export * from './onlyfans-data.ts';

/** The public dynamic-rules JSON shape (DATAHOARDERS/dynamic-rules, mikigoalie/onlyfans-rulegen). */
export interface OnlyfansRules {
  static_param: string;
  format?: string;
  prefix?: string;
  suffix?: string;
  start?: string;
  end?: string;
  checksum_indexes: number[];
  checksum_constants?: number[];
  checksum_constant: number;
  app_token: string;
  revision?: string;
  remove_headers?: string[];
  error_code?: number;
  message?: string;
}

export const DEFAULT_ONLYFANS_RULES: OnlyfansRules = JSON.parse(fs.readFileSync(new URL('./onlyfans-rules.json', import.meta.url), 'utf8'));

/** The `sign` header for a request: path with its query as sent, time in ms as a string. */
export function onlyfansSign(rules: OnlyfansRules, path: string, time: string, userId: string): string {
  const sha = createHash('sha1').update([rules.static_param, time, path, userId].join('\n')).digest('hex');
  const checksum = Math.abs(rules.checksum_indexes.reduce((sum, i) => sum + sha.charCodeAt(i), 0) + rules.checksum_constant);
  if (rules.prefix !== undefined && rules.suffix !== undefined) return `${rules.prefix}:${sha}:${checksum.toString(16)}:${rules.suffix}`;
  if (!rules.format) throw new Error('rules have neither prefix/suffix nor format');
  return rules.format.replace('{}', sha).replace('{:x}', checksum.toString(16));
}

/** A credential as Trove seals it for OnlyFans (api/importer/credential.ts OnlyfansCredential). */
export const FAKE_ONLYFANS_CREDENTIAL = {
  session_key: 'fakeOnlyfansSess0123456789abcdefghijklmn',
  auth_id: '48151623421',
  'x-bc': 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
};

export interface FakeOnlyfansOptions {
  credential?: typeof FAKE_ONLYFANS_CREDENTIAL;
  rules?: OnlyfansRules;
  dataset?: OnlyfansDataset;
  /** Default `limit` of post pages (clients send 10). */
  pageSize?: number;
  signMaxAgeSeconds?: number;
  urlTtlSeconds?: number;
  port?: number;
  cdnPort?: number;
  publicPort?: number;
}

export interface FakeOnlyfans {
  /** onlyfans.com (the API is url + /api2/v2). */
  url: string;
  apiUrl: string;
  cdnUrl: string;
  publicUrl: string;
  credential: typeof FAKE_ONLYFANS_CREDENTIAL;
  rules: OnlyfansRules;
  dataset: OnlyfansDataset;
  requests: FakeRequestLog[];
  delayMs: number;
  rateLimit(count: number, retryAfterSeconds: number): void;
  fail(count: number, status?: number): void;
  expireKey(): void;
  /** Whether the session is still alive (a wrong x-bc or User-Agent ends it). */
  sessionAlive(): boolean;
  editPost(postId: number, rawText: string): void;
  advanceClock(seconds: number): void;
  close(): Promise<void>;
}

const refresh = { error: { code: 401, message: 'Please refresh the page' } };
const denied = { error: { code: 401, message: 'Access denied.' } };
const json = jsonAs('application/json');
const RELEVANT = ['app-token', 'user-id', 'x-bc', 'user-agent', 'time', 'sign', 'cookie', 'referer', 'accept'];

export async function startFakeOnlyfans(options: FakeOnlyfansOptions = {}): Promise<FakeOnlyfans> {
  const credential = options.credential ?? FAKE_ONLYFANS_CREDENTIAL;
  const rules = options.rules ?? DEFAULT_ONLYFANS_RULES;
  const dataset = options.dataset ?? demoDataset();
  const pageSize = options.pageSize ?? 10;
  const maxAge = (options.signMaxAgeSeconds ?? 300) * 1000;
  const faults = new Faults();
  const clock = new Clock();
  const requests: FakeRequestLog[] = [];
  let alive = true;
  const delay = () => fake.delayMs;
  const signer = new UrlSigner(`of-cdn-${Math.random()}`, 'APKAIN4QFZ7VFMVZBN5Q', clock.now);

  const cdnHost = await startHost({
    port: options.cdnPort,
    log: logInto(requests, 'cdn', ['cookie', 'user-agent', 'referer']),
    delay,
    handler: (_req, res, url) => cdn(res, url, true),
  });
  const publicHost = await startHost({
    port: options.publicPort,
    log: logInto(requests, 'public', ['cookie', 'user-agent']),
    delay,
    handler: (_req, res, url) => cdn(res, url, false),
  });
  const ctx: RenderContext = { cdn: cdnHost.origin, publicHost: publicHost.origin, signer, ttl: options.urlTtlSeconds ?? 3600 };
  const apiHost = await startHost({
    port: options.port,
    log: logInto(requests, 'api', RELEVANT),
    delay,
    handler: (req, res, url) => handle(req, res, url),
  });

  const creatorOf = (key: string) => dataset.creators.find((c) => String(c.id) === key || c.username.toLowerCase() === key.toLowerCase());
  const findPost = (id: number) => findCreatorPost(dataset.creators, (p) => p.id === id);

  const handle = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    if (!url.pathname.startsWith('/api2/v2/')) return send(res, 404, '<html><body>Not found</body></html>', 'text/html');
    const fault = faults.take();
    if (fault?.kind === 'limit')
      return json(
        res,
        429,
        { error: { code: 429, message: 'Too Many Requests' } },
        fault.retryAfter > 0 ? { 'retry-after': String(fault.retryAfter) } : {},
      );
    if (fault?.kind === 'fail')
      return send(
        res,
        fault.status,
        `<html><head><title>${fault.status}</title></head><body>${fault.status} error</body></html>`,
        'text/html',
      );
    // The signature: over the request target exactly as sent.
    const cookies = cookiesOf(req);
    const userId = header(req, 'user-id') ?? cookies.get('auth_id') ?? '0';
    const time = header(req, 'time') ?? '';
    const sign = header(req, 'sign') ?? '';
    if (
      header(req, 'app-token') !== rules.app_token ||
      !/^\d+$/.test(time) ||
      Math.abs(Number(time) - clock.now()) > maxAge ||
      sign !== onlyfansSign(rules, req.url ?? '', time, userId)
    ) {
      return json(res, 400, refresh);
    }
    // The session.
    const authId = cookies.get('auth_id');
    if (
      !alive ||
      cookies.get('sess') !== credential.session_key ||
      (authId !== undefined && authId !== credential.auth_id) ||
      (header(req, 'user-id') !== undefined && header(req, 'user-id') !== credential.auth_id)
    ) {
      return json(res, 401, denied);
    }
    if (header(req, 'x-bc') !== credential['x-bc'] || header(req, 'user-agent') !== credential.user_agent) {
      alive = false;
      return json(res, 401, denied);
    }
    if (req.method !== 'GET') return json(res, 405, { error: { code: 0, message: 'Method not allowed' } });
    const answer = route(url.pathname.slice('/api2/v2'.length), url.searchParams);
    if (answer === undefined) return json(res, 404, { error: { code: 0, message: 'Not found' } });
    if (answer === null) return json(res, 404, { error: { code: 0, message: 'User not found' } });
    json(res, 200, answer);
  };

  const infinite = (q: URLSearchParams, list: unknown[], hasMore: boolean) => (q.get('format') === 'infinite' ? { list, hasMore } : list);

  const route = (path: string, q: URLSearchParams): unknown => {
    if (path === '/users/me') {
      const me = dataset.me;
      return {
        id: me.id,
        username: me.username,
        name: me.name,
        avatar: null,
        header: null,
        isAuth: true,
        isVerified: false,
        email: 'fan@example.com',
        subscribesCount: dataset.creators.filter((c) => c.subscription === 'active').length,
        hasNewAlerts: false,
        isPerformer: false,
      };
    }
    if (path === '/subscriptions/count/all') {
      const active = dataset.creators.filter((c) => c.subscription === 'active').length;
      return {
        subscriptions: { active, expired: dataset.creators.length - active, all: dataset.creators.length, activeOnline: 0 },
        subscribers: { active: 0, expired: 0, all: 0 },
        bookmarks: 0,
      };
    }
    if (path === '/subscriptions/subscribes') {
      const type = q.get('type') ?? 'all';
      const offset = Number(q.get('offset') ?? 0);
      const limit = Number(q.get('limit') ?? 10);
      const all = dataset.creators.filter((c) => type === 'all' || c.subscription === type);
      return infinite(
        q,
        all.slice(offset, offset + limit).map((c) => renderUser(ctx, c)),
        offset + limit < all.length,
      );
    }
    let m = /^\/posts\/(\d+)$/.exec(path);
    if (m) {
      const found = findPost(Number(m[1]));
      return found ? renderPost(ctx, found.creator, found.post) : undefined;
    }
    m = /^\/users\/([^/]+)(\/posts(\/archived)?)?$/.exec(path);
    if (!m) return undefined;
    const creator = creatorOf(decodeURIComponent(m[1]));
    if (!creator) return m[2] ? [] : null;
    if (!m[2]) return renderUser(ctx, creator);
    const limit = Math.min(Number(q.get('limit') ?? pageSize) || pageSize, 100);
    let posts = creator.posts.filter((p) => !!p.archived === !!m![3]);
    if (q.get('pinned') === '1') {
      const offset = Number(q.get('offset') ?? 0);
      posts = posts.filter((p) => p.pinned).sort((a, b) => b.postedAt - a.postedAt);
      return infinite(
        q,
        posts.slice(offset, offset + limit).map((p) => renderPost(ctx, creator, p)),
        offset + limit < posts.length,
      );
    }
    if (q.get('pinned') === '0') posts = posts.filter((p) => !p.pinned);
    const asc = q.get('order') === 'publish_date_asc';
    const before = q.get('beforePublishTime');
    const after = q.get('afterPublishTime');
    posts = posts
      .filter((p) => (before ? p.postedAt < Number(before) : true) && (after ? p.postedAt > Number(after) : true))
      .sort((a, b) => (asc ? a.postedAt - b.postedAt : b.postedAt - a.postedAt));
    return infinite(
      q,
      posts.slice(0, limit).map((p) => renderPost(ctx, creator, p)),
      posts.length > limit,
    );
  };

  // -------------------------------------------------------------------------------------------
  // cdn2.onlyfans.com and public.onlyfans.com

  type CdnFile = { type: string; bytes: () => Promise<Buffer> | Buffer };
  const signed = new Map<string, CdnFile>();
  const open = new Map<string, CdnFile>();
  const jpeg = (path: string, [w, h]: readonly [number, number]): CdnFile => ({
    type: 'image/jpeg',
    bytes: () => image(path, { format: 'jpeg', width: w, height: h, inset: true }),
  });
  for (const c of dataset.creators) {
    const p = avatarPaths(c);
    open.set(p.avatar, jpeg(p.avatar, SIZES.preview));
    open.set(p.header, jpeg(p.header, SIZES.full));
    for (const post of c.posts) {
      for (const spec of post.media) {
        const paths = mediaPaths(spec);
        if (spec.kind !== 'audio') {
          signed.set(paths.preview, jpeg(paths.preview, SIZES.preview));
          signed.set(paths.thumb, jpeg(paths.thumb, SIZES.thumb));
          signed.set(paths.squarePreview, jpeg(paths.squarePreview, SIZES.thumb));
        }
        if (spec.drm) continue;
        signed.set(
          paths.full,
          spec.kind === 'photo'
            ? jpeg(paths.full, SIZES.full)
            : spec.kind === 'video'
              ? { type: 'video/mp4', bytes: media.mp4 }
              : { type: 'audio/mpeg', bytes: media.mp3 },
        );
      }
    }
  }

  const cdn = async (res: http.ServerResponse, url: URL, needsSignature: boolean) => {
    const file =
      (needsSignature ? signed : open).get(url.pathname) ??
      (needsSignature ? undefined : open.get(url.pathname.replace(/\/thumbs\/[a-z]?\d+\//, '/')));
    if (!file)
      return needsSignature ? send(res, 403, CLOUDFRONT_ERRORS.bad, 'application/xml') : send(res, 404, NO_SUCH_KEY, 'application/xml');
    if (needsSignature) {
      const verdict = signer.check(`${cdnHost.origin}${url.pathname}`, url.searchParams, new Map());
      if (verdict !== 'ok') return send(res, 403, CLOUDFRONT_ERRORS[verdict], 'application/xml');
    }
    send(res, 200, await file.bytes(), file.type, { 'cache-control': 'max-age=604800' });
  };

  const fake: FakeOnlyfans = {
    url: apiHost.origin,
    apiUrl: `${apiHost.origin}/api2/v2`,
    cdnUrl: cdnHost.origin,
    publicUrl: publicHost.origin,
    credential,
    rules,
    dataset,
    requests,
    delayMs: 0,
    rateLimit: faults.rateLimit,
    fail: faults.fail,
    expireKey: () => void (alive = false),
    sessionAlive: () => alive,
    editPost(postId, rawText) {
      const found = findPost(postId);
      if (!found) throw new Error(`no post ${postId}`);
      found.post.rawText = rawText;
    },
    advanceClock: clock.advance,
    async close() {
      await Promise.all([apiHost.close(), cdnHost.close(), publicHost.close()]);
    },
  };
  return fake;
}
