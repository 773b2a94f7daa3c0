/**
 * A fake Fantia (fantia.jp) for the importer tests: two real node:http servers on 127.0.0.1, `url` for
 * fantia.jp and `cdnUrl` for its file hosts (c.fantia.jp, public images, and cc.fantia.jp, CloudFront-
 * signed content files, folded onto one server: their paths do not overlap). Facts from
 * /work/research/fantia.md; the choices where it is unsure are marked (uncertain) below.
 *
 * fantia.jp answers:
 *   GET /, /posts/{id}, /fanclubs/{id}, /fanclubs/{id}/posts?page=n (HTML with <meta name="csrf-token">;
 *     the list's div.post > a.link-block[href=/posts/{id}], .post-title, .post-date .mr-5, 更新 marker;
 *     a page past the end is 200 with no posts), /sessions/signin, /recaptcha
 *   GET|HEAD /mypage/users/plans?type=not_free|free&page=n (div.mb-5-children > div > a.user-avatar)
 *   GET /mypage/account/edit (form.edit_user, input#user_rating checked when adult),
 *   POST /mypage/users/update_rating (form: authenticity_token, user[rating]=adult|general)
 *   GET /api/v1/me, /api/v1/me/fanclubs, /api/v1/me/timelines/posts?page&per, /api/v1/fanclubs/{id},
 *     /api/v1/posts/{id}
 *   GET /posts/{id}/download/{content_id}, /posts/{id}/album_image?query= (302 to a signed cc URL, or
 *     to the post's HTML page when the key may not see it)
 * Refusals:
 *   - the key is the `_session_id` cookie. An HTML page fetched without a live session starts a new
 *     anonymous one (Set-Cookie) whose csrf-token belongs to that new session, as Rails does;
 *   - /mypage/* without a live session: 302 to /sessions/signin; /api/v1/me*: 401 with Devise's JSON
 *     error (uncertain: no source captured the status; moro's test mocks a 401);
 *   - /api/v1/posts/{id}: X-CSRF-Token must be a (masked, Rails-style) token issued for the same session,
 *     else 403; then X-Requested-With: XMLHttpRequest, else 422 {"error_text":"システムエラー"} (the
 *     order of these two checks is uncertain); with captcha(true) {"redirect":"/recaptcha"}; a missing
 *     or deleted post 404 (body uncertain);
 *   - cc files: no Key-Pair-Id -> 403 XML MissingKey; a wrong or expired Policy/Signature -> 403 XML
 *     AccessDenied (CloudFront's answers). URL lifetime `urlTtlSeconds` (uncertain: not stated; 1 h).
 * Contents the key's plan does not reach are visible_status "uncatchable" without photos/download_uri;
 * adult posts with the account's adult setting off are "adult_only". Rate limits: Fantia's own style is
 * unknown; the knob answers 429 with Retry-After. No source shows Fantia's page size: 20 by default.
 * Knobs: rateLimit, fail, expireKey, editPost, deletePost, captcha, adult, advanceTime, delayMs.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type http from 'node:http';
import { demoDataset, newestFirst, postOf, type FantiaDataset, type FantiaFanclub, type FantiaPost } from './fantia-data.ts';
import { NOT_FOUND, listDateJst, renderFanclub, renderPost, renderSummary, visibleStatus, type FantiaView } from './fantia-render.ts';
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
import { CLOUDFRONT_ERRORS, NO_SUCH_KEY, Signer, cfDecode, cfEncode } from './kit/signing.ts';

export * from './fantia-data.ts';
export * from './fantia-render.ts';

/** A 32-hex-digit _session_id the fake accepts by default. */
export const FAKE_FANTIA_KEY = 'f4a7e1c0b9d8e7f6a5b4c3d2e1f0a9b8';

export interface FakeFantiaOptions {
  key?: string;
  dataset?: FantiaDataset;
  /** Posts per /fanclubs/{id}/posts page (default 20). */
  pageSize?: number;
  /** Fanclubs per /mypage/users/plans page (default 10). */
  plansPageSize?: number;
  /** Lifetime of the signed cc URLs (default 3600 s). */
  urlTtlSeconds?: number;
  /** The account's adult setting at the start (default true). */
  adult?: boolean;
  port?: number;
  cdnPort?: number;
}

