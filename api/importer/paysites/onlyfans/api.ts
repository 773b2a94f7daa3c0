/**
 * OnlyFans' web API (onlyfans.com/api2/v2) as its own web app calls it (research notes sections 1-2):
 * the `sess` and `auth_id` cookies, `x-bc`, the browser's User-Agent and `user-id` (unless the rules
 * drop it) go to onlyfans.com only; every request also carries `app-token`, `time` and a `sign` over
 * its path and query exactly as sent (./rules.ts). Refusals: 401 = the session (KeyRejectedError);
 * 400 = the signature or its time ("Please refresh the page": SigningRefusedError, which ends the
 * import); 403 = Cloudflare or a temporary block (retried later). Answers are checked with zod: a shape
 * this importer does not know is a TransientError with a line naming it.
 */
import { z } from 'zod';
import { paysiteEndpoint } from '@api/config.ts';
import type { OnlyfansCredential } from '@api/importer/credential.ts';
import { KeyRejectedError, TransientError } from '@api/importer/errors.ts';
import { createPaysiteClient, type PaysiteClient } from '@api/importer/fetch.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { removesHeader, signRequest, type OnlyfansRules } from './rules.ts';
import { parseJsonText } from '@shared/parse.ts';

/** OnlyFans refused a request's signature: the rules are out of date (or the clock is off). */
export class SigningRefusedError extends Error {
  override name = 'SigningRefusedError';
}

const id = z.union([z.number(), z.string()]).transform(String);
const url = z.string().nullish();
const sized = z.object({ url }).passthrough().nullish();

/** A media item in any of the three shapes (notes 3): files.*, source/info + string full/preview/thumb. */
export const mediaSchema = z
  .object({
    id,
    type: z.string(),
    canView: z.boolean().nullish(),
    hasError: z.boolean().nullish(),
    files: z
      .object({
        full: sized,
        preview: sized,
        thumb: sized,
        squarePreview: sized,
        source: sized,
        drm: z
          .object({ manifest: z.object({ hls: url, dash: url }).partial().nullish() })
          .passthrough()
          .nullish(),
      })
      .passthrough()
      .nullish(),
    source: z.object({ source: url }).passthrough().nullish(),
    full: url,
    preview: url,
    thumb: url,
    squarePreview: url,
    videoSources: z.record(z.string(), url).nullish(),
  })
  .passthrough();
export type OnlyfansMedia = z.infer<typeof mediaSchema>;

export const postSchema = z
  .object({
    id,
    postedAt: z.string().nullish(),
    postedAtPrecise: z.string().nullish(),
    text: z.string().nullish(),
    rawText: z.string().nullish(),
    isPinned: z.boolean().nullish(),
    isArchived: z.boolean().nullish(),
    isDeleted: z.boolean().nullish(),
    isOpened: z.boolean().nullish(),
    canViewMedia: z.boolean().nullish(),
    price: z.number().nullish(),
    mediaCount: z.number().nullish(),
    media: z.array(mediaSchema).nullish(),
    author: z.object({ id }).passthrough().nullish(),
  })
  .passthrough();
export type OnlyfansPost = z.infer<typeof postSchema>;

export const userSchema = z
  .object({
    id,
    username: z.string(),
    name: z.string().nullish(),
    avatar: url,
    header: url,
    subscribedBy: z.boolean().nullish(),
    subscribedIsExpiredNow: z.boolean().nullish(),
  })
  .passthrough();
export type OnlyfansUser = z.infer<typeof userSchema>;

const meSchema = z.object({ id, isAuth: z.boolean().nullish() }).passthrough();
const countSchema = z
  .object({ subscriptions: z.object({ active: z.number(), expired: z.number().nullish() }).passthrough() })
  .passthrough();
const page = <T extends z.ZodTypeAny>(item: T) => z.object({ list: z.array(item), hasMore: z.boolean().nullish() });

export interface PostPage {
  posts: OnlyfansPost[];
  hasMore: boolean;
}

export interface OnlyfansApi {
  client: PaysiteClient;
  me(): Promise<{ id: string; isAuth: boolean }>;
  subscriptionCount(): Promise<{ active: number; expired: number }>;
  /** A page of active subscriptions (user objects), 10 a page from `offset`. */
  subscriptions(offset: number): Promise<{ users: OnlyfansUser[]; hasMore: boolean }>;
  /** A profile, or undefined when OnlyFans no longer has the user (404). */
  user(username: string): Promise<OnlyfansUser | undefined>;
  /** The timeline without pinned posts, newest first, strictly before a postedAtPrecise. */
  timeline(userId: string, before?: string): Promise<PostPage>;
  /** The archived posts, same paging. */
  archived(userId: string, before?: string): Promise<PostPage>;
  /** The pinned posts, by offset. */
  pinned(userId: string, offset: number): Promise<PostPage>;
}

export const PAGE_SIZE = 10;

