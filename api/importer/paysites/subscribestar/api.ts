/**
 * SubscribeStar's pages as the importer reads them. There is no content API: star pages, the feed and
 * /profile/settings are HTML; "load more" answers are JSON whose `html` is a fragment of the same
 * markup. The key is the site's `_personalization_id` cookie (or a whole Cookie header copied from the
 * browser); it goes to the site it belongs to, www.subscribestar.com or the adult site, never to an
 * upload host. A wrong or expired key is never a 401: the site answers as to a visitor (settings and
 * feed redirect to /login, no user block in the top bar), which this module turns into KeyRejectedError.
 * The adult site asks for age confirmation: the `18_plus_agreement_generic=true` cookie is sent up front,
 * and if the site still redirects to /age_confirmation_warning its form is posted (with the session's
 * authenticity_token) once. Cloudflare's 403 browser check is retried later (Trove cannot pass it).
 */
import { paysiteEndpoint } from '@api/config.ts';
import { CookieJar } from '@api/importer/cookies.ts';
import { KeyRejectedError, TransientError } from '@api/importer/errors.ts';
import { createPaysiteClient, type PaysiteClient } from '@api/importer/fetch.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { ageForm, isLoggedIn } from './map.ts';
import { parseJsonText } from '@shared/parse.ts';

export type SsSite = 'com' | 'adult';
export const SITES: readonly SsSite[] = ['com', 'adult'];
export const SITE_LABEL: Record<SsSite, string> = { com: 'subscribestar.com', adult: 'the adult site (subscribestar.art)' };

/** The cookie a bare key is sent as (gallery-dl's login cookie since 2025). */
export const KEY_COOKIE = '_personalization_id';
/** A copied Cookie header: it holds one of the site's session cookies as a name=value pair. */
const SESSION_PAIR = /(?:^|;\s*)(?:_personalization_id|_subscribestar_session|auth_token)=[^;\s]/;
const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const JSON_ACCEPT = 'application/json, text/javascript, */*; q=0.01';

/** The Cookie header for a key: a bare value is the `_personalization_id` cookie; a copied Cookie header is sent as it is. */
export function keyCookie(key: string): string {
  const value = key.trim();
  // Anything but visible ASCII cannot be a cookie SubscribeStar set.
  if (!/^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/.test(value)) throw new KeyRejectedError('SubscribeStar key is not a cookie value');
  const header = value.replace(/^cookie:\s*/i, '').replace(/;\s*$/, '');
  return SESSION_PAIR.test(header) ? header : `${KEY_COOKIE}=${value}`;
}

export interface SsPage {
  status: number;
  html: string;
  /** Where a redirect pointed (path only), e.g. '/login' or '/{slug}/verify_subscriber'. */
  redirect?: string;
}

export interface SsApi {
  site: SsSite;
  root: string;
  client: PaysiteClient;
  /** An HTML page, through the age gate; a redirect is answered (not followed) unless it stays on the same page. */
  page(path: string): Promise<SsPage>;
  /** A "load more" answer's HTML fragment. */
  more(path: string, what: string): Promise<string>;
  /** Whether the key is logged in on this site (/profile/settings shows the user block). */
  loggedIn(): Promise<boolean>;
  /** The URL to download an upload from: site-relative /uploads?payload= links resolved to the upload host. */
  fileUrl(url: string): Promise<string>;
}

const pathOf = (location: string, base: string) => {
  const url = new URL(location, base);
  return `${url.pathname}${url.search}`;
};

/** A Rails "You are being redirected" page sent with 200 (gallery-dl #6916): its link. */
function htmlRedirect(body: string): string | undefined {
  if (body.length > 1000 || !/>\s*redirected\s*</.test(body)) return undefined;
  const href = /href="([^"]+)"/.exec(body)?.[1];
  return href?.replace(/&amp;/g, '&');
}

function cloudflare(status: number, headers: Record<string, unknown>, body: string): TransientError | undefined {
  if (status !== 403) return undefined;
  const challenge = headers['cf-mitigated'] === 'challenge' || /Just a moment|challenge-form|cf-chl/i.test(body);
  return new TransientError(
    challenge
      ? "SubscribeStar answered with Cloudflare's browser check (403), which the importer cannot pass"
      : 'SubscribeStar refused the request (403)',
  );
}

