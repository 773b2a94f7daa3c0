/**
 * A fake CandFans for the importer tests: real node:http servers on 127.0.0.1 for candfans.jp (a
 * Laravel app with Sanctum cookie auth, API under /api), image.candfans.jp and video.candfans.jp.
 * Follows /work/research/candfans.md.
 *
 * API (envelope {"status":"SUCCESS","message":"…","data":…} except /api/v3):
 *   GET sanctum/csrf-cookie (204, sets XSRF-TOKEN; starts a guest session without a valid one);
 *   GET user/get-user-mine; user/get-entry-plans; user/get-follow/{ownId}?page=n (10 a page, `data`
 *   empty after the last); user/get-users?user_code= (public: works without a session);
 *   contents/get-timeline?user_id=&post_type[]=&sort_order=new|old&record=&page=&month= (page from
 *   1, an empty `data` after the last); contents/get-timeline-month?user_id=;
 *   contents/get-timeline/{post_id}; v3/timeline/content-length?user_id=&post_type[]= (bare object);
 *   PUT user/put-follow/{id}.
 * Auth, the Laravel way: the key is the `secure_candfans_session` cookie, a real Laravel encrypted
 * cookie (AES-256-CBC, {iv, value, mac, tag} JSON in base64, URL-encoded; the plaintext is
 * sha1-HMAC prefix | session id) under the fake's APP_KEY. Every answer re-sets it (a fresh IV, the
 * same session, as Laravel does) and re-sets XSRF-TOKEN. Refusals:
 *   - no Origin/Referer on candfans.jp (or r18./www.): Sanctum does not treat the call as a cookie
 *     session, so the session cookie is ignored: 401 {"message":"Unauthenticated."};
 *   - session cookie missing, undecryptable (wrong MAC) or expired (expireKey): the same 401;
 *   - X-XSRF-TOKEN header missing or not decrypting to the session's token: 419
 *     {"message":"CSRF token mismatch."}. Laravel checks it only on PUT/POST/...; the fake checks
 *     it on every authenticated call by default (option xsrf: 'all'), because every public client
 *     sends it on GETs too and the notes could not confirm GETs pass without it; xsrf: 'unsafe' is
 *     the plain Laravel behaviour; xsrfMismatch(n) makes the next n calls answer this 419 (a renewed token).
 * Throttle (Laravel's): every API answer carries X-RateLimit-Limit / X-RateLimit-Remaining for a
 * window of perMinute requests (default 300); past it, and for rateLimit(n, s), 429
 * {"message":"Too Many Attempts."} with Retry-After. fail(n) answers {"message":"Server Error"}.
 * Uncertain points, chosen: locked posts (can_browsing 0) come with empty contents_text, paths and
 * attachments but keep title and thumbnail_file; media hosts need no cookie (XD downloaded without;
 * whether they check is open question 4) and take no signature; audio is an MP3 on the video host;
 * attachments[].default of a video is a master playlist (high and low renditions of the same real
 * 3 s clip, relative segment URIs), contents_path1 the `_high.m3u8` rendition; post_date is JST;
 * unknown user_code: 404 {"message":"ユーザーが見つかりません。"}. Cookies carry no Domain or Secure
 * attribute, since the fake is plain HTTP on 127.0.0.1.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { findCreatorPost } from './kit/data.ts';
import { HLS_TYPE, hlsMaster, hlsMedia } from './kit/hls.ts';
import { image, media } from './kit/media.ts';
import { Clock, Faults, cookiesOf, header, jsonAs, logInto, send, startHost, type FakeRequestLog } from './kit/server.ts';
import { awsError } from './kit/signing.ts';
import {
  demoDataset,
  envelope,
  filePaths,
  postAnswer,
  postDir,
  profilePaths,
  renderPlan,
  timelineAnswer,
  userAnswer,
  type CandfansCreator,
  type CandfansDataset,
  type RenderContext,
} from './candfans-data.ts';

export * from './candfans-data.ts';

export const SESSION_COOKIE = 'secure_candfans_session';
/** The fake's Laravel APP_KEY (32 bytes). */
const APP_KEY = createHash('sha256').update('trove fake candfans app key').digest();