/** The signing headers of one request (the target is the path and query as they go on the wire). */
export function signingHeaders(rules: OnlyfansRules, target: string, userId: string, now = Date.now()): Record<string, string> {
  const time = String(now);
  return { 'app-token': rules.app_token, time, sign: signRequest(rules, target, time, userId) };
}

export function onlyfansApi(ctx: ImportContext, credential: OnlyfansCredential, rules: OnlyfansRules): OnlyfansApi {
  const client = createPaysiteClient({
    label: 'OnlyFans',
    endpoint: paysiteEndpoint(ctx.config.importer, 'onlyfans'),
    importer: ctx.config.importer,
    // Sent to onlyfans.com only (./endpoints.ts: no credential hosts); never to the CDN.
    headers: {
      cookie: `sess=${credential.session_key}; auth_id=${credential.auth_id}`,
      'x-bc': credential['x-bc'],
      'user-agent': credential.user_agent,
      ...(removesHeader(rules, 'user-id') ? {} : { 'user-id': credential.auth_id }),
    },
    publicHeaders: { 'user-agent': 'Mozilla/5.0 (compatible; Trove importer)' },
    signal: ctx.signal,
    keyRejectedStatuses: [401],
  });

  /** GETs a path under /api2/v2, signed; checks the answer with `schema`; undefined for a 404. */
  const get = async <T>(path: string, schema: z.ZodType<T>, what: string): Promise<T | undefined> => {
    const target = new URL(client.url(`/api2/v2${path}`));
    const wire = target.pathname + target.search;
    const answer = await client.requestText(target.toString(), {
      headers: {
        accept: 'application/json, text/plain, */*',
        referer: 'https://onlyfans.com/',
        ...signingHeaders(rules, wire, credential.auth_id),
      },
      allowStatuses: [400, 403, 404],
    });
    // undefined: not JSON.
    const body = parseJsonText(answer.body)?.value;
    if (answer.status === 400) {
      const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
      throw new SigningRefusedError(`OnlyFans refused the request signature (400${typeof message === 'string' ? ` "${message}"` : ''})`);
    }
    if (answer.status === 403) throw new TransientError('OnlyFans answered 403 (a temporary block)');
    if (answer.status === 404) return undefined;
    // A Cloudflare page or a cut answer is no empty list: retried later, never read as "no more posts".
    if (body === undefined) throw new TransientError(`OnlyFans answered ${what} with something that is not JSON`);
    const result = schema.safeParse(body);
    if (!result.success) throw new TransientError(`OnlyFans answered ${what} in a shape this importer does not understand`);
    return result.data;
  };
  const posts = async (path: string, what: string): Promise<PostPage> => {
    const answer = await get(path, page(postSchema), what);
    return { posts: answer?.list ?? [], hasMore: !!answer?.hasMore && (answer?.list.length ?? 0) > 0 };
  };
  const before = (value?: string) => (value ? `&beforePublishTime=${encodeURIComponent(value)}` : '');

  return {
    client,
    async me() {
      const me = await get('/users/me', meSchema, 'the account');
      if (!me) throw new TransientError('OnlyFans answered 404 for the account');
      // A session OnlyFans no longer knows may answer with isAuth false rather than 401.
      if (me.isAuth === false) throw new KeyRejectedError('OnlyFans says the session is not signed in');
      return { id: me.id, isAuth: true };
    },
    async subscriptionCount() {
      const count = await get('/subscriptions/count/all', countSchema, 'the subscription count');
      return { active: count?.subscriptions.active ?? 0, expired: count?.subscriptions.expired ?? 0 };
    },
    async subscriptions(offset) {
      const answer = await get(
        `/subscriptions/subscribes?offset=${offset}&limit=${PAGE_SIZE}&type=active&format=infinite`,
        page(userSchema),
        'the subscriptions',
      );
      return { users: answer?.list ?? [], hasMore: !!answer?.hasMore && (answer?.list.length ?? 0) > 0 };
    },
    user(username) {
      return get(`/users/${encodeURIComponent(username)}`, userSchema, 'a profile');
    },
    timeline(userId, since) {
      const cursor = since ? `${before(since)}&pinned=0&counters=0` : '&pinned=0';
      return posts(
        `/users/${userId}/posts?limit=${PAGE_SIZE}&order=publish_date_desc&skip_users=all&skip_users_dups=1${cursor}&format=infinite`,
        'a page of posts',
      );
    },
    archived(userId, since) {
      return posts(
        `/users/${userId}/posts/archived?limit=${PAGE_SIZE}&order=publish_date_desc&skip_users=all&skip_users_dups=1${before(since)}&format=infinite`,
        'a page of archived posts',
      );
    },
    pinned(userId, offset) {
      return posts(
        `/users/${userId}/posts?limit=${PAGE_SIZE}&offset=${offset}&skip_users=all&pinned=1&counters=0&format=infinite`,
        'the pinned posts',
      );
    },
  };
}
