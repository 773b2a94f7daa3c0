/**
 * CandFans' website API (candfans.jp/api, Laravel with Sanctum cookie sessions) as its own web app and
 * the public downloaders call it (facts: docs/importing.md, CandFans section). The key is the
 * `secure_candfans_session` cookie; it lives in the import's cookie jar, since Laravel re-encrypts it on
 * every answer. Sanctum treats a call as a cookie session only when it comes from candfans.jp, so every
 * call sends a candfans.jp Referer; the XSRF handshake (GET /api/sanctum/csrf-cookie) sets XSRF-TOKEN,
 * echoed URL-decoded in X-XSRF-TOKEN on every call as the site's clients do. A wrong or expired session
 * is 401 (KeyRejectedError); a 419 (CSRF token mismatch) is answered by one new handshake, a second one
 * means the site changed how it checks requests (a TransientError with a clear line). Answers are checked
 * with zod: a shape this importer does not know is a TransientError, never a silent skip.
 */
import { z } from 'zod';
import { paysiteEndpoint } from '@api/config.ts';
import { cookieValue, jarWithSessionCookie } from '@api/importer/cookies.ts';
import { TransientError } from '@api/importer/errors.ts';
import { createPaysiteClient, PaysiteRequestError, type PaysiteClient } from '@api/importer/fetch.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { decodeComponent } from '@shared/parse.ts';

export const SESSION_COOKIE = 'secure_candfans_session';
const text = z.string().nullish();
const flag = z.union([z.number(), z.boolean()]).nullish();

/** get-user-mine: data.users[0] is the key's own account. */
const mine = z.object({ users: z.array(z.looseObject({ id: z.number() })).min(1) });
/** get-entry-plans: the plans the key has joined, one item per plan. */
const entryPlan = z.looseObject({ user_code: z.string(), plan_id: z.number().nullish() });
/** get-follow/{ownId}?page=n: the accounts the key follows, 10 a page, [] after the last. */
const follow = z.looseObject({ user_id: z.number(), user_code: z.string(), username: text });

/** get-users?user_code=: data.user (image paths relative to image.candfans.jp). */
export const candfansUser = z.looseObject({
  id: z.number(),
  user_code: z.string(),
  username: z.string(),
  profile_img: text,
  profile_cover_img: text,
  profile_text: text,
});
export type CandfansUser = z.infer<typeof candfansUser>;

/** One post of get-timeline (KO's recorded answer and model fields). */
export const timelinePost = z.looseObject({
  post_id: z.number(),
  user_id: z.number(),
  user_code: text,
  post_date: z.string(),
  contents_type: z.number(),
  post_type: z.number(),
  title: text,
  contents_text: text,
  price: z.number().nullish(),
  contents_path1: text,
  contents_path2: text,
  contents_path3: text,
  contents_path4: text,
  thumbnail_file: text,
  can_browsing: flag,
  plans: z.array(z.looseObject({ plan_id: z.number(), plan_name: text, is_joined_plan: flag })).nullish(),
  attachments: z.array(z.looseObject({ default: text, low: text })).nullish(),
});
export type TimelinePost = z.infer<typeof timelinePost>;

function data<T>(schema: z.ZodType<T>, answer: unknown, what: string): T {
  const result = z.object({ status: z.literal('SUCCESS'), data: schema }).safeParse(answer);
  if (!result.success) throw new TransientError(`CandFans answered ${what} in a shape this importer does not understand`);
  return result.data.data;
}

/** The key as the Cookie header wants it: URL-encoded, as the browser stores it (a pasted decoded value is encoded). */
export function sessionCookieValue(key: string): string {
  const trimmed = key.trim();
  return /%[0-9A-Fa-f]{2}/.test(trimmed) ? trimmed : encodeURIComponent(trimmed);
}

export interface CandfansApi {
  client: PaysiteClient;
  /** Where relative image paths live (image.candfans.jp). */
  imageBase: string;
  /** The key's own account id (KeyRejectedError when CandFans refuses the session). */
  me(): Promise<number>;
  /** The user codes of the creators whose plans the key has joined. */
  entryPlans(): Promise<string[]>;
  /** One page of the key's follows (from 1; [] after the last). */
  follows(ownId: number, page: number): Promise<z.infer<typeof follow>[]>;
  /** The creator, or undefined when CandFans has no such user (404). */
  user(userCode: string): Promise<CandfansUser | undefined>;
  /** One page (from 1, oldest first) of the creator's timeline, every post type; [] after the last. */
  timeline(userId: number, page: number): Promise<TimelinePost[]>;
}

export function candfansApi(ctx: ImportContext): CandfansApi {
  const endpoint = paysiteEndpoint(ctx.config.importer, 'candfans');
  const jar = jarWithSessionCookie(endpoint.baseUrl, SESSION_COOKIE, sessionCookieValue(ctx.key));
  const client = createPaysiteClient({
    label: 'CandFans',
    endpoint,
    importer: ctx.config.importer,
    // The session cookie is in the jar, not here.
    headers: {},
    publicHeaders: {
      referer: 'https://candfans.jp/',
      accept: 'application/json, text/plain, */*',
      'user-agent': 'Mozilla/5.0 (compatible; Trove importer)',
    },
    signal: ctx.signal,
    keyRejectedStatuses: [401],
    cookies: jar,
  });
  const xsrf = () => {
    const stored = cookieValue(jar, endpoint.baseUrl, 'XSRF-TOKEN');
    return stored ? decodeComponent(stored) : undefined;
  };
  let shaken = false;
  const handshake = async () => {
    await client.requestText('/api/sanctum/csrf-cookie', { headers: { accept: 'application/json' } });
    if (!xsrf()) throw new TransientError('CandFans set no XSRF-TOKEN cookie on /api/sanctum/csrf-cookie; the site may have changed');
    shaken = true;
  };
  const get = async (path: string): Promise<unknown> => {
    if (!shaken) await handshake();
    for (let tries = 0; ; tries++) {
      try {
        return await client.getJson(path, { headers: { 'x-xsrf-token': xsrf() ?? '' } });
      } catch (error) {
        if (!(error instanceof PaysiteRequestError) || error.status !== 419) throw error;
        if (tries > 0)
          throw new TransientError('CandFans refused the XSRF token twice (419 CSRF token mismatch); the site may have changed its checks');
        await handshake();
      }
    }
  };
  const q = encodeURIComponent;
  return {
    client,
    imageBase: endpoint.cdnUrl ?? 'https://image.candfans.jp',
    async me() {
      return data(mine, await get('/api/user/get-user-mine'), 'the own account').users[0].id;
    },
    async entryPlans() {
      return [...new Set(data(z.array(entryPlan), await get('/api/user/get-entry-plans'), 'the joined plans').map((p) => p.user_code))];
    },
    async follows(ownId, page) {
      return data(z.array(follow), await get(`/api/user/get-follow/${ownId}?page=${page}`), 'the followed accounts');
    },
    async user(userCode) {
      try {
        const answer = await get(`/api/user/get-users?user_code=${q(userCode)}`);
        return data(z.looseObject({ user: candfansUser }), answer, `creator ${userCode}`).user;
      } catch (error) {
        if (error instanceof PaysiteRequestError && error.status === 404) return undefined;
        throw error;
      }
    },
    async timeline(userId, page) {
      const answer = await get(`/api/contents/get-timeline?user_id=${userId}&sort_order=old&page=${page}`);
      return data(z.array(timelinePost), answer, `page ${page} of a timeline`);
    },
  };
}