/** Laravel's Encrypter::encrypt($value, false): base64 of {"iv","value","mac","tag"}. */
export function laravelEncrypt(plaintext: string, iv: Buffer = randomBytes(16)): string {
  const cipher = createCipheriv('aes-256-cbc', APP_KEY, iv);
  const value = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]).toString('base64');
  const ivText = iv.toString('base64');
  const mac = createHmac('sha256', APP_KEY)
    .update(ivText + value)
    .digest('hex');
  return Buffer.from(JSON.stringify({ iv: ivText, value, mac, tag: '' })).toString('base64');
}

/** The plaintext, or null when the payload is not one of ours (bad JSON or MAC). */
export function laravelDecrypt(payload: string): string | null {
  try {
    const { iv, value, mac } = JSON.parse(Buffer.from(payload, 'base64').toString()) as { iv: string; value: string; mac: string };
    const expected = Buffer.from(
      createHmac('sha256', APP_KEY)
        .update(iv + value)
        .digest('hex'),
    );
    if (typeof mac !== 'string' || mac.length !== expected.length || !timingSafeEqual(Buffer.from(mac), expected)) return null;
    const decipher = createDecipheriv('aes-256-cbc', APP_KEY, Buffer.from(iv, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(value, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** Laravel's CookieValuePrefix: sha1-HMAC of the cookie name + 'v2', then '|'. */
const cookiePrefix = (name: string) => `${createHmac('sha1', APP_KEY).update(`${name}v2`).digest('hex')}|`;

/** An encrypted cookie value as the browser stores it (URL-encoded). */
export function encryptCookie(name: string, value: string, iv?: Buffer): string {
  return encodeURIComponent(laravelEncrypt(cookiePrefix(name) + value, iv));
}

export function decryptCookie(name: string, stored: string): string | null {
  let raw: string;
  try {
    raw = decodeURIComponent(stored);
  } catch {
    return null;
  }
  const plain = laravelDecrypt(raw);
  return plain?.startsWith(cookiePrefix(name)) ? plain.slice(cookiePrefix(name).length) : null;
}

export const FAKE_CANDFANS_SESSION_ID = 'Qm9uQ2FuZEZhbnNGYWtlU2Vzc2lvbklkMDEyMzQ1';
/** The demo key: the session cookie's value as the browser's devtools show it. */
export const FAKE_CANDFANS_KEY = encryptCookie(
  SESSION_COOKIE,
  FAKE_CANDFANS_SESSION_ID,
  createHash('md5').update(FAKE_CANDFANS_SESSION_ID).digest(),
);

export interface FakeCandfansOptions {
  dataset?: CandfansDataset;
  /** Default `record` of timeline pages (XD assumes 20). */
  pageSize?: number;
  followPageSize?: number;
  perMinute?: number;
  xsrf?: 'all' | 'unsafe';
  port?: number;
  imagePort?: number;
  videoPort?: number;
}

export interface FakeCandfans {
  /** candfans.jp (the API is url + /api). */
  url: string;
  imageUrl: string;
  videoUrl: string;
  key: string;
  dataset: CandfansDataset;
  requests: FakeRequestLog[];
  delayMs: number;
  rateLimit(count: number, retryAfterSeconds: number): void;
  fail(count: number, status?: number): void;
  expireKey(): void;
  /** The next `count` authenticated calls answer 419 as for a stale XSRF token (as after the site renewed it). */
  xsrfMismatch(count: number): void;
  editPost(postId: number, change: { title?: string; text?: string }): void;
  close(): Promise<void>;
}

interface Session {
  userId: number | null;
  csrf: string;
  alive: boolean;
}

const json = jsonAs('application/json');
const RELEVANT = ['cookie', 'x-xsrf-token', 'origin', 'referer', 'accept', 'user-agent', 'content-type'];
const STATEFUL = /^https?:\/\/(?:www\.|r18\.)?candfans\.jp(?::\d+)?(?:\/|$)/;

export async function startFakeCandfans(options: FakeCandfansOptions = {}): Promise<FakeCandfans> {
  const dataset = options.dataset ?? demoDataset();
  const pageSize = options.pageSize ?? 20;
  const followPageSize = options.followPageSize ?? 10;
  const perMinute = options.perMinute ?? 300;
  const xsrfMode = options.xsrf ?? 'all';
  const faults = new Faults(500);
  const clock = new Clock();
  const requests: FakeRequestLog[] = [];
  const sessions = new Map<string, Session>([
    [FAKE_CANDFANS_SESSION_ID, { userId: dataset.me.id, csrf: randomBytes(20).toString('hex'), alive: true }],
  ]);
  const recent: number[] = [];
  let mismatches = 0;
  const delay = () => fake.delayMs;

  const imageHost = await startHost({
    port: options.imagePort,
    log: logInto(requests, 'image', ['cookie', 'referer']),
    delay,
    handler: (_req, res, url) => files(res, url, images),
  });
  const videoHost = await startHost({
    port: options.videoPort,
    log: logInto(requests, 'video', ['cookie', 'referer']),
    delay,
    handler: (_req, res, url) => files(res, url, videos),
  });
  const ctx: RenderContext = { image: imageHost.origin, video: videoHost.origin };
  const apiHost = await startHost({
    port: options.port,
    log: logInto(requests, 'api', RELEVANT),
    delay,
    handler: (req, res, url) => handle(req, res, url),
  });

  const creatorById = (id: number) => dataset.creators.find((c) => c.id === id);
  const findPost = (id: number) => findCreatorPost(dataset.creators, (p) => p.id === id);

  const handle = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const path = url.pathname;
    if (!path.startsWith('/api/'))
      return send(res, 404, '<!DOCTYPE html><html><body>404 Not Found</body></html>', 'text/html; charset=UTF-8');
    // Laravel's throttle, before anything else.
    const now = clock.now();
    while (recent.length && recent[0] <= now - 60_000) recent.shift();
    const fault = faults.take();
    if (fault?.kind === 'limit' || recent.length >= perMinute) {
      const retryAfter = fault?.kind === 'limit' ? fault.retryAfter : Math.ceil((recent[0] + 60_000 - now) / 1000);
      return json(
        res,
        429,
        { message: 'Too Many Attempts.' },
        { 'retry-after': String(retryAfter), 'x-ratelimit-limit': String(perMinute), 'x-ratelimit-remaining': '0' },
      );
    }
    recent.push(now);
    const limits = { 'x-ratelimit-limit': String(perMinute), 'x-ratelimit-remaining': String(perMinute - recent.length) };
    if (fault?.kind === 'fail') return json(res, fault.status, { message: 'Server Error' }, limits);

    // The session, only for a stateful (candfans.jp) request.
    const stateful = STATEFUL.test(header(req, 'origin') ?? '') || STATEFUL.test(header(req, 'referer') ?? '');
    const cookies = cookiesOf(req);
    const sessionCookie = cookies.get(SESSION_COOKIE);
    let sessionId = stateful && sessionCookie ? decryptCookie(SESSION_COOKIE, sessionCookie) : null;
    let session = sessionId ? sessions.get(sessionId) : undefined;
    if (session && !session.alive) session = undefined;
    const setCookies = (): Record<string, string[]> => {
      if (!session || !sessionId) return {};
      const attrs = `expires=${new Date(now + 7200_000).toUTCString()}; Max-Age=7200; path=/; samesite=lax`;
      return {
        'set-cookie': [
          `XSRF-TOKEN=${encryptCookie('XSRF-TOKEN', session.csrf)}; ${attrs}`,
          `${SESSION_COOKIE}=${encryptCookie(SESSION_COOKIE, sessionId)}; ${attrs}; httponly`,
        ],
      };
    };

    if (path === '/api/sanctum/csrf-cookie' && req.method === 'GET') {
      if (!session && stateful) {
        sessionId = randomBytes(20).toString('hex');
        session = { userId: null, csrf: randomBytes(20).toString('hex'), alive: true };
        sessions.set(sessionId, session);
      }
      res.writeHead(204, { ...limits, ...setCookies() });
      return res.end();
    }
    const unauthenticated = () => json(res, 401, { message: 'Unauthenticated.' }, limits);
    const isPublic = path === '/api/user/get-users' && req.method === 'GET';
    if (!isPublic && (!session || session.userId === null)) return unauthenticated();
    const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(req.method ?? 'GET');
    if (session && (unsafe || (xsrfMode === 'all' && !isPublic))) {
      const given = header(req, 'x-xsrf-token');
      const stale = mismatches > 0 && path !== '/api/sanctum/csrf-cookie' && mismatches-- > 0;
      if (stale || !given || decryptCookie('XSRF-TOKEN', given) !== session.csrf)
        return json(res, 419, { message: 'CSRF token mismatch.' }, { ...limits, ...setCookies() });
    }
    const answer = route(req.method ?? 'GET', path, url, session?.userId ?? null);
    if (answer === undefined) return json(res, 404, { message: 'Not Found' }, limits);
    const [status, body] = answer;
    json(res, status, body, { ...limits, ...setCookies() });
  };

  const postTypes = (q: URLSearchParams) =>
    [...q.keys()]
      .filter((k) => /^post_type\[\d*\]$/.test(k))
      .flatMap((k) => q.getAll(k))
      .map(Number);

  const route = (method: string, path: string, url: URL, userId: number | null): [number, unknown] | undefined => {
    const q = url.searchParams;
    const me = dataset.me;
    let m = /^\/api\/user\/put-follow\/(\d+)$/.exec(path);
    if (m && method === 'PUT') {
      const creator = creatorById(Number(m[1]));
      if (creator) creator.followed = true;
      return [200, envelope('フォローしました。', [])];
    }
    if (method !== 'GET') return undefined;
    if (path === '/api/user/get-user-mine') {
      return [
        200,
        envelope('ユーザー情報を取得しました。', {
          users: [
            {
              id: me.id,
              user_code: me.code,
              email: me.email,
              username: me.name,
              profile_img: '',
              profile_cover_img: '',
              profile_text: '',
              follower_cnt: 0,
              follow_cnt: dataset.creators.filter((c) => c.followed).length + dataset.otherFollows.length,
              fans_cnt: 0,
              is_ban: 0,
              delete_at: null,
              is_official_creator: 0,
              reg_dt: '2023-10-30T08:11:35.000000Z',
              is_on_air: false,
              live_url: '',
              has_plans: false,
            },
          ],
          plans: [],
        }),
      ];
    }
    if (path === '/api/user/get-entry-plans') {
      const joined = dataset.creators.flatMap((c) =>
        c.plans
          .filter((p) => p.joined)
          .map((p) => ({
            ...renderPlan(c, p),
            user_code: c.code,
            username: c.name,
            profile_img: profilePaths(c).icon,
            entry_date: '2024-01-15 10:00:00',
          })),
      );
      return [200, envelope('加入プランを取得しました。', joined)];
    }
    m = /^\/api\/user\/get-follow\/(\d+)$/.exec(path);
    if (m) {
      const page = Math.max(1, Number(q.get('page') ?? 1));
      const all =
        Number(m[1]) === userId
          ? [...dataset.creators.filter((c) => c.followed).map((c) => ({ id: c.id, code: c.code, name: c.name })), ...dataset.otherFollows]
          : [];
      const data = all.slice((page - 1) * followPageSize, page * followPageSize).map((u) => ({
        user_id: u.id,
        user_code: u.code,
        username: u.name,
        profile_img: `/user/${u.id}/profile/icon-${u.id}.jpg`,
        is_follow: 1,
        is_official_creator: 0,
        is_on_air: false,
        live_url: '',
      }));
      return [200, envelope('フォロー情報を取得しました。', data)];
    }
    if (path === '/api/user/get-users') {
      const creator = dataset.creators.find((c) => c.code === q.get('user_code'));
      if (!creator) return [404, { message: 'ユーザーが見つかりません。' }];
      return [200, userAnswer(creator, userId !== null && creator.followed)];
    }
    const timelineOf = (creator: CandfansCreator) => {
      const types = postTypes(q);
      const month = q.get('month');
      return creator.posts.filter((p) => (types.length === 0 || types.includes(p.postType)) && (!month || p.date.startsWith(month)));
    };
    if (path === '/api/contents/get-timeline') {
      const creator = creatorById(Number(q.get('user_id')));
      const record = Math.max(1, Number(q.get('record') ?? pageSize) || pageSize);
      const page = Math.max(1, Number(q.get('page') ?? 1));
      const old = q.get('sort_order') === 'old';
      const posts = creator ? timelineOf(creator).sort((a, b) => (old ? a.date.localeCompare(b.date) : b.date.localeCompare(a.date))) : [];
      return [200, timelineAnswer(ctx, creator!, posts.slice((page - 1) * record, page * record))];
    }
    if (path === '/api/contents/get-timeline-month') {
      const creator = creatorById(Number(q.get('user_id')));
      const months = [...new Set((creator?.posts ?? []).map((p) => p.date.slice(0, 7)))].sort().reverse();
      return [
        200,
        envelope(
          'タイムライン月を取得しました。',
          months.map((x) => ({ column_name: `${x.slice(0, 4)}年${x.slice(5, 7)}月` })),
        ),
      ];
    }
    m = /^\/api\/contents\/get-timeline\/(\d+)$/.exec(path);
    if (m) {
      const found = findPost(Number(m[1]));
      if (!found) return [404, { message: '投稿が見つかりません。' }];
      return [200, postAnswer(ctx, found.creator, found.post)];
    }
    if (path === '/api/v3/timeline/content-length') {
      const creator = creatorById(Number(q.get('user_id')));
      return [200, { content_length: creator ? timelineOf(creator).length : 0 }];
    }
    return undefined;
  };

  // -------------------------------------------------------------------------------------------
  // image.candfans.jp and video.candfans.jp

  type MediaFile = { type: string; bytes: () => Promise<Buffer> | Buffer };
  const images = new Map<string, MediaFile>();
  const videos = new Map<string, MediaFile>();
  const jpeg = (path: string, w = 64, h = 48): MediaFile => ({
    type: 'image/jpeg',
    bytes: () => image(path, { format: 'jpeg', width: w, height: h, inset: true }),
  });
  const user = (u: { id: number }) => {
    const p = profilePaths(u);
    images.set(p.icon, jpeg(p.icon, 32, 32));
    images.set(p.cover, jpeg(p.cover, 96, 32));
  };
  for (const c of dataset.creators) {
    user(c);
    for (const post of c.posts) {
      const paths = filePaths(c, post);
      if (post.kind !== 'text') images.set(paths.thumbnail, jpeg(paths.thumbnail, 48, 27));
      if (post.kind === 'images') for (const path of paths.files) images.set(path, jpeg(path));
      if (post.kind === 'audio') videos.set(paths.files[0], { type: 'audio/mpeg', bytes: media.mp3 });
      if (post.kind === 'video') {
        const stem = `${postDir(c, post)}/${post.files[0]}`;
        const name = post.files[0];
        videos.set(paths.master!, {
          type: HLS_TYPE,
          bytes: () =>
            Buffer.from(
              hlsMaster([
                { uri: `${name}_high.m3u8`, width: 320, height: 180, bandwidth: 140000 },
                { uri: `${name}_low.m3u8`, width: 160, height: 90, bandwidth: 60000 },
              ]),
            ),
        });
        for (const quality of ['high', 'low']) {
          videos.set(`${stem}_${quality}.m3u8`, {
            type: HLS_TYPE,
            bytes: () => Buffer.from(hlsMedia([0, 1, 2].map((n) => `${name}_${quality}_${String(n).padStart(3, '0')}.ts`))),
          });
          media
            .segments()
            .forEach((bytes, n) =>
              videos.set(`${stem}_${quality}_${String(n).padStart(3, '0')}.ts`, { type: 'video/mp2t', bytes: () => bytes }),
            );
        }
      }
    }
  }
  for (const u of dataset.otherFollows) user(u);

  const files = async (res: http.ServerResponse, url: URL, table: Map<string, MediaFile>) => {
    const file = table.get(url.pathname);
    if (!file) return send(res, 403, awsError('AccessDenied', 'Access Denied'), 'application/xml');
    send(res, 200, await file.bytes(), file.type, { 'cache-control': 'max-age=86400' });
  };

  const fake: FakeCandfans = {
    url: apiHost.origin,
    imageUrl: imageHost.origin,
    videoUrl: videoHost.origin,
    key: FAKE_CANDFANS_KEY,
    dataset,
    requests,
    delayMs: 0,
    rateLimit: faults.rateLimit,
    fail: faults.fail,
    expireKey: () => void (sessions.get(FAKE_CANDFANS_SESSION_ID)!.alive = false),
    xsrfMismatch: (count) => void (mismatches = count),
    editPost(postId, change) {
      const found = findPost(postId);
      if (!found) throw new Error(`no post ${postId}`);
      if (change.title !== undefined) found.post.title = change.title;
      if (change.text !== undefined) found.post.text = change.text;
    },
    async close() {
      await Promise.all([apiHost.close(), imageHost.close(), videoHost.close()]);
    },
  };
  return fake;
}
