/**
 * A fake Afdian (爱发电) for the importer tests: two real node:http servers on 127.0.0.1.
 *
 * The API server stands for the web API of https://afdian.com (the same paths answer on ifdian.net and
 * afdian.net; facts: /work/research/afdian.md). Every answer is JSON {ec, em, data}; ec 200 is success.
 *   GET /api/my/profile                               the key's user (needs the key)
 *   GET /api/my/sponsoring?need_sponsor_info=1        {sponsoring: [...], sponsoring_expired: [...]} (needs the key)
 *   GET /api/user/get-profile-by-slug?url_slug=       creator profile (public; is_sponsoring with a key)
 *   GET /api/user/get-profile?user_id=
 *   GET /api/post/get-list?user_id=&type=old&publish_sn=&per_page=10&group_id=&all=1&is_public=&plan_id=&title=&name=
 *       newest first; the next page passes the last item's publish_sn; data.has_more 1/0; a pinned post
 *       (user_top 1) heads the first page and also keeps its own place further down
 *   GET /api/post/get-detail?post_id=&album_id=       data.post with the full HTML, signed media, attachment;
 *       a post of an album the key bought opens (has_right 1) when read inside it (album_id given)
 *   GET /api/user/get-album-list?user_id=&page=&per_page=   {list: [{album_id, title, bought...}], has_more}
 *   GET /api/user/get-album-catalog?album_id=         every post of the album at once, metadata only
 *   GET /api/comment/get-list?post_id=&publish_sn=&type=old&hot=1   {list, hot_list, has_more}
 * Auth: the `auth_token` cookie only (no CSRF, no signing, no required header: none of the clients sends
 * one). /api/my/* without a valid key is refused; the public endpoints treat a wrong key as no key at all
 * (posts above the plan, or any paid post, come back has_right 0 with has_right_errMsg, "" media, preview).
 *
 * The CDN server folds pic1.afdiancdn.com (/user/{uid}/{avatar|cover|common}/{md5}_w{W}_h{H}_s{KB}.jpeg:
 * real JPEGs, `?imageView2/1/w/W/h/H` thumbnails made with sharp, 403 for a foreign Referer) and
 * vod.afdiancdn.com (audio MP3, video MP4, attachments as real zips with Content-Disposition; links
 * signed the way Tencent Cloud VOD's key anti-leech signs: t = expiry in hex, us = nonce,
 * sign = md5(key + directory + t + us); 403 when missing, altered or expired).
 *
 * Choices where the sources are silent (open questions of the notes): a bad key on /api/my/* is refused
 * with HTTP 401 and {ec: 401, em: "请先登录"} by default (KT), or with the same body under HTTP 200 when
 * `refusal: 'ec'`; unknown ids answer {ec: 404, em: ...} under HTTP 200; `type=new` pages like `type=old`;
 * lists give article bodies only as a plain-text excerpt (the detail has the HTML); `attachment` is a list
 * of {name, url, size}; 429 with Retry-After for the rate-limit knob (no client has seen one); the
 * signing scheme (Tencent's) is inferred from the t/us/sign parameters; deleted posts are simply gone.
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import sharp from 'sharp';
import {
  FAKE_AFDIAN_KEY,
  LOGIN,
  albumObject,
  catalogObject,
  commentObject,
  demoDataset,
  notFound,
  ok,
  picPath,
  planIds,
  postObject,
  profileObject,
  publishSn,
  sponsoringItem,
  vodPath,
  type AfdianCreator,
  type AfdianDataset,
  type AfdianHosts,
  type AfdianPic,
  type AfdianPost,
} from './afdian-data.ts';
import { findCreatorPost } from './kit/data.ts';
import { image, media, silentMp3 } from './kit/media.ts';
import { Clock, Faults, cookiesOf, logInto, redirect, send, sendBytes, sendJson, startHost, type FakeRequestLog } from './kit/server.ts';
import { md5Hex, sameText } from './kit/signing.ts';
import { zipOf } from './kit/zip.ts';

export * from './afdian-data.ts';

export interface FakeAfdianOptions {
  /** The accepted auth_token (default FAKE_AFDIAN_KEY). */
  key?: string;
  dataset?: AfdianDataset;
  /** Posts per page whatever per_page asks (small values exercise paging); default: per_page, else 10. */
  pageSize?: number;
  commentPageSize?: number;
  /** How /api/my/* refuses a missing or bad key: HTTP 401 (default) or HTTP 200, both with ec 401. */
  refusal?: 'http401' | 'ec';
  /**
   * Attachment links point at the site (/api/file/download on the API host, which needs the key) and
   * redirect to the signed vod link: QW follows such redirects; whether Afdian does this is not known.
   */
  attachmentRedirect?: boolean;
  /** Lifetime of the signed vod links (seconds). */
  signTtlSeconds?: number;
  port?: number;
  cdnPort?: number;
}

