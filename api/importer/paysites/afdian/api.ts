/**
 * Afdian's web API as its own web app (and the open-source clients of docs/importing.md) call it: the
 * `auth_token` cookie and nothing else (no CSRF token, no signing). Every answer is JSON
 * `{ec, em, data}` under HTTP 200, ec 200 being success; a refused key is HTTP 401 or an ec other than
 * 200 on /api/my/* (the endpoints that need a login). Answers are checked with zod: a shape this importer
 * does not know is a TransientError with a line naming what it was reading, never a silent skip.
 */
import { z } from 'zod';
import { paysiteEndpoint } from '@api/config.ts';
import { KeyRejectedError, TransientError } from '@api/importer/errors.ts';
import { createPaysiteClient, type PaysiteClient } from '@api/importer/fetch.ts';
import type { ImportContext } from '@api/importer/context.ts';

/** 1/0, true/false or '1'/'0' as Afdian sends its flags (has_more, has_right, user_top, bought). */
const flag = z.union([z.number(), z.boolean(), z.string()]).nullish();
export const isOn = (value: z.infer<typeof flag>): boolean => value === true || value === 1 || value === '1' || value === 'true';

const text = z.string().nullish();
const user = z.object({ user_id: z.string(), name: text, avatar: text, cover: text, url_slug: text });
export type AfdianUser = z.infer<typeof user>;

/** A post as get-list and get-detail give it (get-detail adds `attachment` and the full HTML). */
export const post = z.object({
  post_id: z.string(),
  user_id: text,
  title: text,
  content: text,
  preview_text: text,
  cate: text,
  cover: text,
  pics: z.array(z.unknown()).nullish(),
  audio: text,
  audio_thumb: text,
  video: text,
  video_thumb: text,
  /** Its shape is pinned by no source: a URL, a list of URLs, or objects with a URL and a name. */
  attachment: z.unknown().optional(),
  publish_time: z.coerce.number().nullish(),
  publish_sn: z.union([z.string(), z.number()]).nullish(),
  has_right: flag,
  has_right_errMsg: text,
  user_top: flag,
  min_price: z.union([z.string(), z.number()]).nullish(),
  comment_count: z.coerce.number().nullish(),
  user: user.partial().nullish(),
});
export type AfdianPost = z.infer<typeof post>;

const sponsoring = z.object({
  sponsoring: z.array(z.object({ user })).nullish(),
  sponsoring_expired: z.array(z.object({ user })).nullish(),
});
const postPage = z.object({ list: z.array(post).nullish(), has_more: flag });
export type PostPage = { list: AfdianPost[]; hasMore: boolean };
const albumPage = z.object({
  list: z.array(z.object({ album_id: z.string(), title: text, bought: flag })).nullish(),
  has_more: flag,
});
export type AfdianAlbum = { albumId: string; title: string; bought: boolean };
const catalog = z.object({ list: z.array(z.object({ post_id: z.string() })).nullish() });

const envelope = z.object({ ec: z.coerce.number(), em: z.string().nullish(), data: z.unknown() });

/** An application error Afdian answered under HTTP 200 (ec other than 200), with its own message. */
export class AfdianAnswerError extends Error {
  override name = 'AfdianAnswerError';
  constructor(
    readonly ec: number,
    readonly em: string,
    what: string,
  ) {
    super(`Afdian answered ${what} with error ${ec}${em ? ` (${em.slice(0, 80)})` : ''}`);
  }
}

function unwrap<T>(schema: z.ZodType<T>, answer: unknown, what: string): T {
  const outer = envelope.safeParse(answer);
  if (!outer.success) throw new TransientError(`Afdian answered ${what} in a shape this importer does not understand`);
  if (outer.data.ec !== 200) throw new AfdianAnswerError(outer.data.ec, outer.data.em ?? '', what);
  const inner = schema.safeParse(outer.data.data);
  if (!inner.success) {
    const field = inner.error.issues[0]?.path.join('.') || 'data';
    throw new TransientError(`Afdian answered ${what} in a shape this importer does not understand (${field})`);
  }
  return inner.data;
}

