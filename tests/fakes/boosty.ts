/**
 * A fake Boosty for the importer tests: two real node:http servers on 127.0.0.1.
 *
 * The API server stands for https://api.boosty.to (facts: /work/research/boosty.md):
 *   GET  /v1/user/current                       who the token is (401 without a token)
 *   GET  /v1/user/subscriptions?limit=&offset=&with_follow=   numeric offset paging: {data, total, limit, offset}
 *   GET  /v1/blog/{blogUrl}                     the blog (404 unknown, 400 invalid_param for a malformed name)
 *   GET  /v1/blog/{blogUrl}/post/?limit=&offset=&only_allowed=&is_only_allowed=&from_ts=&to_ts=&comments_limit=&reply_limit=
 *        newest first (pinned first), {data, extra: {offset, isLast}}; `offset` is opaque, passed back as is
 *   GET  /v1/blog/{blogUrl}/post/{uuid}         one post (404 deleted / not in that blog)
 *   GET  /v1/blog/{blogUrl}/post/{uuid}/comment/?limit=&offset=&reply_limit=   offset = last comment's intId
 *   POST /oauth/token/                          form device_id, device_os, grant_type=refresh_token, refresh_token
 *        -> {access_token, refresh_token, expires_in}; the refresh token rotates (the old one is refused)
 * Auth: `Authorization: Bearer {accessToken}` (Trove's key is the browser's `auth` cookie: URL-encoded JSON
 * {accessToken, refreshToken, expiresAt ms}). A wrong or expired token answers 401 everywhere; no token at
 * all reads public data (paid posts come back hasAccess false, data [], signedQuery "") but /v1/user/* is 401.
 * No CSRF, signing or required header exists on Boosty's API (no client sends one), so none is checked.
 *
 * The CDN server folds images.boosty.to (/image/{id}, /smile/{id}/{size}, /user/{id}/avatar,
 * /blog/{id}/cover: public, as measured by boosty-downloader), cdn.boosty.to (/file/{id}, /audio/{id}: 403
 * bare, 200 with the post's signedQuery appended, 401 once expire_time has passed) and the OK.ru video
 * CDN (/okvideo/?expires=&id=&type=&sig=: the signed playerUrls, an MP4 or an HLS playlist, 403 when
 * stale or altered). Bytes are real: PNG images, a zip, a silent MP3, the seed H.264 clip, a WebP poster.
 *
 * Choices where the sources are silent (see the notes' open questions): error bodies are
 * {"error": code, "error_description": text}; 429 carries Retry-After; a failed refresh is RFC 6749's 400
 * {"error":"invalid_grant"}; a refresh needs a device_id but any value is taken unless `deviceId` is set
 * (then it must match); refreshed access tokens live `accessTokenTtlSeconds` (3600, a guess) and the
 * replaced access token stays valid until its own expiry; `extra.offset` is "{sortOrder}:{int_id}";
 * pinned posts get a sortOrder above any publish time; a missing `limit` means 10; audio lives under
 * cdn.boosty.to/audio/{id}; the HLS playlist lists the clip's three MPEG-TS segments, signed like the MP4.
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import {
  FAKE_BOOSTY_AUTH,
  demoDataset,
  mediaId,
  videoVid,
  type BoostyAuth,
  type BoostyBlog,
  type BoostyComment,
  type BoostyContent,
  type BoostyDataset,
  type BoostyHosts,
  type BoostyPost,
} from './boosty-data.ts';
import { FILE_SIZE_GUESS, blogObject, commentObject, postObject, sortOrder, subscriptionObject } from './boosty-render.ts';
import { HLS_TYPE, hlsPlaylist } from './kit/hls.ts';
import { image, media as clips, silentMp3 } from './kit/media.ts';
import { Clock, Faults, logInto, readBody, send, sendBytes, sendJson, startHost, type FakeRequestLog } from './kit/server.ts';
import { hmacHex, sameText } from './kit/signing.ts';
import { zipOf } from './kit/zip.ts';

export * from './boosty-data.ts';
export * from './boosty-render.ts';

export interface FakeBoostyOptions {
  /** The session the user's `auth` cookie holds (default FAKE_BOOSTY_AUTH). */
  auth?: BoostyAuth;
  dataset?: BoostyDataset;
  /** Most posts one list page holds, whatever `limit` asks (small values exercise paging). */
  pageSize?: number;
  /** Most subscriptions one page holds. */
  subscriptionPageSize?: number;
  accessTokenTtlSeconds?: number;
  /** Lifetime of signedQuery and playerUrls (boosty-downloader measured 24 hours). */
  signTtlSeconds?: number;
  /** When set, a refresh must send this device_id (the browser's `_clientId`). */
  deviceId?: string;
  port?: number;
  cdnPort?: number;
}