export interface FakeFantia {
  url: string;
  cdnUrl: string;
  key: string;
  dataset: FantiaDataset;
  requests: FakeRequestLog[];
  /** The next n fantia.jp requests answer 429 with this Retry-After. */
  rateLimit(n: number, retryAfterSeconds: number): void;
  /** The next n fantia.jp requests answer this 5xx. */
  fail(n: number, status?: number): void;
  /** The session ends (logged out elsewhere): the key is refused from now on. */
  expireKey(): void;
  /** Changes a post as an edit on Fantia does (converted_at moves on; the list shows 更新). */
  editPost(id: number, change: { title?: string; comment?: string | null }): void;
  deletePost(id: number): void;
  /** The session is flagged: the post API answers {"redirect":"/recaptcha"}, pages redirect there. */
  captcha(on: boolean): void;
  /** The account's adult setting (what POST /mypage/users/update_rating changes). */
  adult: boolean;
  /** Moves the fake's clock on (signed URLs expire). */
  advanceTime(seconds: number): void;
  delayMs: number;
  close(): Promise<void>;
}

const KEY_PAIR_ID = 'APKAFAKEFANTIA0000';
const LOGGED_IN_ONLY = /^\/mypage(\/|$)/;
const LOG_HEADERS = ['cookie', 'x-csrf-token', 'x-requested-with', 'accept', 'referer', 'origin', 'user-agent', 'content-type'];