/** get-detail's whole answer as its post (AfdianAnswerError for an application error such as a deleted post). */
export const detailOf = (answer: unknown): AfdianPost => unwrap(z.object({ post }), answer, 'a post').post;

export interface AfdianApi {
  client: PaysiteClient;
  /** The logged-in user: a refused key throws KeyRejectedError. */
  me(): Promise<AfdianUser>;
  /** The creators the key sponsors now, and those whose sponsorship ran out. */
  sponsoring(): Promise<{ current: AfdianUser[]; expired: AfdianUser[] }>;
  profile(userId: string): Promise<AfdianUser>;
  /** One page of the creator's posts, newest first, older than `publishSn` ('' for the first page). */
  posts(userId: string, publishSn: string): Promise<PostPage>;
  /** The post with its full HTML and signed media links; AfdianAnswerError when Afdian has no such post. */
  post(postId: string, albumId?: string): Promise<AfdianPost>;
  albums(userId: string, page: number): Promise<{ list: AfdianAlbum[]; hasMore: boolean }>;
  albumPostIds(albumId: string): Promise<string[]>;
}

const q = encodeURIComponent;
export const USER_AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

export function afdianApi(ctx: ImportContext): AfdianApi {
  const client = createPaysiteClient({
    label: 'Afdian',
    endpoint: paysiteEndpoint(ctx.config.importer, 'afdian'),
    importer: ctx.config.importer,
    // Sent to the API host only (./endpoints.ts has no credential hosts).
    headers: { cookie: `auth_token=${ctx.key}` },
    publicHeaders: {
      accept: 'application/json, text/plain, */*',
      'user-agent': USER_AGENT,
      // pic1.afdiancdn.com refuses other sites' Referers; the site's own is what a browser sends.
      referer: 'https://afdian.com/',
    },
    signal: ctx.signal,
    keyRejectedStatuses: [401],
  });
  const get = <T>(schema: z.ZodType<T>, url: string, what: string) => client.getJson(url).then((answer) => unwrap(schema, answer, what));
  /** /api/my/* need the login: any application error there is the key being refused. */
  const mine = async <T>(schema: z.ZodType<T>, url: string, what: string) => {
    try {
      return await get(schema, url, what);
    } catch (error) {
      if (error instanceof AfdianAnswerError) throw new KeyRejectedError(`Afdian refused the session key (error ${error.ec})`);
      throw error;
    }
  };
  return {
    client,
    async me() {
      return (await mine(z.object({ user }), '/api/my/profile', 'the account')).user;
    },
    async sponsoring() {
      const data = await mine(sponsoring, '/api/my/sponsoring?need_sponsor_info=1', 'the sponsored creators');
      return { current: (data.sponsoring ?? []).map((s) => s.user), expired: (data.sponsoring_expired ?? []).map((s) => s.user) };
    },
    async profile(userId) {
      return (await get(z.object({ user }), `/api/user/get-profile?user_id=${q(userId)}`, 'a creator profile')).user;
    },
    async posts(userId, publishSn) {
      const page = await get(
        postPage,
        `/api/post/get-list?user_id=${q(userId)}&type=old&publish_sn=${q(publishSn)}&per_page=10&group_id=&all=1&is_public=&plan_id=&title=&name=`,
        'a page of posts',
      );
      return { list: page.list ?? [], hasMore: isOn(page.has_more) };
    },
    async post(postId, albumId = '') {
      return (await get(z.object({ post }), `/api/post/get-detail?post_id=${q(postId)}&album_id=${q(albumId)}`, `post ${postId}`)).post;
    },
    async albums(userId, page) {
      const data = await get(albumPage, `/api/user/get-album-list?user_id=${q(userId)}&page=${page}&per_page=20`, 'the albums');
      return {
        list: (data.list ?? []).map((a) => ({ albumId: a.album_id, title: a.title ?? '', bought: isOn(a.bought) })),
        hasMore: isOn(data.has_more),
      };
    },
    async albumPostIds(albumId) {
      return ((await get(catalog, `/api/user/get-album-catalog?album_id=${q(albumId)}`, 'an album')).list ?? []).map((p) => p.post_id);
    },
  };
}