export interface FakeBoosty {
  /** api.boosty.to */
  url: string;
  /** images.boosty.to, cdn.boosty.to and the video CDN. */
  cdnUrl: string;
  dataset: BoostyDataset;
  requests: FakeRequestLog[];
  rateLimit(n: number, retryAfterSeconds: number): void;
  fail(n: number, status?: number): void;
  /** The session ends (logout): every access token and refresh token is refused from now on. */
  expireKey(): void;
  /** Every access token issued so far expires now; the refresh token still works. */
  expireAccessToken(): void;
  /** Moves the fake's clock (token expiry, signed URLs). */
  advanceTime(seconds: number): void;
  /** A changed post (new title/body/tags, updatedAt now), as an edit on Boosty does. */
  editPost(postId: string, changes: Partial<Pick<BoostyPost, 'title' | 'data' | 'tags'>>): void;
  /** The author deletes a post: gone from lists, 404 on its own. */
  deletePost(postId: string): void;
  delayMs: number;
  close(): Promise<void>;
}

interface Media {
  postIntId: number | null;
  type: string;
  bytes: () => Promise<Buffer>;
}

const ERROR_5XX = (status: number) =>
  `<html><head><title>${status}</title></head><body><center><h1>${status}</h1></center><hr><center>nginx</center></body></html>`;