export async function startFakeFantia(options: FakeFantiaOptions = {}): Promise<FakeFantia> {
  const dataset = options.dataset ?? demoDataset();
  const pageSize = options.pageSize ?? 20;
  const plansPageSize = options.plansPageSize ?? 10;
  const ttl = options.urlTtlSeconds ?? 3600;
  const key = options.key ?? FAKE_FANTIA_KEY;
  const faults = new Faults();
  const signer = new Signer();
  const csrfSecret = randomBytes(32);
  const requests: FakeRequestLog[] = [];
  /** Live sessions: the key's ('user') and the anonymous ones the fake started. */
  const sessions = new Map<string, 'user' | 'anon'>([[key, 'user']]);
  const clock = new Clock();
  const now = clock.now;
  let captcha = false;
  const state = { adult: options.adult ?? true };

  const host = (
    name: string,
    port: number | undefined,
    handler: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<number>,
  ) => startHost({ port, log: logInto(requests, name, LOG_HEADERS), delay: () => fake.delayMs, handler });
  const site = await host('site', options.port, (req, res) => handle(req, res));
  const cdn = await host('cdn', options.cdnPort, (req, res) => serveCdn(req, res));
  const url = site.origin;
  const cdnUrl = cdn.origin;

  // Rails-style CSRF tokens: a one-time pad and the pad XOR the session's token, base64.
  const sessionToken = (sid: string) => createHmac('sha256', csrfSecret).update(sid).digest();
  const csrfToken = (sid: string) => {
    const pad = randomBytes(32);
    const real = sessionToken(sid);
    return Buffer.concat([pad, Buffer.from(real.map((b, i) => b ^ pad[i]))]).toString('base64');
  };
  const csrfValid = (sid: string | undefined, token: string | undefined) => {
    if (!sid || !sessions.has(sid) || !token) return false;
    const raw = Buffer.from(token, 'base64');
    if (raw.length !== 64) return false;
    const real = sessionToken(sid);
    return raw.subarray(32).every((b, i) => (b ^ raw[i]) === real[i]);
  };

  const view = (user: boolean): FantiaView => ({
    site: url,
    c: cdnUrl,
    cc: cdnUrl,
    adult: user && state.adult,
    joinedPlans: new Set(user ? dataset.joinedPlans : []),
    sign(path) {
      const policy = JSON.stringify({
        Statement: [{ Resource: `${cdnUrl}${path}`, Condition: { DateLessThan: { 'AWS:EpochTime': Math.floor(now() / 1000) + ttl } } }],
      });
      const encoded = cfEncode(policy);
      return `Key-Pair-Id=${KEY_PAIR_ID}&Policy=${encoded}&Signature=${signer.sign(encoded)}`;
    },
    albumQuery: (postId, albumId) =>
      `${Buffer.from(`${postId}:${albumId}`).toString('base64url')}.${signer.sign(`album:${postId}:${albumId}`).slice(0, 16)}`,
  });

  /** An HTML page; without a live session it starts an anonymous one, as Rails does. */
  const page = (res: http.ServerResponse, sid: string | undefined, title: string, body: string, status = 200) => {
    const headers: Record<string, string> = {};
    if (!sid || !sessions.has(sid)) {
      sid = randomBytes(16).toString('hex');
      sessions.set(sid, 'anon');
      headers['set-cookie'] = `_session_id=${sid}; path=/; HttpOnly; SameSite=Lax`;
    }
    const user = sessions.get(sid) === 'user';
    const top = user
      ? `<a class="navbar-user" href="/mypage"><img class="img-circle" src="${cdnUrl}/uploads/user/image/${dataset.me.id}/small_me.png" alt=""><span class="user-name">${h(dataset.me.name)}</span></a>`
      : `<a class="btn btn-default" href="/sessions/signin">ログイン</a>`;
    sendHtml(
      res,
      status,
      `<!DOCTYPE html><html lang="ja"><head><meta charset="utf-8"><title>${h(title)} | ファンティア[Fantia]</title><meta name="csrf-param" content="authenticity_token"><meta name="csrf-token" content="${csrfToken(sid)}"></head><body><header class="navbar">${top}</header><main>${body}</main></body></html>`,
      headers,
    );
    return status;
  };

  const fanclubById = (id: number) => dataset.fanclubs.find((f) => f.id === id);
  const livePost = (id: number) => {
    const found = postOf(dataset, id);
    return found && !found.post.deleted ? found : undefined;
  };

  const listPage = (fc: FantiaFanclub, pageNo: number) => {
    const all = newestFirst(fc);
    const posts = all.slice((pageNo - 1) * pageSize, pageNo * pageSize);
    const v = view(false);
    const cards = posts
      .map((p) => {
        const edited = p.convertedAt ? '<small class="text-muted">更新</small>' : '';
        return `<div class="col-xs-6 col-sm-4 col-md-3"><div class="post"><a class="link-block" href="/posts/${p.id}"><div class="post-thumbnail"><img alt="${h(p.title)}" src="${h(renderSummary(v, p).thumb_micro)}"></div><div class="post-inner"><h3 class="post-title">${h(p.title)}</h3><span class="post-date"><span class="mr-5">${listDateJst(p.postedAt)}</span>${edited}</span></div></a></div></div>`;
      })
      .join('');
    const next =
      pageNo * pageSize < all.length
        ? `<li class="page-item"><a class="page-link" rel="next" href="/fanclubs/${fc.id}/posts?page=${pageNo + 1}">›</a></li>`
        : '';
    return `<h1 class="fanclub-name">${h(fc.fanclubName)}</h1><div class="row row-packed row-eq-height">${cards}</div><ul class="pagination">${next}</ul>`;
  };

  const plansPage = (type: string, pageNo: number) => {
    const joined = dataset.fanclubs.flatMap((fc) =>
      fc.plans
        .filter((p) => dataset.joinedPlans.includes(p.id) && (type === 'free' ? p.price === 0 : p.price > 0))
        .map((plan) => ({ fc, plan })),
    );
    return joined
      .slice((pageNo - 1) * plansPageSize, pageNo * plansPageSize)
      .map(
        ({ fc, plan }) =>
          `<div class="mb-5-children"><div class="fanclub-header"><a class="user-avatar" href="/fanclubs/${fc.id}"><img src="${cdnUrl}/uploads/fanclub/icon_image/${fc.id}/thumb_${h(fc.icon ?? 'none.png')}" alt=""></a><a class="fanclub-name" href="/fanclubs/${fc.id}">${h(fc.fanclubName)}</a></div><div class="plan-detail"><strong>${h(plan.name)}</strong> <span class="plan-price">月額${plan.price}円</span></div></div>`,
      )
      .join('');
  };

  const api = (
    path: string,
    q: URLSearchParams,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    sid: string | undefined,
    user: boolean,
  ): number => {
    const meOnly = path === '/api/v1/me' || path.startsWith('/api/v1/me/');
    if (meOnly && !user) return (sendJson(res, 401, { error: 'ログインもしくはアカウント登録してください。' }), 401);
    if (path === '/api/v1/me') {
      return (
        sendJson(res, 200, {
          id: dataset.me.id,
          name: dataset.me.name,
          image: { small: `${cdnUrl}/uploads/user/image/${dataset.me.id}/small_me.png` },
          has_fanclub: false,
        }),
        200
      );
    }
    if (path === '/api/v1/me/fanclubs') return (sendJson(res, 200, { fanclub_ids: dataset.followed }), 200);
    if (path === '/api/v1/me/timelines/posts') {
      const per = Math.max(1, Number(q.get('per')) || 24);
      const pageNo = Math.max(1, Number(q.get('page')) || 1);
      const all = dataset.fanclubs
        .filter((f) => dataset.followed.includes(f.id))
        .flatMap((f) => newestFirst(f))
        .sort((a, b) => b.postedAt - a.postedAt);
      const v = view(true);
      return (
        sendJson(res, 200, {
          posts: all.slice((pageNo - 1) * per, pageNo * per).map((p) => renderSummary(v, p)),
          has_next: pageNo * per < all.length,
        }),
        200
      );
    }
    const fanclub = /^\/api\/v1\/fanclubs\/(\d+)$/.exec(path);
    if (fanclub) {
      const fc = fanclubById(Number(fanclub[1]));
      if (!fc) return (sendJson(res, 404, NOT_FOUND), 404);
      return (sendJson(res, 200, { fanclub: renderFanclub(view(user), fc) }), 200);
    }
    const post = /^\/api\/v1\/posts\/(\d+)$/.exec(path);
    if (post) {
      if (!csrfValid(sid, req.headers['x-csrf-token'] as string | undefined))
        return (sendJson(res, 403, { error_text: 'システムエラー' }), 403);
      if (req.headers['x-requested-with'] !== 'XMLHttpRequest') return (sendJson(res, 422, { error_text: 'システムエラー' }), 422);
      if (captcha && user) return (sendJson(res, 200, { redirect: '/recaptcha' }), 200);
      const found = livePost(Number(post[1]));
      if (!found) return (sendJson(res, 404, NOT_FOUND), 404);
      return (sendJson(res, 200, renderPost(view(user), found.fanclub, found.post)), 200);
    }
    return (sendJson(res, 404, NOT_FOUND), 404);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<number> => {
    const u = new URL(req.url ?? '/', url);
    const path = u.pathname;
    const sid = cookiesOf(req).get('_session_id');
    const user = !!sid && sessions.get(sid) === 'user';
    const refused = faults.take();
    if (refused?.kind === 'limit')
      return (send(res, 429, 'Too Many Requests', 'text/plain', { 'retry-after': String(refused.retryAfter) }), 429);
    if (refused?.kind === 'fail') return (sendHtml(res, refused.status, "<h1>We're sorry, but something went wrong.</h1>"), refused.status);
    if (path.startsWith('/api/')) return api(path, u.searchParams, req, res, sid, user);
    if (LOGGED_IN_ONLY.test(path) && !user) return (railsRedirect(res, `${url}/sessions/signin`), 302);
    if (captcha && user && req.method === 'GET' && path !== '/recaptcha') return (railsRedirect(res, `${url}/recaptcha`), 302);

    if (req.method === 'POST' && path === '/mypage/users/update_rating') {
      const form = new URLSearchParams(await readBody(req));
      if (!csrfValid(sid, form.get('authenticity_token') ?? undefined))
        return (sendHtml(res, 422, '<h1>The change you wanted was rejected.</h1>'), 422);
      state.adult = form.get('user[rating]') === 'adult';
      return (railsRedirect(res, `${url}/mypage/account/edit`), 302);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return page(res, sid, 'Not Found', '<h1>404</h1>', 404);
    if (path === '/') return page(res, sid, 'ファンティア', '<h1>Fantia</h1>');
    if (path === '/sessions/signin')
      return page(
        res,
        sid,
        'ログイン',
        '<form id="new_user" action="/sessions" method="post"><input type="email" name="user[email]"><input type="password" name="user[password]"></form>',
      );
    if (path === '/recaptcha') {
      return page(
        res,
        sid,
        'reCAPTCHA',
        `<form id="recaptcha_verify" action="/recaptcha/verify" method="post"><input type="hidden" name="authenticity_token" value="${sid && sessions.has(sid) ? csrfToken(sid) : ''}"><input type="hidden" name="recaptcha_site_key" value="6LfakeFantiaSiteKey"><input type="submit" name="commit" value="ページを表示する"></form>`,
      );
    }
    if (path === '/mypage/users/plans') {
      const pageNo = Math.max(1, Number(u.searchParams.get('page')) || 1);
      return page(
        res,
        sid,
        '支援中のプラン',
        `<div class="mypage-plans">${plansPage(u.searchParams.get('type') ?? 'not_free', pageNo)}</div>`,
      );
    }
    if (path === '/mypage/account/edit') {
      const token = csrfToken(sid!);
      return page(
        res,
        sid,
        'アカウント設定',
        `<form class="edit_user" id="edit_user_${dataset.me.id}" action="/mypage/users/update_rating" accept-charset="UTF-8" method="post"><input name="utf8" type="hidden" value="✓"><input type="hidden" name="authenticity_token" value="${token}"><input type="hidden" name="user[rating]" value="general"><input type="checkbox" value="adult" name="user[rating]" id="user_rating"${state.adult ? ' checked="checked"' : ''}><input type="submit" name="commit" value="変更を保存"></form>`,
      );
    }
    const fanclubPosts = /^\/fanclubs\/(\d+)(\/posts)?$/.exec(path);
    if (fanclubPosts) {
      const fc = fanclubById(Number(fanclubPosts[1]));
      if (!fc) return page(res, sid, 'Not Found', '<h1>ページが見つかりませんでした</h1>', 404);
      if (!fanclubPosts[2])
        return page(
          res,
          sid,
          fc.fanclubName,
          `<h1 class="fanclub-name">${h(fc.fanclubName)}</h1><a href="/fanclubs/${fc.id}/posts">投稿一覧</a>`,
        );
      return page(res, sid, `${fc.fanclubName}の投稿一覧`, listPage(fc, Math.max(1, Number(u.searchParams.get('page')) || 1)));
    }
    const postPage = /^\/posts\/(\d+)$/.exec(path);
    if (postPage) {
      const found = livePost(Number(postPage[1]));
      if (!found) return page(res, sid, 'Not Found', '<h1>ページが見つかりませんでした</h1>', 404);
      return page(
        res,
        sid,
        found.post.title,
        `<div id="page" data-post-id="${found.post.id}"><h1 class="post-title">${h(found.post.title)}</h1></div>`,
      );
    }
    const download = /^\/posts\/(\d+)\/download\/(\d+)$/.exec(path);
    if (download) {
      const found = livePost(Number(download[1]));
      const content = found?.post.contents.find((c) => c.id === Number(download[2]) && c.category === 'file');
      if (!found || !content) return page(res, sid, 'Not Found', '<h1>ページが見つかりませんでした</h1>', 404);
      if (visibleStatus(view(user), found.fanclub, found.post, content) !== 'visible')
        return (railsRedirect(res, `${url}/posts/${found.post.id}`), 302);
      const file = `/uploads/post_content/file/${content.id}/${encodeURIComponent(content.filename ?? 'file')}`;
      return (railsRedirect(res, `${cdnUrl}${file}?${view(user).sign(file)}`), 302);
    }
    const album = /^\/posts\/(\d+)\/album_image$/.exec(path);
    if (album) {
      const [encoded, sig] = (u.searchParams.get('query') ?? '').split('.');
      const [postId, albumId] = Buffer.from(encoded ?? '', 'base64url')
        .toString()
        .split(':')
        .map(Number);
      const found = livePost(Number(album[1]));
      const ok = found && postId === found.post.id && signer.sign(`album:${postId}:${albumId}`).slice(0, 16) === sig;
      const content = ok
        ? found.post.contents.find((c) =>
            c.ops?.some((op) => typeof op.insert === 'object' && 'fantiaImage' in op.insert && op.insert.fantiaImage.album === albumId),
          )
        : undefined;
      if (!found || !content) return page(res, sid, 'Not Found', '<h1>ページが見つかりませんでした</h1>', 404);
      if (visibleStatus(view(user), found.fanclub, found.post, content) !== 'visible')
        return (railsRedirect(res, `${url}/posts/${found.post.id}`), 302);
      const op = content.ops!.find(
        (o) => typeof o.insert === 'object' && 'fantiaImage' in o.insert && o.insert.fantiaImage.album === albumId,
      )!;
      const file = `/uploads/album_image/file/${albumId}/${(op.insert as { fantiaImage: { file: string } }).fantiaImage.file}`;
      return (railsRedirect(res, `${cdnUrl}${file}?${view(user).sign(file)}`), 302);
    }
    return page(res, sid, 'Not Found', '<h1>ページが見つかりませんでした</h1>', 404);
  };

  const SIGNED = /^\/uploads\/(post_content_photo|post_content|album_image)\/file\//;
  /** The c.fantia.jp paths the fake's answers name (any other is 404, as on S3). */
  const publicPaths = () => {
    const v = { ...view(true), c: '' };
    const text = JSON.stringify(dataset.fanclubs.map((fc) => [renderFanclub(v, fc), fc.posts.map((p) => renderSummary(v, p))]));
    return new Set([
      ...(text.match(/"\/uploads\/[^"]+"/g) ?? []).map((m) => m.slice(1, -1)),
      `/uploads/user/image/${dataset.me.id}/small_me.png`,
    ]);
  };
  const serveCdn = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<number> => {
    const u = new URL(req.url ?? '/', cdnUrl);
    if (SIGNED.test(u.pathname)) {
      const q = u.searchParams;
      if (!q.get('Key-Pair-Id')) return (send(res, 403, CLOUDFRONT_ERRORS.missing, 'text/xml'), 403);
      const policy = q.get('Policy') ?? '';
      let good = q.get('Key-Pair-Id') === KEY_PAIR_ID && signer.check(policy, q.get('Signature'));
      if (good) {
        const statement = (
          JSON.parse(cfDecode(policy).toString()) as {
            Statement: { Resource: string; Condition: { DateLessThan: { 'AWS:EpochTime': number } } }[];
          }
        ).Statement[0];
        good = statement.Resource === `${cdnUrl}${u.pathname}` && statement.Condition.DateLessThan['AWS:EpochTime'] * 1000 > now();
      }
      if (!good) return (send(res, 403, CLOUDFRONT_ERRORS.bad, 'text/xml'), 403);
    } else if (!publicPaths().has(u.pathname)) {
      return (send(res, 404, NO_SUCH_KEY, 'text/xml'), 404);
    }
    const { bytes, type } = await bytesFor(decodeURIComponent(u.pathname.split('/').pop() ?? ''));
    return (send(res, 200, bytes, type, { 'cache-control': 'max-age=31536000' }), 200);
  };

  const findPost = (id: number): FantiaPost => {
    const found = postOf(dataset, id);
    if (!found) throw new Error(`no post ${id}`);
    return found.post;
  };
  const fake: FakeFantia = {
    url,
    cdnUrl,
    key,
    dataset,
    requests,
    rateLimit: faults.rateLimit,
    fail: faults.fail,
    expireKey: () => void sessions.delete(key),
    editPost(id, change) {
      const post = findPost(id);
      if (change.title !== undefined) post.title = change.title;
      if (change.comment !== undefined) post.comment = change.comment;
      post.convertedAt = now();
    },
    deletePost: (id) => void (findPost(id).deleted = true),
    captcha: (on) => void (captcha = on),
    get adult() {
      return state.adult;
    },
    set adult(on: boolean) {
      state.adult = on;
    },
    advanceTime: clock.advance,
    delayMs: 0,
    close: async () => void (await Promise.all([site.close(), cdn.close()])),
  };
  return fake;
}
