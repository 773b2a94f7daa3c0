/**
 * fantia.jp as its own pages and scripts call it, with the `_session_id` cookie (fantia.jp only):
 * - GET /api/v1/me: the key check (200 with a live session; 401 or a redirect to the sign-in page without);
 * - GET /mypage/users/plans?type=not_free&page=n (HTML): the fanclubs whose paid plans the key holds;
 * - GET /api/v1/fanclubs/{id}: name, icon, cover;
 * - GET /fanclubs/{id}/posts?page=n (HTML): the post ids, newest first, until a page has none; the page
 *   also carries the session's CSRF token (<meta name="csrf-token">);
 * - GET /api/v1/posts/{id} with X-CSRF-Token and X-Requested-With: XMLHttpRequest (403 without the first,
 *   422 without the second; {"redirect":"/recaptcha"} when Fantia wants a captcha solved);
 * - the download and album_image links, which redirect to signed cc.fantia.jp URLs.
 * Answers are checked with zod: a shape this importer does not know is a TransientError with a clear line.
 */
import { z } from 'zod';
import { paysiteEndpoint } from '@api/config.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { KeyRejectedError, TransientError } from '@api/importer/errors.ts';
import { createPaysiteClient, isAllowedHost, PaysiteRequestError, type PaysiteClient } from '@api/importer/fetch.ts';
import { anchorsWithClass, csrfTokenOf } from './html.ts';
import { parseUrl } from '@shared/parse.ts';

const image = z.object({ original: z.string().nullish() }).nullish();

export const fanclub = z.object({
  id: z.number(),
  name: z.string().nullish(),
  fanclub_name: z.string().nullish(),
  creator_name: z.string().nullish(),
  icon: image,
  cover: image,
});
export type FantiaFanclub = z.infer<typeof fanclub>;

const photo = z.object({
  id: z.number(),
  url: z.object({ original: z.string(), main: z.string().nullish() }),
  comment: z.string().nullish(),
});

export const postContent = z.object({
  id: z.number(),
  title: z.string().nullish(),
  visible_status: z.string(),
  category: z.string(),
  comment: z.string().nullish(),
  embed_url: z.string().nullish(),
  content_type: z.string().nullish(),
  post_content_photos: z.array(photo).nullish(),
  plan: z.object({ id: z.number(), price: z.number(), name: z.string().nullish() }).nullish(),
  product: z.object({ id: z.number().nullish(), name: z.string().nullish(), uri: z.string().nullish() }).nullish(),
  filename: z.string().nullish(),
  download_uri: z.string().nullish(),
  hls_uri: z.string().nullish(),
});
export type FantiaContent = z.infer<typeof postContent>;

export const post = z.object({
  id: z.number(),
  title: z.string().nullish(),
  comment: z.string().nullish(),
  rating: z.string().nullish(),
  thumb: image,
  posted_at: z.string(),
  converted_at: z.string().nullish(),
  is_blog: z.boolean().nullish(),
  blog_comment: z.string().nullish(),
  tags: z.array(z.object({ name: z.string() })).nullish(),
  fanclub: z.object({ id: z.number() }),
  post_contents: z.array(postContent).nullish(),
});
export type FantiaPost = z.infer<typeof post>;

/** Fantia flagged the session: a captcha must be solved in a browser first. Worth retrying later. */
export class CaptchaError extends TransientError {
  constructor() {
    super('Fantia asks this session to solve a captcha: open fantia.jp in the browser of this session, then import again later');
  }
}

export interface PostList {
  ids: string[];
  /** The session's CSRF token from the page, for the post API. */
  token: string | undefined;
}

export interface FantiaApi {
  client: PaysiteClient;
  /** Throws KeyRejectedError when Fantia does not take the session. */
  checkKey(): Promise<void>;
  /** The ids of the fanclubs whose paid plans the key holds, in the order Fantia lists them. */
  paidFanclubs(): Promise<string[]>;
  /** The fanclub, or undefined when Fantia has none by that id (404). */
  fanclub(id: string): Promise<FantiaFanclub | undefined>;
  /** One page of a fanclub's post list; undefined when the fanclub's page is gone (404). */
  postList(fanclubId: string, page: number): Promise<PostList | undefined>;
  /** The post (undefined when gone: 404). A refused token is fetched again once from the post's page. */
  post(id: string, token: string | undefined): Promise<FantiaPost | undefined>;
  /**
   * Where a fantia.jp link that redirects to a signed file URL (a download or a blog image) leads:
   * the signed URL, or a reason it is not given (the key may not have it, or it is gone).
   */
  signedLocation(path: string): Promise<{ url: string } | { refused: string }>;
}

export const BROWSER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const JSON_ACCEPT = 'application/json, text/plain, */*';
const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const q = encodeURIComponent;

function parse<T>(schema: z.ZodType<T>, answer: unknown, what: string): T {
  const result = schema.safeParse(answer);
  if (!result.success) {
    const field = result.error.issues[0]?.path.join('.') || 'the answer';
    throw new TransientError(`Fantia answered ${what} in a shape this importer does not understand (${field})`);
  }
  return result.data;
}

/** A client for fantia.jp with the key as its cookie; `signal` defaults to the import's. */
export function fantiaClient(ctx: ImportContext, signal: AbortSignal = ctx.signal): PaysiteClient {
  return createPaysiteClient({
    label: 'Fantia',
    endpoint: paysiteEndpoint(ctx.config.importer, 'fantia'),
    importer: ctx.config.importer,
    // Sent to fantia.jp only (./endpoints.ts: no other credential host).
    headers: { cookie: `_session_id=${ctx.key}` },
    publicHeaders: { 'user-agent': BROWSER_UA, 'accept-language': 'ja,en;q=0.8' },
    signal,
    keyRejectedStatuses: [401],
  });
}

