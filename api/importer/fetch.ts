/**
 * How importers reach a paysite. Only the paysite's own hosts are contacted: every URL, including each
 * redirect hop, must be https (http only for an allowed private test address) on a host of the
 * endpoint's allowlist, and the address a host name resolves to is checked at connect time (a custom
 * `lookup`), so a DNS answer pointing at a private or loopback address is refused even for an allowed
 * name. Each request has a deadline; file downloads stream into the content-addressed store with a size
 * cap. Paysite answers map onto the worker's errors: a refused key is KeyRejectedError, 429 / 5xx /
 * network trouble is TransientError (with Retry-After), other 4xx is PaysiteRequestError.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ImporterConfig, PaysiteEndpoint } from '../config.ts';
import { FileTooLargeError, storeStream, type StoredFile } from '../media/store.ts';
import { type CookieJar, cookieHeaderFor, keepSetCookies } from './cookies.ts';
import { KeyRejectedError, TransientError } from './errors.ts';
import { parseJsonText, parseUrl } from '@shared/parse.ts';

/** A 4xx the paysite gave that is neither a refused key nor a rate limit (e.g. 404 for a deleted post). */
export class PaysiteRequestError extends Error {
  override name = 'PaysiteRequestError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** A URL outside the paysite's allowlist, or a host resolving to a refused address. */
export class ForbiddenHostError extends Error {
  override name = 'ForbiddenHostError';
}

export interface PaysiteClientOptions {
  /** For messages: 'Patreon'. */
  label: string;
  endpoint: PaysiteEndpoint;
  importer: ImporterConfig;
  /** Sent with requests to the credential hosts (cookies, authorization); never logged. */
  headers: Record<string, string>;
  /**
   * Hosts that get `headers` besides the base URL's host (same matching as the allowlist); default the
   * endpoint's credential hosts, else none, so a session cookie never travels to a file CDN, even
   * through a redirect.
   */
  credentialHosts?: string[];
  /** Sent with every request (e.g. a user agent). */
  publicHeaders?: Record<string, string>;
  signal: AbortSignal;
  /** Statuses meaning the session key was refused; default [401]. */
  keyRejectedStatuses?: number[];
  /** Waits for a 429 whose Retry-After is at most this long, then asks again (default 60 s); longer ones end the try. */
  maxInlineRetryAfterMs?: number;
  /**
   * Cookies the paysite's hosts set are kept here and sent back where they belong (cookies.ts), on top of
   * the credential headers; for sites whose session or CSRF cookie changes while the import talks to them.
   */
  cookies?: CookieJar;
}

export interface RequestInit {
  headers?: Record<string, string>;
  method?: string;
  body?: string;
  /** 'manual' answers a redirect itself (its Location in the headers) instead of following it. */
  redirect?: 'follow' | 'manual';
  /** Statuses answered to the caller as they are instead of becoming errors (e.g. a site's 302 to its login page). */
  allowStatuses?: number[];
}

export interface JsonAnswer<T> {
  status: number;
  body: T;
  headers: http.IncomingHttpHeaders;
}

export interface DownloadedFile extends StoredFile {
  mime: string | null;
}

export interface TextAnswer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
  /** Where the answer came from, after redirects. */
  url: string;
}

export interface BytesAnswer {
  status: number;
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

export interface DownloadInit {
  headers?: Record<string, string>;
  /** Told the bytes received so far and the announced size (NaN when unknown), as they arrive. */
  onProgress?: (received: number, total: number) => void;
}

const MAX_REDIRECTS = 5;
const MAX_JSON_BYTES = 32 * 1024 * 1024;

const refused = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  refused.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  refused.addSubnet(address, prefix, 'ipv6');
}

/** Whether an address is loopback, private, link-local, multicast or otherwise not on the public internet. */
export function isRefusedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return refused.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return refused.check(mapped[1], 'ipv4');
    return refused.check(address, 'ipv6');
  }
  return true;
}

