/**
 * The islands' API client (docs/product.md#api-client), written once. Browser-safe: no node imports.
 *
 * - Same-origin credentials; a JSON body sets Content-Type: application/json (FormData and
 *   URLSearchParams bodies go as they are).
 * - v2: request bodies are wrapped as {type, data}; answers are unwrapped from `data`; errors carry
 *   the server's error type and message (ApiError.serverType / serverMessage).
 * - Errors are ApiError with the section 8 messages. A 401 also clears the local login state.
 * - GET answers are cached for CLIENT_CACHE_MS (5 minutes; concurrent identical GETs share one
 *   request); any other method empties the cache, so "act, then reload" always reloads.
 * - A GET of a creator's profile or of one post carries If-Modified-Since one year back, as kemono's
 *   site sends it; a 304 to it (nothing changed in that year) is asked again
 *   without the header, since the client keeps no copy to reuse.
 * - Network failures and 5xx answers are retried up to FETCH_RETRIES times, waiting
 *   FETCH_BACKOFF_START_MS doubled each time and capped at FETCH_BACKOFF_MAX_MS. Only GET and HEAD
 *   retry unless a request asks to (retrying a POST could repeat its effect). 4xx never retry.
 *
 * Usage: `await api.v1.get<Account>(apiPaths.account())`, with the path builders of shared/api-paths.ts.
 */
import { CLIENT_CACHE_MS, FETCH_BACKOFF_MAX_MS, FETCH_BACKOFF_START_MS, FETCH_RETRIES } from '@shared/constants.ts';
import { clearLoginState } from './stores/session.ts';
import { parseJsonText, parseUrl } from '@shared/parse.ts';

export type ApiVersionNumber = 1 | 2;
export type ApiMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

export interface RequestOptions {
  /** Query parameters; arrays repeat the parameter (tag=a&tag=b); null and undefined are left out. */
  query?: Record<string, QueryValue>;
  /** JSON-encoded unless FormData, URLSearchParams, Blob or a string. v2 wraps it as {type, data}. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Use the 5-minute GET cache (default true for GET). */
  cache?: boolean;
  /** Retry network failures and 5xx (default: GET and HEAD only). */
  retry?: boolean;
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  /** Origin (and optional prefix) in front of /api; '' (default) is the page's own origin. */
  baseUrl?: string;
  fetch?: typeof globalThis.fetch;
  /** How to wait between retries (tests inject one that records the delays). */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  cacheMs?: number;
  retries?: number;
  /** Called on any 401, before the error is raised. Default: clearLoginState(). */
  onUnauthorized?: () => void;
}

/** The messages of docs/product.md#api-client-errors. */
export const API_ERROR_MESSAGES = {
  unauthorized: 'lack of credentials',
  clientInputs: (status: number, statusText: string) => `Failed to fetch from API due to client inputs. Reason: ${status} - ${statusText}.`,
  notFound: (path: string) => `Failed to fetch from API because path ${path} doesn't exist.`,
  unavailable: 'API is in maintenance or not available.',
  server: 'Failed to fetch from API due to server error.',
  unknown: 'Failed to fetch from API for unknown reasons.',
  network: 'Failed to fetch due to client settings.',
} as const;

/** The type v2 request envelopes carry (the server reads only `data`). */
export const V2_REQUEST_TYPE = 'api_request';

export interface ApiErrorDetails {
  /** HTTP status; 0 for a network failure. */
  status: number;
  statusText: string;
  method: string;
  url: string;
  version: ApiVersionNumber;
  /** Parsed JSON body of the error answer, or its text. */
  body?: unknown;
  serverType?: string;
  serverMessage?: string;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  readonly statusText: string;
  readonly method: string;
  readonly url: string;
  readonly version: ApiVersionNumber;
  readonly body: unknown;
  /** v2: the server's error type; v1: undefined. */
  readonly serverType?: string;
  /** The server's own message ({"error": ...} in v1, error.message in v2), when it sent one. */
  readonly serverMessage?: string;

  constructor(message: string, details: ApiErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ApiError';
    this.status = details.status;
    this.statusText = details.statusText;
    this.method = details.method;
    this.url = details.url;
    this.version = details.version;
    this.body = details.body;
    this.serverType = details.serverType;
    this.serverMessage = details.serverMessage;
  }

