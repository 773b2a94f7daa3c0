/**
 * A fake Fanbox for the importer tests: a real node:http server on 127.0.0.1 answering the paths and
 * JSON shapes of api.fanbox.cc that www.fanbox.cc calls (plan.listSupporting, creator.get,
 * post.paginateCreator, post.listCreator, post.info, post.getComments, newsletter.list,
 * legacy/support/creator), with its paging (page URLs keyed by maxPublishedDatetime/maxId, comments by
 * nextUrl), its errors (400 without Origin, 401 {"error":"general_error"} for a bad or expired
 * FANBOXSESSID), and the files of downloads.fanbox.cc / pximg.net as real PNG bytes under /files/.
 * Knobs: 429 with Retry-After or 5xx for the next N requests, a changed post, an expired key, a delay.
 */
import type http from 'node:http';
import { image } from './kit/media.ts';
import { Faults, jsonAs, redirect, send, startHost } from './kit/server.ts';

export interface FakeComment {
  id: string;
  body: string;
  userId: string;
  name: string;
  createdDatetime: string;
  replies?: FakeComment[];
}

export interface FakePost {
  id: string;
  title: string;
  type: 'article' | 'image' | 'file' | 'text' | 'video';
  publishedDatetime: string;
  updatedDatetime?: string;
  tags?: string[];
  isRestricted?: boolean;
  coverImage?: string;
  /** Fanbox's post body (the shape depends on type); file URLs are written as 'FILES/<name>'. */
  body: Record<string, unknown> | null;
  comments?: FakeComment[];
}

export interface FakeCreator {
  userId: string;
  creatorId: string;
  name: string;
  fee: number;
  hasFancard: boolean;
  posts: FakePost[];
}

export interface FakeNewsletter {
  id: string;
  body: string;
  createdAt: string;
  /** null: the author's account was closed, as Fanbox answers then. */
  userId: string | null;
}

export interface FakeFanboxOptions {
  key: string;
  creators?: FakeCreator[];
  newsletters?: FakeNewsletter[];
  pageSize?: number;
}

export interface FakeFanbox {
  url: string;
  creators: FakeCreator[];
  newsletters: FakeNewsletter[];
  requests: { path: string; headers: http.IncomingHttpHeaders; status: number }[];
  /** The next n API requests answer 429 with this Retry-After (seconds). */
  rateLimit(n: number, retryAfterSeconds: number): void;
  /** The next n API requests answer this 5xx. */
  fail(n: number, status?: number): void;
  /** Every request with the key answers 401 from now on (the session expired). */
  expireKey(): void;
  /** Each API request waits this long first (so a test can stop an import midway). */
  delayMs: number;
  /** Answers these API paths with this JSON instead (a shape Fanbox might change to). */
  overrides: Map<string, unknown>;
  post(id: string): FakePost | undefined;
  close(): Promise<void>;
}

const json = jsonAs('application/json');

const GENERAL_ERROR = { error: 'general_error' };