/** Whether a host name is on the endpoint's allowlist (its base URL's host, or a listed name / '.suffix'). */
export function isAllowedHost(endpoint: PaysiteEndpoint, hostname: string): boolean {
  const bare = (name: string) => name.toLowerCase().replace(/^\[|\]$/g, '');
  const host = bare(hostname);
  if (host === bare(new URL(endpoint.baseUrl).hostname)) return true;
  return endpoint.hosts.map(bare).some((allowed) => (allowed.startsWith('.') ? host.endsWith(allowed) : host === allowed));
}

function retryAfterMs(value: string | string[] | undefined, body?: unknown): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw) {
    const seconds = Number(raw);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(raw);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  // Discord also says it in the body, in seconds.
  const inBody = (body as { retry_after?: unknown } | undefined)?.retry_after;
  return typeof inBody === 'number' && Number.isFinite(inBody) ? inBody * 1000 : undefined;
}

export interface PaysiteClient {
  /** GETs JSON from a URL (absolute, or a path under the endpoint's base URL). */
  getJson<T = unknown>(url: string, init?: { headers?: Record<string, string> }): Promise<T>;
  /** Same, with the status and headers (paging by Link headers and the like). */
  requestJson<T = unknown>(
    url: string,
    init?: { headers?: Record<string, string>; method?: string; body?: string },
  ): Promise<JsonAnswer<T>>;
  /** GETs (or sends) anything and answers its text: HTML pages, form posts, answers judged by their body. */
  requestText(url: string, init?: RequestInit): Promise<TextAnswer>;
  /** GETs bytes into memory (a video segment, a key), capped at IMPORTER_MAX_FILE_MB. */
  requestBytes(url: string, init?: RequestInit): Promise<BytesAnswer>;
  /** Streams a file into the store under filesDir; FileTooLargeError past IMPORTER_MAX_FILE_MB (nothing kept). */
  download(url: string, filesDir: string, ext: string, init?: DownloadInit): Promise<DownloadedFile>;
  /** An absolute URL of a path under the endpoint's base URL. */
  url(pathOrUrl: string): string;
}