export function fantiaApi(ctx: ImportContext): FantiaApi {
  const client = fantiaClient(ctx);
  const endpoint = paysiteEndpoint(ctx.config.importer, 'fantia');
  const site = new URL(client.url('/'));
  const onSite = (url: URL) => url.host === site.host;

  /** An HTML page of the logged-in site; a redirect to sign-in means the key is refused. */
  const page = async (path: string): Promise<string | undefined> => {
    const answer = await client.requestText(path, {
      redirect: 'manual',
      allowStatuses: [404],
      headers: { accept: HTML_ACCEPT, referer: `${site.origin}/` },
    });
    if (answer.status === 404) return undefined;
    if (answer.status >= 300 && answer.status < 400) {
      const to = String(answer.headers.location ?? '');
      if (/\/recaptcha/.test(to)) throw new CaptchaError();
      throw new KeyRejectedError('Fantia sent the session to its sign-in page');
    }
    return answer.body;
  };

  const checkKey = async () => {
    const answer = await client.requestText('/api/v1/me', {
      redirect: 'manual',
      headers: { accept: JSON_ACCEPT, 'x-requested-with': 'XMLHttpRequest', referer: `${site.origin}/` },
    });
    // 200 (or 304) is a live session; 401 is thrown by the client as a refused key, a redirect means the same.
    if (answer.status >= 300 && answer.status !== 304) throw new KeyRejectedError('Fantia did not take the session');
  };

  const apiJson = (path: string, headers: Record<string, string> = {}) =>
    client.getJson(path, { headers: { accept: JSON_ACCEPT, 'x-requested-with': 'XMLHttpRequest', ...headers } });

  const postOnce = async (id: string, token: string | undefined) => {
    try {
      return {
        answer: await apiJson(`/api/v1/posts/${q(id)}`, {
          referer: `${site.origin}/posts/${q(id)}`,
          ...(token ? { 'x-csrf-token': token } : {}),
        }),
      };
    } catch (error) {
      if (error instanceof PaysiteRequestError && [403, 404, 422].includes(error.status)) return { status: error.status };
      throw error;
    }
  };

  return {
    client,
    checkKey,
    async paidFanclubs() {
      const ids: string[] = [];
      for (let n = 1; n <= 200; n++) {
        const html = await page(`/mypage/users/plans?type=not_free&page=${n}`);
        const found = anchorsWithClass(html ?? '', 'user-avatar')
          .map((href) => /^\/fanclubs\/(\d+)/.exec(href)?.[1])
          .filter((id): id is string => !!id);
        const fresh = found.filter((id) => !ids.includes(id));
        if (fresh.length === 0) break;
        ids.push(...fresh);
      }
      return ids;
    },
    async fanclub(id) {
      try {
        return parse(z.object({ fanclub }), await apiJson(`/api/v1/fanclubs/${q(id)}`), `fanclub ${id}`).fanclub;
      } catch (error) {
        if (error instanceof PaysiteRequestError && error.status === 404) return undefined;
        throw error;
      }
    },
    async postList(fanclubId, n) {
      const html = await page(`/fanclubs/${q(fanclubId)}/posts?page=${n}`);
      if (html === undefined) return undefined;
      const ids = anchorsWithClass(html, 'link-block')
        .map((href) => /^\/posts\/(\d+)/.exec(href)?.[1])
        .filter((id): id is string => !!id);
      return { ids: [...new Set(ids)], token: csrfTokenOf(html) };
    },
    async post(id, token) {
      let result = await postOnce(id, token);
      if (result.status === 403) {
        // Tokens belong to the session; fetch a fresh one from the post's own page and ask once more.
        const html = await page(`/posts/${q(id)}`);
        if (html === undefined) return undefined;
        result = await postOnce(id, csrfTokenOf(html));
        if (result.status === 403) {
          await checkKey();
          throw new TransientError(
            `Fantia refused post ${id} (403) although the CSRF token came from the same session: Fantia is throttling, or changed how the post API is called`,
          );
        }
      }
      if (result.status === 404) return undefined;
      if (result.status === 422)
        throw new TransientError(
          `Fantia refused post ${id} (422): the post API wants a header this importer does not send (X-Requested-With?); Fantia changed it or this is a bug`,
        );
      const answer = result.answer as { redirect?: unknown; post?: unknown };
      if (answer && typeof answer === 'object' && !('post' in answer) && typeof answer.redirect === 'string') {
        if (answer.redirect.includes('recaptcha')) throw new CaptchaError();
        throw new TransientError(`Fantia answered post ${id} with a redirect instead of the post`);
      }
      return parse(z.object({ post }), answer, `post ${id}`).post;
    },
    async signedLocation(path) {
      const answer = await client.requestText(path, {
        redirect: 'manual',
        allowStatuses: [403, 404, 410],
        headers: { accept: '*/*', referer: `${site.origin}/` },
      });
      if (answer.status >= 400) return { refused: `Fantia answered ${answer.status}` };
      if (answer.status >= 300 && answer.status < 400) {
        const to = parseUrl(String(answer.headers.location ?? ''), answer.url);
        if (!to) return { refused: 'Fantia redirected nowhere' };
        // Back to a fantia.jp page (the post, the sign-in page): the key may not have the file.
        if (onSite(to)) return { refused: 'Fantia did not give the file to this account' };
        if (!isAllowedHost(endpoint, to.hostname)) return { refused: `Fantia pointed at ${to.hostname}, which is not one of its hosts` };
        return { url: to.toString() };
      }
      // Answered in place: a page is no file.
      const type = String(answer.headers['content-type'] ?? '');
      return type.startsWith('text/html') ? { refused: 'Fantia did not give the file to this account' } : { url: client.url(path) };
    },
  };
}
