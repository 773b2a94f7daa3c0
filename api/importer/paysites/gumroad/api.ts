/**
 * Gumroad's pages as a browser reaches them with the `_gumroad_app_session` cookie (a Rails cookie-store
 * session: its value holds + / =, so it is sent URL-encoded; a value pasted already encoded is decoded
 * first). A refused key is not a status: /library answers 302 to /login?next=%2Flibrary. Throttling is
 * Rack::Attack's 429 "Retry later", without Retry-After (retried later by the worker). Pages are
 * requested without following redirects where the redirect is the answer (the login page, a purchase
 * whose access ended). Props are read from the HTML (pages.ts) and checked with zod: a page in a shape
 * this importer does not know is a TransientError with a line naming the page, never a silent success.
 */
import { paysiteEndpoint } from '@api/config.ts';
import { KeyRejectedError, TransientError } from '@api/importer/errors.ts';
import { createPaysiteClient, ForbiddenHostError, type PaysiteClient, type TextAnswer } from '@api/importer/fetch.ts';
import type { ImportContext } from '@api/importer/context.ts';
import type { z } from 'zod';
import {
  COMPONENTS,
  downloadProps,
  findComponent,
  libraryProps,
  pageComponents,
  productProps,
  type DownloadProps,
  type LibraryProps,
  type ProductInfo,
} from './pages.ts';
import { decodeComponent, parseUrl } from '@shared/parse.ts';

const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
/** Gumroad's file and image hosts: within `.gumroad.com`, but never given the session cookie. */
const FILE_HOSTS = ['files.gumroad.com', 'public-files.gumroad.com', 'static-2.gumroad.com', 'assets.gumroad.com'];

/** The cookie value as Gumroad wants it: URL-encoded once, whether it was pasted encoded or not. */
export function sessionCookie(key: string): string {
  let raw = key.trim();
  if (/%[0-9a-f]{2}/i.test(raw)) {
    // Not an encoded value after all: send it encoded as it is.
    raw = decodeComponent(raw) ?? raw;
  }
  return `_gumroad_app_session=${encodeURIComponent(raw)}`;
}

/** A creator's {username}.gumroad.com host from a profile URL, when it is one (not a file host). */
export function creatorHost(profileUrl: string | null | undefined): string | undefined {
  const host = parseUrl(profileUrl ?? '')?.hostname.toLowerCase();
  return host && /^[a-z0-9][a-z0-9-]*\.gumroad\.com$/.test(host) && !FILE_HOSTS.includes(host) && host !== 'app.gumroad.com'
    ? host
    : undefined;
}

export type DownloadOutcome = { kind: 'ok'; props: DownloadProps; url: string } | { kind: 'skip'; reason: string };

const WHY: Record<string, string> = {
  expired: 'access to it was revoked',
  rental_expired: 'the rental has expired',
  membership_inactive: 'the membership is inactive',
  check_purchaser: 'it was bought by another account',
};

function pathOf(url: string): string {
  return parseUrl(url)?.pathname ?? '';
}

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const field = result.error.issues[0]?.path.join('.') || 'the page';
  throw new TransientError(`Gumroad answered ${what} in a shape this importer does not understand (${field})`);
}

export interface GumroadApi {
  client: PaysiteClient;
  /** One page of the library (optionally one seller's purchases); KeyRejectedError when the key is refused. */
  library(page: number, creatorId?: string): Promise<LibraryProps>;
  /** A purchase's download page: its content, or why it has none. */
  downloadPage(url: string): Promise<DownloadOutcome>;
  /** The product page's description and covers; undefined when it is gone (404). */
  productPage(url: string): Promise<ProductInfo | undefined>;
  /** Follows a content file's /r/... link one hop: the signed file URL, or why there is none. */
  fileUrl(url: string): Promise<{ url: string } | { reason: string }>;
}