export function createPaysiteClient(options: PaysiteClientOptions): PaysiteClient {
  const { endpoint, importer, signal, label } = options;
  const keyRejected = options.keyRejectedStatuses ?? [401];
  const maxInlineWait = options.maxInlineRetryAfterMs ?? 60_000;

  const credentialEndpoint: PaysiteEndpoint = {
    baseUrl: endpoint.baseUrl,
    hosts: options.credentialHosts ?? endpoint.credentialHosts ?? [],
  };
  const sendsCredentials = (url: URL) => isAllowedHost(credentialEndpoint, url.hostname);

  const resolve = (pathOrUrl: string) =>
    /^https?:\/\//i.test(pathOrUrl) ? pathOrUrl : `${endpoint.baseUrl}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;

  const checkUrl = (raw: string): URL => {
    const url = parseUrl(raw);
    if (!url) throw new ForbiddenHostError(`${label} gave a URL that is not valid.`);
    if (!isAllowedHost(endpoint, url.hostname))
      throw new ForbiddenHostError(`${label} pointed at ${url.hostname}, which is not one of its hosts.`);
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    const privateOk = importer.allowPrivateAddresses && (net.isIP(literal) === 0 ? false : isRefusedAddress(literal));
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && privateOk)) throw new ForbiddenHostError(`${label} URL must use https.`);
    if (url.username || url.password) throw new ForbiddenHostError(`${label} gave a URL with credentials.`);
    return url;
  };

  const lookup: net.LookupFunction = (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as dns.LookupAddress[];
      const allowed = list.filter((entry) => importer.allowPrivateAddresses || !isRefusedAddress(entry.address));
      if (allowed.length === 0) return callback(new ForbiddenHostError(`${label} host ${hostname} resolves to a refused address.`), '', 4);
      if ((lookupOptions as dns.LookupOptions).all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0].address, allowed[0].family);
    });
  };

  /** One request with redirects followed by hand (each hop checked); resolves with the response head. */
  const cookieHeader = (url: URL): Record<string, string> => {
    const fromJar = options.cookies ? cookieHeaderFor(options.cookies, url) : undefined;
    const fromKey = sendsCredentials(url) ? options.headers.cookie : undefined;
    const both = [fromKey, fromJar].filter(Boolean).join('; ');
    return both ? { cookie: both } : {};
  };

  const open = async (raw: string, init: RequestInit, deadline: AbortSignal): Promise<{ res: http.IncomingMessage; url: URL }> => {
    let url = checkUrl(raw);
    for (let hop = 0; ; hop++) {
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (net.isIP(literal) && isRefusedAddress(literal) && !importer.allowPrivateAddresses) {
        throw new ForbiddenHostError(`${label} host ${literal} is a refused address.`);
      }
      const res = await new Promise<http.IncomingMessage>((resolveResponse, reject) => {
        const requester = url.protocol === 'https:' ? https : http;
        const req = requester.request(url, {
          method: init.method ?? 'GET',
          headers: {
            accept: 'application/json',
            ...options.publicHeaders,
            ...(sendsCredentials(url) ? options.headers : {}),
            ...cookieHeader(url),
            ...init.headers,
          },
          lookup,
          signal: deadline,
        });
        req.on('response', resolveResponse);
        req.on('error', reject);
        req.end(init.body);
      });
      if (options.cookies) keepSetCookies(options.cookies, url, res.headers['set-cookie']);
      const location = res.headers.location;
      if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location && init.redirect !== 'manual') {
        res.resume();
        if (hop >= MAX_REDIRECTS) throw new TransientError(`${label} redirected too many times`);
        url = checkUrl(new URL(location, url).toString());
        continue;
      }
      return { res, url };
    }
  };

  const readBytes = async (res: http.IncomingMessage, cap: number, tooLarge: () => Error): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res) {
      size += (chunk as Buffer).length;
      if (size > cap) {
        res.destroy();
        throw tooLarge();
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  };
  const readBody = async (res: http.IncomingMessage): Promise<string> =>
    (await readBytes(res, MAX_JSON_BYTES, () => new TransientError(`${label} answer too large`))).toString('utf8');

  /** Runs one attempt under a deadline, turning network failures into TransientError. */
  const attempt = async <T>(timeoutMs: number, fn: (deadline: AbortSignal) => Promise<T>): Promise<T> => {
    const deadline = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
    try {
      return await fn(deadline);
    } catch (error) {
      // A file past the cap (found while streaming) is the paysite's answer, not a network failure: skipped, not retried.
      if (error instanceof FileTooLargeError) throw error;
      if (
        error instanceof KeyRejectedError ||
        error instanceof TransientError ||
        error instanceof PaysiteRequestError ||
        error instanceof ForbiddenHostError
      )
        throw error;
      if (signal.aborted) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      throw new TransientError(
        deadline.aborted ? `${label} did not answer in time` : `${label} could not be reached${code ? ` (${code})` : ''}`,
      );
    }
  };

  /** Checks the status; waits out a short 429 and says so by returning 'again'. */
  const judge = async (status: number, headers: http.IncomingHttpHeaders, body: unknown): Promise<'ok' | 'again'> => {
    if (status >= 200 && status < 300) return 'ok';
    if (keyRejected.includes(status)) throw new KeyRejectedError(`${label} refused the session key (${status})`);
    if (status === 429) {
      const wait = retryAfterMs(headers['retry-after'], body);
      if (wait !== undefined && wait <= maxInlineWait) {
        await sleep(wait, undefined, { signal });
        return 'again';
      }
      throw new TransientError(`${label} rate limit reached (429)`, wait);
    }
    if (status >= 500 || status === 408) throw new TransientError(`${label} answered ${status}`, retryAfterMs(headers['retry-after']));
    throw new PaysiteRequestError(`${label} answered ${status}`, status);
  };

  const requestText = async (pathOrUrl: string, init: RequestInit = {}): Promise<TextAnswer> => {
    for (let tries = 0; ; tries++) {
      const answer = await attempt(importer.timeoutMs, async (deadline) => {
        const { res, url } = await open(resolve(pathOrUrl), { ...init, headers: { accept: '*/*', ...init.headers } }, deadline);
        return { status: res.statusCode ?? 0, headers: res.headers, body: await readBody(res), url: url.toString() };
      });
      if (init.allowStatuses?.includes(answer.status)) return answer;
      if (init.redirect === 'manual' && answer.status >= 300 && answer.status < 400) return answer;
      if ((await judge(answer.status, answer.headers, undefined)) === 'again' && tries < 5) continue;
      if (answer.status === 429) throw new TransientError(`${label} rate limit reached (429)`);
      return answer;
    }
  };

  const requestBytes = async (pathOrUrl: string, init: RequestInit = {}): Promise<BytesAnswer> => {
    for (let tries = 0; ; tries++) {
      const answer = await attempt(importer.timeoutMs * 10, async (deadline) => {
        const { res } = await open(resolve(pathOrUrl), { ...init, headers: { accept: '*/*', ...init.headers } }, deadline);
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          res.resume();
          return { status, headers: res.headers, body: Buffer.alloc(0) };
        }
        const body = await readBytes(res, importer.maxFileBytes, () => new FileTooLargeError(importer.maxFileBytes));
        return { status, headers: res.headers, body };
      });
      if (init.allowStatuses?.includes(answer.status)) return answer;
      if ((await judge(answer.status, answer.headers, undefined)) === 'again' && tries < 5) continue;
      if (answer.status === 429) throw new TransientError(`${label} rate limit reached (429)`);
      return answer;
    }
  };

  const requestJson = async <T>(pathOrUrl: string, init: RequestInit = {}): Promise<JsonAnswer<T>> => {
    for (let tries = 0; ; tries++) {
      const answer = await attempt(importer.timeoutMs, async (deadline) => {
        const { res } = await open(resolve(pathOrUrl), init, deadline);
        const text = await readBody(res);
        // undefined: not JSON (an empty answer is null).
        const body = text ? parseJsonText(text)?.value : null;
        return { status: res.statusCode ?? 0, headers: res.headers, body };
      });
      if ((await judge(answer.status, answer.headers, answer.body)) === 'again' && tries < 5) continue;
      if (answer.status === 429) throw new TransientError(`${label} rate limit reached (429)`);
      if (answer.body === undefined) throw new TransientError(`${label} answered something that is not JSON`);
      return answer as JsonAnswer<T>;
    }
  };

  return {
    url: resolve,
    requestJson,
    requestText,
    requestBytes,
    async getJson<T>(pathOrUrl: string, init?: { headers?: Record<string, string> }) {
      return (await requestJson<T>(pathOrUrl, init)).body;
    },
    async download(pathOrUrl, filesDir, ext, init = {}) {
      for (let tries = 0; ; tries++) {
        const result = await attempt(importer.timeoutMs * 10, async (deadline) => {
          const { res } = await open(resolve(pathOrUrl), { headers: { accept: '*/*', ...init.headers } }, deadline);
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) {
            res.resume();
            return { again: (await judge(status, res.headers, undefined)) === 'again' };
          }
          const declared = Number(res.headers['content-length']);
          if (Number.isFinite(declared) && declared > importer.maxFileBytes) {
            res.destroy();
            return { file: undefined, tooBig: true };
          }
          const stored = await storeStream(filesDir, init.onProgress ? reporting(res, declared, init.onProgress) : res, ext, {
            maxBytes: importer.maxFileBytes,
          });
          const type = res.headers['content-type']?.split(';')[0].trim().toLowerCase() || null;
          return { file: { ...stored, mime: type } };
        });
        if ('again' in result && result.again && tries < 5) continue;
        if ('file' in result && result.file) return result.file;
        if ('tooBig' in result) throw new FileTooLargeError(importer.maxFileBytes);
        throw new TransientError(`${label} rate limit reached (429)`);
      }
    },
  };
}

/** Passes a download's chunks through, telling `onProgress` how far it got. */
async function* reporting(source: AsyncIterable<Uint8Array>, total: number, onProgress: (received: number, total: number) => void) {
  let received = 0;
  for await (const chunk of source) {
    received += chunk.byteLength;
    onProgress(received, total);
    yield chunk;
  }
}