export async function startFakeBoosty(options: FakeBoostyOptions = {}): Promise<FakeBoosty> {
  const dataset = options.dataset ?? demoDataset();
  const auth = options.auth ?? FAKE_BOOSTY_AUTH;
  const pageCap = options.pageSize ?? 100;
  const subscriptionCap = options.subscriptionPageSize ?? 30;
  const tokenTtl = options.accessTokenTtlSeconds ?? 3600;
  const signTtl = options.signTtlSeconds ?? 86400;
  const secret = randomBytes(16).toString('hex');
  const faults = new Faults();
  const clock = new Clock();
  const now = clock.now;
  const requests: FakeRequestLog[] = [];
  const accessTokens = new Map<string, number>([[auth.accessToken, auth.expiresAt]]);
  const refreshTokens = new Set([auth.refreshToken]);
  const media = new Map<string, Media>();
  const sizes = new Map<string, number>();
  let cdn = '';

  const signQuery = (userId: number, post: BoostyPost) => {
    const expire = Math.floor(now() / 1000) + signTtl;
    return `?user_id=${userId}&content_id=${post.intId}&expire_time=${expire}&sign=${hmacHex(secret, userId, post.intId, expire)}`;
  };
  const hosts: BoostyHosts = {
    image: (id) => `${cdn}/image/${id}?change_time=${Math.floor(now() / 1000)}`,
    file: (id) => `${cdn}/file/${id}`,
    audio: (id) => `${cdn}/audio/${id}`,
    smile: (id, size) => `${cdn}/smile/${id}/${size}`,
    avatar: (ownerId) => `${cdn}/user/${ownerId}/avatar?change_time=1580888689`,
    cover: (ownerId) => `${cdn}/blog/${ownerId}/cover`,
    video: (vid, type) => {
      const expires = now() + signTtl * 1000;
      return `${cdn}/okvideo/${type === 'hls' ? 'video.m3u8' : ''}?expires=${expires}&srcIp=127.0.0.1&id=${vid}&type=${type}&sig=${hmacHex(secret, vid, type, expires)}`;
    },
  };

  /** Keeps one copy of each file's bytes (so a file has one hash) and learns its size. */
  const remember = (id: string, entry: Media) => {
    const bytes = entry.bytes().then((b) => (sizes.set(id, b.length), b));
    media.set(id, { ...entry, bytes: () => bytes });
  };
  const registerPost = (post: BoostyPost) => {
    post.data.forEach((item, index) => register(post, item, index, post.intId));
    (post.teaser ?? []).forEach((item, index) => register(post, item, index + post.data.length, null));
  };
  const register = (post: BoostyPost, item: BoostyContent, index: number, owner: number | null) => {
    const id = mediaId(post, index);
    if (item.kind === 'image')
      remember(id, {
        postIntId: null,
        type: 'image/png',
        bytes: () => image(`${id}:${item.name}`, { width: item.width, height: item.height }),
      });
    if (item.kind === 'smile') remember(id, { postIntId: null, type: 'image/png', bytes: () => image(`smile:${item.name}`) });
    if (item.kind === 'audio')
      remember(id, { postIntId: owner, type: 'audio/mpeg', bytes: async () => silentMp3({ seconds: item.seconds ?? 2 }) });
    if (item.kind === 'file') {
      const zip = item.name.endsWith('.zip');
      remember(id, {
        postIntId: owner,
        type: zip ? 'application/zip' : 'image/png',
        bytes: zip
          ? () =>
              zipOf([
                { name: 'readme.txt', data: `${item.name}\n` },
                { name: 'Слои/слой-1.txt', data: 'layer 1\n' },
              ])
          : () => image(`${id}:${item.name}`),
      });
    }
    if (item.kind === 'okvideo') {
      remember(`${id}-preview`, { postIntId: null, type: 'image/webp', bytes: async () => clips.poster() });
      remember(`video:${videoVid(post, index)}`, { postIntId: owner, type: 'video/mp4', bytes: async () => clips.mp4() });
    }
  };
  for (const blog of dataset.blogs) {
    remember(`avatar:${blog.ownerId}`, {
      postIntId: null,
      type: 'image/jpeg',
      bytes: () => image(`avatar:${blog.ownerId}`, { format: 'jpeg', width: 64, height: 64 }),
    });
    remember(`cover:${blog.ownerId}`, {
      postIntId: null,
      type: 'image/jpeg',
      bytes: () => image(`cover:${blog.ownerId}`, { format: 'jpeg', width: 96, height: 32 }),
    });
    for (const post of blog.posts) registerPost(post);
  }
  await Promise.all([...media.values()].map((m) => m.bytes()));

  const error = (res: http.ServerResponse, status: number, code: string, description: string) =>
    sendJson(res, status, { error: code, error_description: description });
  const blogOf = (name: string) => dataset.blogs.find((b) => b.blogUrl === name);
  const visiblePosts = (blog: BoostyBlog) =>
    blog.posts.filter((p) => !p.deleted).sort((a, b) => sortOrder(b) - sortOrder(a) || b.intId - a.intId);
  const hasAccess = (blog: BoostyBlog, post: BoostyPost, userId: number | null) =>
    post.price === 0 || (userId !== null && blog.subscription !== null && blog.subscription.price >= post.price);
  const render = (blog: BoostyBlog, post: BoostyPost, userId: number | null, q: URLSearchParams) =>
    postObject(
      blog,
      post,
      {
        hasAccess: hasAccess(blog, post, userId),
        signedQuery: userId === null ? '' : signQuery(userId, post),
        commentsLimit: Number(q.get('comments_limit') ?? 0) || 0,
        replyLimit: Number(q.get('reply_limit') ?? 0) || 0,
      },
      hosts,
      (id) => sizes.get(id) ?? FILE_SIZE_GUESS,
    );

  /** The user a request is for: null without a token, 'refused' for a wrong or expired one. */
  const whoIs = (req: http.IncomingMessage): number | null | 'refused' => {
    const header = req.headers.authorization;
    if (header === undefined) return null;
    const token = /^Bearer (\S+)$/.exec(header)?.[1];
    const expires = token ? accessTokens.get(token) : undefined;
    return expires !== undefined && expires > now() ? dataset.user.id : 'refused';
  };

  const refresh = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.method !== 'POST') return error(res, 405, 'method_not_allowed', 'Method Not Allowed');
    const body = await readBody(req);
    const form = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
      ? new URLSearchParams(body)
      : new URLSearchParams();
    const grant = form.get('grant_type');
    if (!grant || !form.get('refresh_token') || !form.get('device_id'))
      return error(res, 400, 'invalid_request', 'grant_type, refresh_token and device_id are required');
    if (grant !== 'refresh_token') return error(res, 400, 'unsupported_grant_type', 'Unsupported grant type');
    const old = form.get('refresh_token')!;
    if (!refreshTokens.has(old) || (options.deviceId !== undefined && form.get('device_id') !== options.deviceId))
      return error(res, 400, 'invalid_grant', 'Invalid refresh token');
    refreshTokens.delete(old);
    const access = randomBytes(32).toString('hex');
    const next = randomBytes(32).toString('hex');
    accessTokens.set(access, now() + tokenTtl * 1000);
    refreshTokens.add(next);
    sendJson(res, 200, { access_token: access, refresh_token: next, expires_in: tokenTtl });
  };

  const api = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const fault = faults.take();
    if (fault?.kind === 'limit')
      return sendJson(
        res,
        429,
        { error: 'too_many_requests', error_description: 'Too Many Requests' },
        { 'retry-after': String(fault.retryAfter) },
      );
    if (fault) return send(res, fault.status, ERROR_5XX(fault.status), 'text/html');
    const path = url.pathname;
    const q = url.searchParams;
    if (path === '/oauth/token/') return refresh(req, res);
    const user = whoIs(req);
    if (user === 'refused') return error(res, 401, 'unauthorized', 'Unauthorized');
    if (req.method !== 'GET') return error(res, 405, 'method_not_allowed', 'Method Not Allowed');
    if (path === '/v1/user/current' || path === '/v1/user/subscriptions') {
      if (user === null) return error(res, 401, 'unauthorized', 'Unauthorized');
      if (path === '/v1/user/current')
        return sendJson(res, 200, {
          id: user,
          name: dataset.user.name,
          hasAvatar: false,
          avatarUrl: '',
          email: 'fan@example.com',
          isVerifiedEmail: true,
        });
      const follows = q.get('with_follow') === 'true';
      const subs = dataset.blogs.filter((b) => b.subscription && (follows || b.subscription.price > 0));
      const limit = Math.min(Number(q.get('limit')) || 30, subscriptionCap);
      const offset = Number(q.get('offset')) || 0;
      return sendJson(res, 200, {
        data: subs.slice(offset, offset + limit).map((b) => subscriptionObject(b, hosts)),
        total: subs.length,
        limit,
        offset,
      });
    }
    const m = /^\/v1\/blog\/([^/]+)(?:\/post\/(?:([^/]+)(\/comment\/)?)?)?$/.exec(path);
    if (!m) return error(res, 404, 'not_found', 'Not Found');
    const name = decodeURIComponent(m[1]);
    if (!/^[A-Za-z0-9_.-]+$/.test(name)) return error(res, 400, 'invalid_param', 'Invalid param: blog_url');
    const blog = blogOf(name);
    if (!blog) return error(res, 404, 'blog_not_found', 'Blog not found');
    if (!path.includes('/post/')) return sendJson(res, 200, blogObject(blog, hosts));
    if (m[2] === undefined) {
      let posts = visiblePosts(blog);
      if (q.get('only_allowed') === 'true' || q.get('is_only_allowed') === 'true') posts = posts.filter((p) => hasAccess(blog, p, user));
      if (q.get('from_ts')) posts = posts.filter((p) => p.publishTime >= Number(q.get('from_ts')));
      if (q.get('to_ts')) posts = posts.filter((p) => p.publishTime <= Number(q.get('to_ts')));
      const offset = q.get('offset') ?? '';
      if (offset) {
        const c = /^(\d+):(\d+)$/.exec(offset);
        if (!c) return error(res, 400, 'invalid_param', 'Invalid param: offset');
        const [so, id] = [Number(c[1]), Number(c[2])];
        posts = posts.filter((p) => sortOrder(p) < so || (sortOrder(p) === so && p.intId < id));
      }
      const limit = Math.max(1, Math.min(Number(q.get('limit')) || 10, pageCap));
      const page = posts.slice(0, limit);
      const isLast = posts.length <= limit;
      const last = page[page.length - 1];
      return sendJson(res, 200, {
        data: page.map((p) => render(blog, p, user, q)),
        extra: { offset: isLast || !last ? '' : `${sortOrder(last)}:${last.intId}`, isLast },
      });
    }
    const post = blog.posts.find((p) => p.id === m[2] && !p.deleted);
    if (!post) return error(res, 404, 'post_not_found', 'Post not found');
    if (!m[3]) return sendJson(res, 200, render(blog, post, user, q));
    const all = post.comments ?? [];
    const after = Number(q.get('offset')) || 0;
    const rest = after ? all.filter((c) => c.intId > after) : all;
    const limit = Math.max(1, Number(q.get('limit')) || 20);
    const page: BoostyComment[] = rest.slice(0, limit);
    return sendJson(res, 200, {
      data: page.map((c) => commentObject(c, hosts, Number(q.get('reply_limit') ?? 2) || 0)),
      extra: { isFirst: !after, isLast: rest.length <= limit },
    });
  };

  const cdnHandler = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const q = url.searchParams;
    const path = url.pathname;
    const serve = async (entry: Media | undefined) =>
      entry ? sendBytes(req, res, await entry.bytes(), entry.type) : send(res, 404, ERROR_5XX(404), 'text/html');
    let m = /^\/(image|smile)\/([^/]+)(?:\/(?:small|medium|large))?$/.exec(path);
    if (m) return serve(media.get(m[2]));
    m = /^\/(user|blog)\/(\d+)\/(avatar|cover)$/.exec(path);
    if (m) return serve(media.get(`${m[3]}:${m[2]}`));
    m = /^\/(file|audio)\/([^/]+)$/.exec(path);
    if (m) {
      const entry = media.get(m[2]);
      if (!entry) return send(res, 404, ERROR_5XX(404), 'text/html');
      const [userId, contentId, expire, sign] = ['user_id', 'content_id', 'expire_time', 'sign'].map((k) => q.get(k) ?? '');
      if (!sign || !sameText(sign, hmacHex(secret, userId, contentId, expire)) || Number(contentId) !== entry.postIntId)
        return send(res, 403, ERROR_5XX(403), 'text/html');
      if (Number(expire) * 1000 < now()) return send(res, 401, ERROR_5XX(401), 'text/html');
      return serve(entry);
    }
    if (path === '/okvideo/' || path === '/okvideo/video.m3u8') {
      const [expires, id, type, sig] = ['expires', 'id', 'type', 'sig'].map((k) => q.get(k) ?? '');
      if (!sig || !sameText(sig, hmacHex(secret, id, type, expires)) || Number(expires) < now())
        return send(res, 403, 'Forbidden', 'text/plain');
      if (type === 'hls') {
        // The clip's three MPEG-TS segments, each URL signed like the playlist.
        const segments = clips.segmentSeconds.map((seconds, i) => ({ uri: hosts.video(id, `seg${i}`), seconds }));
        return send(res, 200, hlsPlaylist(segments, 1), HLS_TYPE);
      }
      const segment = /^seg(\d)$/.exec(type);
      if (segment) {
        const bytes = clips.segments()[Number(segment[1])];
        return bytes ? sendBytes(req, res, bytes, 'video/mp2t') : send(res, 404, 'Not Found', 'text/plain');
      }
      return serve(media.get(`video:${id}`));
    }
    return send(res, 404, ERROR_5XX(404), 'text/html');
  };

  const fake = {
    delayMs: 0,
  } as FakeBoosty;
  const apiServer = await startHost({
    port: options.port,
    log: logInto(requests, 'api', ['authorization', 'origin', 'content-type']),
    delay: () => fake.delayMs,
    handler: api,
  });
  const cdnServer = await startHost({
    port: options.cdnPort,
    log: logInto(requests, 'cdn', ['authorization', 'range', 'referer']),
    delay: () => fake.delayMs,
    handler: cdnHandler,
  });
  cdn = cdnServer.origin;

  const findPost = (postId: string) => dataset.blogs.flatMap((b) => b.posts).find((p) => p.id === postId);
  return Object.assign(fake, {
    url: apiServer.origin,
    cdnUrl: cdn,
    dataset,
    requests,
    rateLimit: faults.rateLimit,
    fail: faults.fail,
    expireKey() {
      accessTokens.clear();
      refreshTokens.clear();
    },
    expireAccessToken() {
      for (const token of accessTokens.keys()) accessTokens.set(token, now() - 1000);
    },
    advanceTime: clock.advance,
    editPost(postId: string, changes: Partial<Pick<BoostyPost, 'title' | 'data' | 'tags'>>) {
      const post = findPost(postId);
      if (!post) throw new Error(`no post ${postId}`);
      Object.assign(post, changes, { updatedAt: Math.floor(now() / 1000) });
      registerPost(post);
    },
    deletePost(postId: string) {
      const post = findPost(postId);
      if (!post) throw new Error(`no post ${postId}`);
      post.deleted = true;
    },
    async close() {
      await Promise.all([apiServer.close(), cdnServer.close()]);
    },
  });
}