export async function startFakeFanbox(options: FakeFanboxOptions): Promise<FakeFanbox> {
  const pageSize = options.pageSize ?? 10;
  const faults = new Faults();
  let expired = false;
  const host = await startHost({
    log: (req, url) => {
      const record = { path: url.pathname + url.search, headers: req.headers, status: 200 };
      fake.requests.push(record);
      return record;
    },
    delay: () => fake.delayMs,
    handler: (req, res, url) => handle(req, res, url),
  });
  const base = host.origin;
  const fake: FakeFanbox = {
    url: base,
    creators: options.creators ?? defaultCreators(),
    newsletters: options.newsletters ?? defaultNewsletters(),
    requests: [],
    rateLimit: faults.rateLimit,
    fail: faults.fail,
    expireKey: () => (expired = true),
    delayMs: 0,
    overrides: new Map(),
    post: (id) => fake.creators.flatMap((c) => c.posts).find((p) => p.id === id),
    close: host.close,
  };
  const files = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replaceAll('FILES/', `${base}/files/`));
  const creatorBy = (key: 'userId' | 'creatorId', value: string | null) => fake.creators.find((c) => c[key] === value);
  const user = (c: FakeCreator) => ({ userId: c.userId, name: c.name, iconUrl: `${base}/files/icon-${c.userId}.png` });
  const newestFirst = (c: FakeCreator) =>
    [...c.posts].sort((a, b) => b.publishedDatetime.localeCompare(a.publishedDatetime) || Number(b.id) - Number(a.id));
  const pageUrl = (c: FakeCreator, first: FakePost) =>
    `${base}/post.listCreator?creatorId=${c.creatorId}&maxPublishedDatetime=${encodeURIComponent(first.publishedDatetime)}&maxId=${first.id}&limit=${pageSize}`;
  const item = (c: FakeCreator, p: FakePost) => ({
    id: p.id,
    title: p.title,
    feeRequired: p.isRestricted ? c.fee * 2 : c.fee,
    publishedDatetime: p.publishedDatetime,
    updatedDatetime: p.updatedDatetime ?? p.publishedDatetime,
    tags: p.tags ?? [],
    isLiked: false,
    likeCount: 3,
    commentCount: countComments(p.comments ?? []),
    isRestricted: !!p.isRestricted,
    user: user(c),
    creatorId: c.creatorId,
    hasAdultContent: false,
    cover: p.coverImage ? { type: 'cover_image', url: `FILES/${p.coverImage}` } : null,
    excerpt: '',
  });

  const api = (path: string, q: URLSearchParams, res: http.ServerResponse) => {
    switch (path) {
      case '/plan.listSupporting':
        return json(res, 200, {
          body: fake.creators.map((c) => ({
            id: `plan-${c.userId}`,
            title: `${c.name} supporter`,
            fee: c.fee,
            description: '',
            coverImageUrl: null,
            user: user(c),
            creatorId: c.creatorId,
            hasAdultContent: false,
            paymentMethod: 'paypal',
          })),
        });
      case '/creator.get': {
        const c = creatorBy('creatorId', q.get('creatorId'));
        if (!c) return json(res, 404, GENERAL_ERROR);
        return json(
          res,
          200,
          files({
            body: {
              user: user(c),
              creatorId: c.creatorId,
              description: 'hello',
              hasAdultContent: false,
              coverImageUrl: `FILES/cover-${c.userId}.png`,
              profileLinks: [],
              profileItems: [],
              isFollowed: true,
              isSupported: true,
            },
          }),
        );
      }
      case '/post.paginateCreator': {
        const c = creatorBy('creatorId', q.get('creatorId'));
        if (!c) return json(res, 404, GENERAL_ERROR);
        const posts = newestFirst(c);
        const urls: string[] = [];
        for (let i = 0; i < posts.length; i += pageSize) urls.push(pageUrl(c, posts[i]));
        return json(res, 200, { body: urls });
      }
      case '/post.listCreator': {
        const c = creatorBy('creatorId', q.get('creatorId'));
        if (!c) return json(res, 404, GENERAL_ERROR);
        const maxDate = q.get('maxPublishedDatetime');
        const maxId = Number(q.get('maxId') ?? Infinity);
        const limit = Number(q.get('limit') ?? pageSize);
        const page = newestFirst(c)
          .filter((p) => !maxDate || p.publishedDatetime < maxDate || (p.publishedDatetime === maxDate && Number(p.id) <= maxId))
          .slice(0, limit);
        return json(res, 200, files({ body: page.map((p) => item(c, p)) }));
      }
      case '/post.info': {
        const c = fake.creators.find((cr) => cr.posts.some((p) => p.id === q.get('postId')));
        const p = fake.post(q.get('postId') ?? '');
        if (!c || !p) return json(res, 404, GENERAL_ERROR);
        return json(
          res,
          200,
          files({
            body: {
              ...item(c, p),
              type: p.type,
              coverImageUrl: p.coverImage ? `FILES/${p.coverImage}` : null,
              body: p.isRestricted ? null : p.body,
              nextPost: null,
              prevPost: null,
              imageForShare: '',
            },
          }),
        );
      }
      case '/post.getComments': {
        const p = fake.post(q.get('postId') ?? '');
        if (!p) return json(res, 404, GENERAL_ERROR);
        const limit = Number(q.get('limit') ?? 10);
        const offset = Number(q.get('offset') ?? 0);
        const all = p.comments ?? [];
        const nextUrl =
          offset + limit < all.length ? `${base}/post.getComments?postId=${p.id}&limit=${limit}&offset=${offset + limit}` : null;
        return json(res, 200, {
          body: { commentList: { items: all.slice(offset, offset + limit).map((cm) => comment(cm, '0', cm.id)), nextUrl } },
        });
      }
      case '/newsletter.list':
        return json(res, 200, {
          body: fake.newsletters.map((n) => {
            const c = creatorBy('userId', n.userId);
            return {
              id: n.id,
              body: n.body,
              createdAt: n.createdAt,
              isRead: false,
              creator: n.userId
                ? { creatorId: c?.creatorId ?? `gone${n.userId}`, user: c ? user(c) : { userId: n.userId, name: 'Someone', iconUrl: null } }
                : null,
            };
          }),
        });
      case '/legacy/support/creator': {
        const c = creatorBy('userId', q.get('userId'));
        if (!c?.hasFancard) return json(res, 404, GENERAL_ERROR);
        return json(res, 200, { body: { supporterCardImageUrl: `${base}/files/fancard-${c.userId}.png` } });
      }
      default:
        return json(res, 404, GENERAL_ERROR);
    }
  };

  const handle = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    if (url.pathname.startsWith('/files/')) return sendFile(url.pathname.slice('/files/'.length), res);
    if (url.pathname.startsWith('/away/')) return redirect(res, `http://localhost:${new URL(base).port}/files/${url.pathname.slice(6)}`);
    if (req.headers.origin !== 'https://www.fanbox.cc') return json(res, 400, GENERAL_ERROR);
    if (expired || !(req.headers.cookie ?? '').split(/;\s*/).includes(`FANBOXSESSID=${options.key}`)) return json(res, 401, GENERAL_ERROR);
    const fault = faults.take();
    if (fault?.kind === 'limit') return json(res, 429, GENERAL_ERROR, { 'retry-after': String(fault.retryAfter) });
    if (fault) return json(res, fault.status, GENERAL_ERROR);
    if (fake.overrides.has(url.pathname)) return json(res, 200, fake.overrides.get(url.pathname));
    api(url.pathname, url.searchParams, res);
  };

  async function sendFile(name: string, res: http.ServerResponse) {
    if (name.startsWith('big-')) {
      // Declares no length, so only the streaming cap can stop it.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 7);
      for (let i = 0; i < 40 && !res.destroyed; i++) res.write(chunk);
      return res.end();
    }
    if (name.startsWith('gone-')) return json(res, 404, GENERAL_ERROR);
    const bytes = name.endsWith('.zip')
      ? Buffer.from(`PK\u0005\u0006${'\0'.repeat(18)}${name}`)
      : await image(decodeURIComponent(name), { colour: 'x31' });
    send(res, 200, bytes, name.endsWith('.zip') ? 'application/zip' : 'image/png');
  }

  return fake;
}