export function subscribestarApi(ctx: ImportContext, site: SsSite): SsApi {
  const endpoint = paysiteEndpoint(ctx.config.importer, 'subscribestar');
  const root = site === 'com' ? endpoint.baseUrl : (endpoint.urls?.adult ?? 'https://subscribestar.art');
  const cookie = keyCookie(ctx.key);
  const jar = new CookieJar(undefined, { rejectPublicSuffixes: false, allowSpecialUseDomain: true, looseMode: true });
  // The adult site's age gate is passed up front, as gallery-dl does; the age form (if still asked) sets it again.
  if (site === 'adult') jar.setCookieSync('18_plus_agreement_generic=true; Path=/', root, { ignoreError: true });
  const client = createPaysiteClient({
    label: 'SubscribeStar',
    endpoint: { ...endpoint, baseUrl: root },
    importer: ctx.config.importer,
    headers: { cookie },
    // No answer means a refused key: the site shows a visitor's pages instead.
    keyRejectedStatuses: [],
    cookies: jar,
    signal: ctx.signal,
  });

  let confirmedAge = false;
  const confirmAge = async (warningPath: string) => {
    if (confirmedAge)
      throw new TransientError('SubscribeStar still asks for age confirmation after it was given; the site may have changed');
    confirmedAge = true;
    const warning = await client.requestText(warningPath, { headers: { accept: HTML_ACCEPT }, allowStatuses: [403] });
    const form = ageForm(warning.body);
    if (!form) throw new TransientError('SubscribeStar asked for age confirmation without its form; the site may have changed');
    const answer = await client.requestText(form.action, {
      method: 'POST',
      body: new URLSearchParams(form.fields).toString(),
      headers: { accept: HTML_ACCEPT, 'content-type': 'application/x-www-form-urlencoded', referer: client.url(warningPath) },
      redirect: 'manual',
      allowStatuses: [403, 422],
    });
    if (answer.status === 422 || answer.status === 403)
      throw new TransientError(`SubscribeStar refused the age confirmation form (${answer.status}); the site may have changed`);
  };

  const page = async (path: string): Promise<SsPage> => {
    let current = path;
    for (let hop = 0; hop < 5; hop++) {
      const answer = await client.requestText(current, {
        headers: { accept: HTML_ACCEPT },
        redirect: 'manual',
        allowStatuses: [403, 404, 410],
      });
      const blocked = cloudflare(answer.status, answer.headers, answer.body);
      if (blocked) throw blocked;
      const location =
        answer.status >= 300 && answer.status < 400 && answer.headers.location
          ? answer.headers.location
          : answer.status === 200
            ? htmlRedirect(answer.body)
            : undefined;
      if (!location) return { status: answer.status, html: answer.body };
      const target = pathOf(location, answer.url);
      if (target.startsWith('/age_confirmation_warning')) {
        await confirmAge(target);
        continue;
      }
      // Another host of the same site (.adult to .art) or a trailing-slash hop: follow it.
      const sameTarget = target.replace(/\/$/, '') === pathOf(current, root).replace(/\/$/, '');
      if (!sameTarget) return { status: answer.status, html: '', redirect: target };
      current = new URL(location, answer.url).toString();
    }
    throw new TransientError('SubscribeStar redirected too many times');
  };

  return {
    site,
    root,
    client,
    page,
    async more(path, what) {
      const answer = await client.requestText(path, {
        headers: { accept: JSON_ACCEPT, 'x-requested-with': 'XMLHttpRequest' },
        redirect: 'manual',
        allowStatuses: [403, 404],
      });
      const blocked = cloudflare(answer.status, answer.headers, answer.body);
      if (blocked) throw blocked;
      if (answer.status >= 300 && answer.status < 400 && /\/login\b/.test(answer.headers.location ?? ''))
        throw new KeyRejectedError('SubscribeStar sent the next page to its login page');
      // undefined: not JSON.
      const body = parseJsonText(answer.body)?.value;
      const html = (body as { html?: unknown } | undefined)?.html;
      if (answer.status !== 200 || typeof html !== 'string')
        throw new TransientError(
          `SubscribeStar answered the next page of ${what} in a shape this importer does not understand (${answer.status})`,
        );
      return html;
    },
    async loggedIn() {
      const settings = await page('/profile/settings');
      return settings.status === 200 && !settings.redirect && isLoggedIn(settings.html);
    },
    async fileUrl(url) {
      if (!url.startsWith('/') || url.startsWith('//')) return url;
      // /uploads?payload=... redirects to the upload host, with a 302 or a small "redirected" page.
      const head = await client.requestText(url, { method: 'HEAD', redirect: 'manual', allowStatuses: [403, 404, 410] });
      if (head.status >= 300 && head.status < 400 && head.headers.location) return new URL(head.headers.location, head.url).toString();
      if (head.status === 200 && /text\/html/.test(String(head.headers['content-type'] ?? ''))) {
        const page = await client.requestText(url, { redirect: 'manual', allowStatuses: [403, 404, 410] });
        const href = htmlRedirect(page.body);
        if (href) return new URL(href, page.url).toString();
      }
      return client.url(url);
    },
  };
}