export interface FakeAfdian {
  /** https://afdian.com */
  url: string;
  /** pic1.afdiancdn.com and vod.afdiancdn.com */
  cdnUrl: string;
  dataset: AfdianDataset;
  requests: FakeRequestLog[];
  rateLimit(n: number, retryAfterSeconds: number): void;
  fail(n: number, status?: number): void;
  /** The auth_token stops working (logged out). */
  expireKey(): void;
  /** A changed post (title/content/pics), as an edit does; Afdian shows no edit time, so only the body changes. */
  editPost(postId: string, changes: Partial<Pick<AfdianPost, 'title' | 'content' | 'pics'>>): void;
  deletePost(postId: string): void;
  advanceTime(seconds: number): void;
  delayMs: number;
  close(): Promise<void>;
}

const AFDIAN_REFERER = /^https?:\/\/(?:[^/]*\.)?(?:afdian\.com|afdian\.net|ifdian\.net)(?:[:/]|$)/;

export async function startFakeAfdian(options: FakeAfdianOptions = {}): Promise<FakeAfdian> {
  const dataset = options.dataset ?? demoDataset();
  let key: string | null = options.key ?? FAKE_AFDIAN_KEY;
  const signKey = randomBytes(12).toString('hex');
  const signTtl = options.signTtlSeconds ?? 3600;
  const faults = new Faults();
  const clock = new Clock();
  const requests: FakeRequestLog[] = [];
  const nowS = () => Math.floor(clock.now() / 1000);
  const pics = new Map<string, AfdianPic>();
  const files = new Map<string, { type: string; name?: string; bytes: Buffer }>();
  let cdn = '';
  let apiOrigin = '';

  const hosts: AfdianHosts = {
    pic(uid, folder, pic) {
      const path = picPath(uid, folder, pic);
      pics.set(path, pic);
      return cdn + path;
    },
    vod(path) {
      const t = (nowS() + signTtl).toString(16);
      const us = randomBytes(4).toString('hex');
      const dir = path.slice(0, path.lastIndexOf('/') + 1);
      return `${cdn}${path}?t=${t}&us=${us}&sign=${md5Hex(signKey + dir + t + us)}`;
    },
    size: (path) => files.get(path)?.bytes.length ?? 0,
  };

  const registerPost = async (post: AfdianPost) => {
    if (post.audio)
      files.set(vodPath(post, 'audio', post.audio.name), { type: 'audio/mpeg', bytes: silentMp3({ seconds: post.audio.seconds }) });
    if (post.video) files.set(vodPath(post, 'video', post.video.name), { type: 'video/mp4', bytes: media.mp4() });
    for (const a of post.attachments ?? []) {
      const bytes = await zipOf([
        { name: 'README.txt', data: `${a.name}\n` },
        { name: '设定/角色A.txt', data: '角色 A\n' },
      ]);
      files.set(vodPath(post, 'file', a.name), { type: 'application/zip', name: a.name, bytes });
    }
  };
  for (const c of dataset.creators) for (const p of c.posts) await registerPost(p);

  const loggedIn = (req: http.IncomingMessage) => {
    const token = cookiesOf(req).get('auth_token');
    return key !== null && token !== undefined && sameText(token, key);
  };
  const creatorBy = (field: 'userId' | 'slug', value: string | null) => dataset.creators.find((c) => c[field] === value);
  const sponsoredPrice = (c: AfdianCreator) =>
    c.sponsorship && !c.sponsorship.expired ? (c.plans.find((p) => p.planId === c.sponsorship!.planId)?.price ?? 0) : 0;
  const hasRight = (c: AfdianCreator, post: AfdianPost, user: boolean, albumId = '') =>
    post.minPrice === 0 ||
    (user && sponsoredPrice(c) >= post.minPrice) ||
    (user && !!c.albums?.some((a) => a.bought && a.albumId === albumId && a.postIds.includes(post.postId)));
  const live = (c: AfdianCreator) => c.posts.filter((p) => !p.deleted).sort((a, b) => publishSn(b) - publishSn(a));
  const findPost = (postId: string | null) => findCreatorPost(dataset.creators, (p) => p.postId === postId);

  const api = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const q = url.searchParams;
    const user = loggedIn(req);
    switch (url.pathname) {
      case '/api/my/profile':
      case '/api/my/sponsoring': {
        if (!user) return sendJson(res, options.refusal === 'ec' ? 200 : 401, LOGIN);
        if (url.pathname === '/api/my/profile') {
          const me = dataset.me;
          return sendJson(
            res,
            200,
            ok({
              user: {
                user_id: me.userId,
                name: me.name,
                avatar: hosts.pic(me.userId, 'avatar', { name: 'me', width: 64, height: 64 }),
                cover: '',
                url_slug: me.slug,
                is_verified: 0,
                creator: {},
              },
              ip_info: { country: '中国' },
            }),
          );
        }
        const sponsored = dataset.creators.filter((c) => c.sponsorship);
        return sendJson(
          res,
          200,
          ok({
            sponsoring: sponsored.filter((c) => !c.sponsorship!.expired).map((c) => sponsoringItem(c, hosts)),
            sponsoring_expired: sponsored.filter((c) => c.sponsorship!.expired).map((c) => sponsoringItem(c, hosts)),
          }),
        );
      }
      case '/api/user/get-profile-by-slug':
      case '/api/user/get-profile': {
        const c = url.pathname.endsWith('slug') ? creatorBy('slug', q.get('url_slug')) : creatorBy('userId', q.get('user_id'));
        return sendJson(res, 200, c ? ok(profileObject(c, hosts, user)) : notFound('用户'));
      }
      case '/api/post/get-list': {
        const c = creatorBy('userId', q.get('user_id'));
        if (!c) return sendJson(res, 200, notFound('用户'));
        const type = q.get('type') ?? 'old';
        if (type !== 'old' && type !== 'new') return sendJson(res, 200, { ec: 400, em: '参数错误', data: {} });
        const size = options.pageSize ?? Math.min(Number(q.get('per_page')) || 10, 50);
        const cursor = q.get('publish_sn') ?? '';
        let posts = live(c);
        if (q.get('plan_id')) posts = posts.filter((p) => planIds(c, p).includes(q.get('plan_id')!));
        if (cursor) posts = posts.filter((p) => publishSn(p) < Number(cursor));
        const page = posts.slice(0, size);
        const pinned = cursor ? [] : live(c).filter((p) => p.pinned);
        return sendJson(
          res,
          200,
          ok({
            list: [...pinned, ...page].map((p) => postObject(c, p, { hasRight: hasRight(c, p, user), list: true }, hosts)),
            has_more: posts.length > size ? 1 : 0,
          }),
        );
      }
      case '/api/post/get-detail': {
        const found = findPost(q.get('post_id'));
        if (!found || found.post.deleted) return sendJson(res, 200, notFound('动态'));
        const right = hasRight(found.creator, found.post, user, q.get('album_id') ?? '');
        const post = postObject(found.creator, found.post, { hasRight: right, list: false }, hosts);
        if (options.attachmentRedirect)
          for (const a of post.attachment as { name: string; url: string }[])
            a.url = `${apiOrigin}/api/file/download?post_id=${found.post.postId}&name=${encodeURIComponent(a.name)}`;
        return sendJson(res, 200, ok({ post }));
      }
      case '/api/file/download': {
        const found = findPost(q.get('post_id'));
        const name = q.get('name') ?? '';
        if (!user || !found || !found.post.attachments?.some((a) => a.name === name) || !hasRight(found.creator, found.post, user))
          return send(res, 403, '<html><body><h1>403 Forbidden</h1></body></html>', 'text/html');
        return redirect(res, hosts.vod(vodPath(found.post, 'file', name)));
      }
      case '/api/user/get-album-list': {
        const c = creatorBy('userId', q.get('user_id'));
        if (!c) return sendJson(res, 200, notFound('用户'));
        const size = Math.min(Number(q.get('per_page')) || 20, 50);
        const page = Math.max(1, Number(q.get('page')) || 1);
        const all = c.albums ?? [];
        const list = all.slice((page - 1) * size, page * size).map((a) => albumObject(c, a, hosts, user));
        return sendJson(res, 200, ok({ list, has_more: all.length > page * size ? 1 : 0 }));
      }
      case '/api/user/get-album-catalog': {
        const c = dataset.creators.find((cr) => cr.albums?.some((a) => a.albumId === q.get('album_id')));
        const album = c?.albums?.find((a) => a.albumId === q.get('album_id'));
        if (!c || !album) return sendJson(res, 200, notFound('作品集'));
        const posts = album.postIds.map((id) => live(c).find((p) => p.postId === id)).filter((p): p is AfdianPost => !!p);
        return sendJson(res, 200, ok({ list: posts.map((p, i) => catalogObject(c, p, i + 1, hosts)), has_more: 0 }));
      }
      case '/api/comment/get-list': {
        const found = findPost(q.get('post_id'));
        if (!found || found.post.deleted) return sendJson(res, 200, notFound('动态'));
        const size = options.commentPageSize ?? 10;
        const cursor = Number(q.get('publish_sn')) || Infinity;
        const all = [...(found.post.comments ?? [])]
          .sort((a, b) => b.publishTime - a.publishTime)
          .filter((cm) => cm.publishTime * 10000 + 1 < cursor);
        const list = all.slice(0, size).map((cm) => commentObject(cm, hosts, found.post));
        return sendJson(
          res,
          200,
          ok({ list, hot_list: cursor === Infinity && q.get('hot') === '1' ? list.slice(0, 1) : [], has_more: all.length > size ? 1 : 0 }),
        );
      }
      default:
        return send(res, 404, '<html><body><h1>404</h1></body></html>', 'text/html');
    }
  };

  const cdnHandler = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const referer = req.headers.referer;
    if (url.pathname.startsWith('/user/')) {
      if (referer && !AFDIAN_REFERER.test(referer)) return send(res, 403, 'Forbidden', 'text/plain');
      const pic = pics.get(url.pathname);
      if (!pic) return send(res, 404, 'Not Found', 'text/plain');
      let bytes = await image(url.pathname, { format: 'jpeg', width: pic.width, height: pic.height });
      const view = /^imageView2\/1\/w\/(\d+)\/h\/(\d+)/.exec(decodeURIComponent(url.search.slice(1)));
      if (view) bytes = await sharp(bytes).resize(Number(view[1]), Number(view[2]), { fit: 'cover' }).jpeg().toBuffer();
      return sendBytes(req, res, bytes, 'image/jpeg');
    }
    const file = files.get(url.pathname);
    if (!file) return send(res, 404, 'Not Found', 'text/plain');
    const [t, us, sign] = ['t', 'us', 'sign'].map((k) => url.searchParams.get(k) ?? '');
    const dir = url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1);
    if (!sign || !sameText(sign, md5Hex(signKey + dir + t + us)) || parseInt(t, 16) < nowS())
      return send(res, 403, '<html><body><h1>403 Forbidden</h1></body></html>', 'text/html');
    const disposition = file.name
      ? {
          'content-disposition': `attachment; filename="${encodeURIComponent(file.name)}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        }
      : undefined;
    return sendBytes(req, res, file.bytes, file.type, disposition);
  };

  const fake = { delayMs: 0 } as FakeAfdian;
  const apiServer = await startHost({
    port: options.port,
    log: logInto(requests, 'api', ['cookie', 'referer', 'user-agent', 'locale-lang']),
    delay: () => fake.delayMs,
    handler: (req, res, url) => {
      const fault = url.pathname.startsWith('/api/') ? faults.take() : null;
      if (fault?.kind === 'limit')
        return send(res, 429, '<html><body><h1>429 Too Many Requests</h1></body></html>', 'text/html', {
          'retry-after': String(fault.retryAfter),
        });
      if (fault) return send(res, fault.status, `<html><body><h1>${fault.status}</h1></body></html>`, 'text/html');
      return api(req, res, url);
    },
  });
  const cdnServer = await startHost({
    port: options.cdnPort,
    log: logInto(requests, 'cdn', ['cookie', 'referer', 'range']),
    delay: () => fake.delayMs,
    handler: cdnHandler,
  });
  cdn = cdnServer.origin;
  apiOrigin = apiServer.origin;

  return Object.assign(fake, {
    url: apiServer.origin,
    cdnUrl: cdn,
    dataset,
    requests,
    rateLimit: faults.rateLimit,
    fail: faults.fail,
    expireKey: () => void (key = null),
    editPost(postId: string, changes: Partial<Pick<AfdianPost, 'title' | 'content' | 'pics'>>) {
      const found = findPost(postId);
      if (!found) throw new Error(`no post ${postId}`);
      Object.assign(found.post, changes);
    },
    deletePost(postId: string) {
      const found = findPost(postId);
      if (!found) throw new Error(`no post ${postId}`);
      found.post.deleted = true;
    },
    advanceTime: clock.advance,
    async close() {
      await Promise.all([apiServer.close(), cdnServer.close()]);
    },
  });
}