function countComments(list: FakeComment[]): number {
  return list.reduce((n, c) => n + 1 + countComments(c.replies ?? []), 0);
}

function comment(c: FakeComment, parent: string, root: string): Record<string, unknown> {
  return {
    id: c.id,
    parentCommentId: parent,
    rootCommentId: root,
    body: c.body,
    createdDatetime: c.createdDatetime,
    likeCount: 0,
    isLiked: false,
    isOwn: false,
    user: { userId: c.userId, name: c.name, iconUrl: null },
    replies: (c.replies ?? []).map((r) => comment(r, c.id, root)),
  };
}

const day = (n: number) => `2024-03-${String(n).padStart(2, '0')}T12:00:00+09:00`;

/** Alice: 23 posts over 3 pages (an article, an image post, a file post, a restricted post, comments); Bob: 2. */
export function defaultCreators(): FakeCreator[] {
  const alice: FakePost[] = [
    {
      id: '5001',
      title: 'Article with everything',
      type: 'article',
      publishedDatetime: day(28),
      updatedDatetime: '2024-03-29T08:00:00+09:00',
      tags: ['illust', 'article'],
      coverImage: 'cover-5001.png',
      body: {
        blocks: [
          { type: 'header', text: 'Chapter <1>' },
          {
            type: 'p',
            text: 'Bold and a link here.',
            styles: [{ type: 'bold', offset: 0, length: 4 }],
            links: [{ offset: 11, length: 4, url: 'https://example.com/x' }],
          },
          { type: 'image', imageId: 'img1' },
          { type: 'file', fileId: 'f1' },
          { type: 'embed', embedId: 'e1' },
          { type: 'url_embed', urlEmbedId: 'u1' },
        ],
        imageMap: {
          img1: {
            id: 'img1',
            extension: 'png',
            width: 16,
            height: 12,
            originalUrl: 'FILES/article-img1.png',
            thumbnailUrl: 'FILES/article-img1-thumb.png',
          },
        },
        fileMap: { f1: { id: 'f1', name: 'bonus pack', extension: 'zip', size: 40, url: 'FILES/bonus-pack.zip' } },
        embedMap: { e1: { id: 'e1', serviceProvider: 'youtube', contentId: 'dQw4w9WgXcQ' } },
        urlEmbedMap: { u1: { id: 'u1', type: 'default', url: 'https://example.org/page', host: 'example.org' } },
      },
    },
    {
      id: '5002',
      title: 'Image set',
      type: 'image',
      publishedDatetime: day(27),
      tags: ['set'],
      body: {
        text: 'Two pictures.\n\nEnjoy <3',
        images: [
          { id: 'i1', extension: 'png', width: 16, height: 12, originalUrl: 'FILES/set-1.png', thumbnailUrl: 'FILES/set-1-t.png' },
          { id: 'i2', extension: 'png', width: 16, height: 12, originalUrl: 'FILES/set-2.png', thumbnailUrl: 'FILES/set-2-t.png' },
        ],
      },
      comments: [
        ...Array.from({ length: 12 }, (_, i) => ({
          id: `c${i + 1}`,
          body: `Comment ${i + 1} <b>`,
          userId: `9${i}`,
          name: `Fan ${i + 1}`,
          createdDatetime: day(27),
        })),
      ].map((c, i) =>
        i === 0 ? { ...c, replies: [{ id: 'r1', body: 'Thanks!', userId: '1000001', name: 'Alice', createdDatetime: day(28) }] } : c,
      ),
    },
    {
      id: '5003',
      title: 'Files',
      type: 'file',
      publishedDatetime: day(26),
      body: { text: 'Download below.', files: [{ id: 'fa', name: 'pack', extension: 'zip', size: 40, url: 'FILES/pack.zip' }] },
    },
    { id: '5004', title: 'For the higher plan', type: 'image', publishedDatetime: day(25), isRestricted: true, body: null },
  ];
  for (let i = 0; i < 19; i++) {
    alice.push({
      id: String(4000 + i),
      title: `Diary ${i}`,
      type: 'text',
      publishedDatetime: `2024-02-${String(i + 1).padStart(2, '0')}T09:00:00+09:00`,
      body: { text: `Entry ${i}` },
    });
  }
  return [
    { userId: '1000001', creatorId: 'alice-art', name: 'Alice', fee: 500, hasFancard: true, posts: alice },
    {
      userId: '2000002',
      creatorId: 'bob',
      name: 'Bob',
      fee: 300,
      hasFancard: false,
      posts: [
        {
          id: '6001',
          title: 'Video',
          type: 'video',
          publishedDatetime: day(10),
          body: { text: 'Watch', video: { serviceProvider: 'vimeo', videoId: '12345' } },
        },
        { id: '6002', title: 'Hello', type: 'text', publishedDatetime: day(9), body: { text: 'First post' } },
      ],
    },
  ];
}

export function defaultNewsletters(): FakeNewsletter[] {
  return [
    { id: 'n1', body: 'Thank you all!\nNew plan soon.', createdAt: '2024-03-01T10:00:00+09:00', userId: '1000001' },
    { id: 'n2', body: 'Break next week', createdAt: '2024-03-05T10:00:00+09:00', userId: '2000002' },
    { id: 'n3', body: 'Not subscribed', createdAt: '2024-03-05T10:00:00+09:00', userId: '7777777' },
    { id: 'n4', body: 'Closed account', createdAt: '2024-03-06T10:00:00+09:00', userId: null },
  ];
}