  /** Where the fault lies, for the error page: 5xx is the server's, everything else the client's. */
  get origin(): 'server' | 'client' {
    return this.status >= 500 ? 'server' : 'client';
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

/** The error page's input guard (docs/product.md#api-client-errors): only ApiErrors pass. */
export function assertApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  throw new Error('Invalid input error type.');
}

/** What a form shows for an error: the server's own message when it sent one. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage || error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Backoff before retry number `attempt` (0-based): 1000, 2000, 4000, ... capped at 30000 ms. */
export function backoffDelay(attempt: number): number {
  return Math.min(FETCH_BACKOFF_START_MS * 2 ** attempt, FETCH_BACKOFF_MAX_MS);
}

function relativePath(url: string): string {
  const parsed = parseUrl(url, 'http://relative.invalid');
  return parsed ? parsed.pathname + parsed.search : url;
}

function buildQuery(query: RequestOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function isRawBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) ||
    (typeof Blob !== 'undefined' && body instanceof Blob)
  );
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 304) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return text;
  // A body that says JSON but is not stays text.
  const parsed = parseJsonText(text);
  return parsed ? parsed.value : text;
}

function bodyText(body: unknown): string {
  if (body === undefined) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

function serverError(body: unknown, version: ApiVersionNumber): { type?: string; message?: string } {
  if (!body || typeof body !== 'object') return {};
  const error = (body as { error?: unknown }).error;
  if (typeof error === 'string') return { message: error };
  if (error && typeof error === 'object') {
    const { type, message } = error as { type?: unknown; message?: unknown };
    return {
      type: version === 2 && typeof type === 'string' ? type : undefined,
      message: typeof message === 'string' ? message : undefined,
    };
  }
  return {};
}

/** The section 8 message for a failed answer. */
export function messageForStatus(status: number, statusText: string, url: string, body?: unknown): string {
  if (status === 401) return API_ERROR_MESSAGES.unauthorized;
  if (status === 400 || status === 422) {
    const text = bodyText(body);
    return API_ERROR_MESSAGES.clientInputs(status, statusText) + (text ? ` ${text}` : '');
  }
  if (status === 404) return API_ERROR_MESSAGES.notFound(relativePath(url));
  if (status === 503) return API_ERROR_MESSAGES.unavailable;
  if (status >= 500) return API_ERROR_MESSAGES.server;
  return API_ERROR_MESSAGES.unknown;
}

/** The GETs (paths under a version base) that carry If-Modified-Since: a creator's profile and one post. */
const DATED_PATHS = [/^\/[^/?#]+\/user\/[^/?#]+\/profile$/, /^\/[^/?#]+\/user\/[^/?#]+\/post\/[^/?#]+$/];

/**
 * The If-Modified-Since a GET of `path` sends: the HTTP date one year before `now` for a profile or a
 * post, else undefined (also when the caller set the header itself).
 */
export function ifModifiedSinceFor(path: string, headers: Record<string, string> | undefined, now: number): string | undefined {
  if (!DATED_PATHS.some((pattern) => pattern.test(path))) return undefined;
  if (headers && Object.keys(headers).some((name) => name.toLowerCase() === 'if-modified-since')) return undefined;
  const date = new Date(now);
  date.setUTCFullYear(date.getUTCFullYear() - 1);
  return date.toUTCString();
}

function isRetryable(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

function isAbort(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === 'AbortError';
}

export interface VersionedApi {
  get<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  patch<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
}

export interface ApiClient {
  request<T = unknown>(version: ApiVersionNumber, method: ApiMethod, path: string, options?: RequestOptions): Promise<T>;
  v1: VersionedApi;
  v2: VersionedApi;
  /** Forgets every cached GET answer. */
  clearCache(): void;
}

export function createApiClient(clientOptions: ApiClientOptions = {}): ApiClient {
  const baseUrl = (clientOptions.baseUrl ?? '').replace(/\/+$/, '');
  const cacheMs = clientOptions.cacheMs ?? CLIENT_CACHE_MS;
  const retries = clientOptions.retries ?? FETCH_RETRIES;
  const now = clientOptions.now ?? (() => Date.now());
  const sleep = clientOptions.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const onUnauthorized = clientOptions.onUnauthorized ?? clearLoginState;
  const cache = new Map<string, { expires: number; value: Promise<unknown> }>();

  async function once(version: ApiVersionNumber, method: ApiMethod, url: string, options: RequestOptions): Promise<unknown> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    let body: BodyInit | undefined;
    if (options.body !== undefined && method !== 'GET' && method !== 'HEAD') {
      const payload = version === 2 && !isRawBody(options.body) ? { type: V2_REQUEST_TYPE, data: options.body } : options.body;
      if (isRawBody(payload)) {
        body = payload;
      } else {
        body = JSON.stringify(payload);
        headers['Content-Type'] = 'application/json';
      }
    }
    const doFetch = clientOptions.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await doFetch(url, { method, headers, body, credentials: 'same-origin', signal: options.signal });
    } catch (cause) {
      if (isAbort(cause)) throw cause;
      throw new ApiError(API_ERROR_MESSAGES.network, { status: 0, statusText: '', method, url, version, cause });
    }
    let parsed: unknown;
    try {
      parsed = await readBody(response);
    } catch (cause) {
      if (isAbort(cause)) throw cause;
      throw new ApiError(API_ERROR_MESSAGES.network, {
        status: 0,
        statusText: '',
        method,
        url,
        version,
        cause,
      });
    }
    if (response.ok) {
      if (version === 2 && parsed && typeof parsed === 'object' && 'data' in parsed) {
        return (parsed as { data: unknown }).data;
      }
      return parsed;
    }
    if (response.status === 401) onUnauthorized();
    const server = serverError(parsed, version);
    throw new ApiError(messageForStatus(response.status, response.statusText, url, parsed), {
      status: response.status,
      statusText: response.statusText,
      method,
      url,
      version,
      body: parsed,
      serverType: server.type,
      serverMessage: server.message,
    });
  }

  async function withRetries(version: ApiVersionNumber, method: ApiMethod, url: string, options: RequestOptions): Promise<unknown> {
    const retry = options.retry ?? (method === 'GET' || method === 'HEAD');
    for (let attempt = 0; ; attempt++) {
      try {
        return await once(version, method, url, options);
      } catch (error) {
        if (!retry || attempt >= retries || !isRetryable(error) || options.signal?.aborted) throw error;
        await sleep(backoffDelay(attempt));
      }
    }
  }

  /** A GET, dated with If-Modified-Since when it is a profile or a post (ifModifiedSinceFor). */
  async function get(version: ApiVersionNumber, url: string, path: string, options: RequestOptions): Promise<unknown> {
    const since = ifModifiedSinceFor(path, options.headers, now());
    if (!since) return withRetries(version, 'GET', url, options);
    try {
      return await withRetries(version, 'GET', url, { ...options, headers: { ...options.headers, 'If-Modified-Since': since } });
    } catch (error) {
      if (error instanceof ApiError && error.status === 304) return withRetries(version, 'GET', url, options);
      throw error;
    }
  }

  async function request<T>(version: ApiVersionNumber, method: ApiMethod, rawPath: string, options: RequestOptions = {}): Promise<T> {
    const path = rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
    const url = `${baseUrl}/api/v${version}${path}${buildQuery(options.query)}`;
    if (method !== 'GET') {
      try {
        return (await withRetries(version, method, url, options)) as T;
      } finally {
        cache.clear();
      }
    }
    if (options.cache === false) return (await get(version, url, path, options)) as T;
    const key = url;
    const hit = cache.get(key);
    if (hit && hit.expires > now()) return (await hit.value) as T;
    const value = get(version, url, path, options);
    const entry = { expires: now() + cacheMs, value };
    cache.set(key, entry);
    try {
      return (await value) as T;
    } catch (error) {
      if (cache.get(key) === entry) cache.delete(key);
      if (error instanceof ApiError && error.status === 401) cache.clear();
      throw error;
    }
  }

  const versioned = (version: ApiVersionNumber): VersionedApi => ({
    get: (path, options) => request(version, 'GET', path, options),
    post: (path, body, options) => request(version, 'POST', path, { ...options, body }),
    put: (path, body, options) => request(version, 'PUT', path, { ...options, body }),
    patch: (path, body, options) => request(version, 'PATCH', path, { ...options, body }),
    delete: (path, options) => request(version, 'DELETE', path, options),
  });

  return {
    request,
    v1: versioned(1),
    v2: versioned(2),
    clearCache: () => cache.clear(),
  };
}

/** The client the islands use: same origin, default retries and cache. */
export const api: ApiClient = createApiClient();