/** The client for one import; `creatorProfileUrl` adds that creator's own subdomain to the cookie's hosts. */
export function gumroadApi(ctx: ImportContext, creatorProfileUrl?: string | null): GumroadApi {
  const endpoint = paysiteEndpoint(ctx.config.importer, 'gumroad');
  const own = creatorHost(creatorProfileUrl);
  const client = createPaysiteClient({
    label: 'Gumroad',
    endpoint,
    importer: ctx.config.importer,
    headers: { cookie: sessionCookie(ctx.key) },
    credentialHosts: [...(endpoint.credentialHosts ?? []), ...(own ? [own] : [])],
    publicHeaders: { 'user-agent': USER_AGENT },
    signal: ctx.signal,
  });
  const page = (url: string, manual = false): Promise<TextAnswer> =>
    client.requestText(url, { headers: { accept: ACCEPT }, redirect: manual ? 'manual' : 'follow', allowStatuses: [404] });

  const library = async (n: number, creatorId?: string): Promise<LibraryProps> => {
    const query = new URLSearchParams({ sort: 'purchase_date' });
    if (creatorId) query.set('creators', creatorId);
    if (n > 1) query.set('page', String(n));
    const answer = await page(`/library?${query}`, true);
    if (answer.status >= 300 && answer.status < 400) {
      const where = pathOf(new URL(String(answer.headers.location ?? ''), client.url('/')).toString());
      if (where === '/login') throw new KeyRejectedError('Gumroad refused the session key (it sent the library to its login page)');
      throw new TransientError(`Gumroad sent the library to ${where || 'another page'} (is the account's e-mail address confirmed?)`);
    }
    if (answer.status !== 200) throw new TransientError(`Gumroad answered ${answer.status} for the library`);
    const found = findComponent(answer.body, COMPONENTS.library);
    if (!found) throw new TransientError('Gumroad answered the library in a shape this importer does not understand (no library props)');
    return parse(libraryProps, found.props, 'the library');
  };

  /**
   * Gumroad asks for the buyer's e-mail when a purchase is not the logged-in account's, which is also
   * how every download looks once the session has ended: the library tells which.
   */
  const confirmation = async (): Promise<DownloadOutcome> => {
    await library(1);
    return { kind: 'skip', reason: 'Gumroad asks to confirm the e-mail address it was bought with' };
  };

  return {
    client,
    library,
    async downloadPage(url) {
      let answer: TextAnswer;
      try {
        answer = await page(url);
      } catch (error) {
        // A coffee or call purchase redirects to a page on the creator's own domain, outside the allowlist.
        if (error instanceof ForbiddenHostError) return { kind: 'skip', reason: 'Gumroad sent it to another site' };
        throw error;
      }
      if (answer.status === 404) return { kind: 'skip', reason: 'Gumroad answered 404 (refunded or removed)' };
      const path = pathOf(answer.url);
      const ended = /^\/r\/[^/]+\/(expired|rental_expired|membership_inactive|check_purchaser)$/.exec(path);
      if (ended) return { kind: 'skip', reason: WHY[ended[1]] };
      if (path === '/confirm') return confirmation();
      if (path === '/library') return { kind: 'skip', reason: 'a bundle (its products are imported one by one)' };
      const pages = pageComponents(answer.body);
      const found = pages.find((p) => (COMPONENTS.download as readonly string[]).includes(p.component));
      if (found) return { kind: 'ok', props: parse(downloadProps, found.props, 'a download page'), url: answer.url };
      if (pages.some((p) => (COMPONENTS.confirm as readonly string[]).includes(p.component))) return confirmation();
      if (pages.length) return { kind: 'skip', reason: `Gumroad shows no content page for it (${pages[0].component})` };
      throw new TransientError('Gumroad answered a download page in a shape this importer does not understand (no page props)');
    },
    async productPage(url) {
      const answer = await page(url);
      if (answer.status === 404) return undefined;
      const found = findComponent(answer.body, COMPONENTS.product);
      if (!found)
        throw new TransientError('Gumroad answered a product page in a shape this importer does not understand (no product props)');
      return parse(productProps, found.props, 'a product page').product;
    },
    async fileUrl(url) {
      const answer = await client.requestText(url, { headers: { accept: ACCEPT }, redirect: 'manual', allowStatuses: [403, 404, 410] });
      const location = answer.headers.location;
      if (answer.status >= 300 && answer.status < 400 && location) {
        const target = new URL(String(location), url);
        if (target.pathname.startsWith('/d/')) return { reason: 'Gumroad is still preparing it' };
        if (target.pathname === '/confirm' || target.pathname === '/login') {
          await library(1);
          return { reason: 'Gumroad asks to confirm the e-mail address it was bought with' };
        }
        return { url: target.toString() };
      }
      return { reason: `the paysite answered ${answer.status}` };
    },
  };
}
