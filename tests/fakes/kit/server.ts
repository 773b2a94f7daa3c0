/**
 * The HTTP side every fake paysite shares: hosts on 127.0.0.1 (port 0: any free one) that log each
 * request with the status it got and wait a delay first, the knobs (429 / 5xx for the next N requests,
 * a clock tests can move on), and the small answer helpers (bytes, JSON, HTML, bytes with Range,
 * redirects, Rails' "You are being redirected." page) and request readers (cookies, headers, bodies).
 * What a site answers and refuses stays in the site's own file.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { escapeHtml } from '@shared/html.ts';

/** One request as a fake logs it. */
export interface FakeRequestLog {
  method: string;
  /** Which of the fake's hosts it reached ('api', 'cdn', 'www', a site's own name for a host...). */
  host: string;
  /** Path with the query string. */
  path: string;
  /** The status of the answer (0 until its head is written). */
  status: number;
  /** Only the request headers that matter to the site (auth, cookies, signing, Origin/Referer, Range...). */
  headers: Record<string, string>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => unknown;

export interface FakeHost {
  /** 'http://127.0.0.1:<port>' */
  origin: string;
  server: http.Server;
  close(): Promise<void>;
}

export interface HostOptions {
  /** 0 or absent: any free port. */
  port?: number;
  /** Records the request; the `status` of the entry it returns follows the head the handler writes. */
  log?: (req: http.IncomingMessage, url: URL) => { status: number } | undefined;
  /** Milliseconds to wait before answering this request. */
  delay?: (url: URL) => number;
  handler: Handler;
}

/**
 * A node:http server on 127.0.0.1 that hands each request to `handler` with its URL (resolved against
 * the host's own origin), after logging it and waiting `delay`; a handler that throws answers 500.
 */
export async function startHost(options: HostOptions): Promise<FakeHost> {
  const server = http.createServer();
  let origin = '';
  server.on('request', async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const entry = options.log?.(req, url);
    if (entry) {
      const writeHead = res.writeHead.bind(res);
      res.writeHead = ((status: number, ...rest: never[]) => {
        entry.status = status;
        return writeHead(status, ...rest);
      }) as typeof res.writeHead;
    }
    try {
      const wait = options.delay?.(url) ?? 0;
      if (wait > 0) await sleep(wait);
      await options.handler(req, res, url);
    } catch (error) {
      if (!res.headersSent) send(res, 500, `fake server error: ${(error as Error).message}`, 'text/plain');
      else res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A `log` for startHost that appends FakeRequestLog entries (with the named request headers) to `log`. */
export function logInto(log: FakeRequestLog[], host: string | ((url: URL) => string), headerNames: string[]) {
  return (req: http.IncomingMessage, url: URL): FakeRequestLog => {
    const headers: Record<string, string> = {};
    for (const name of headerNames) {
      const value = req.headers[name];
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const entry: FakeRequestLog = {
      method: req.method ?? 'GET',
      host: typeof host === 'string' ? host : host(url),
      path: url.pathname + url.search,
      status: 0,
      headers,
    };
    log.push(entry);
    return entry;
  };
}

export type Fault = { kind: 'limit'; retryAfter: number } | { kind: 'fail'; status: number };

/** The "next n requests answer 429 / a 5xx" knobs; each site decides which requests take from them. */
export class Faults {
  private limited = { n: 0, retryAfter: 0 };
  private failing = { n: 0, status: 503 };

  /** `failStatus`: the status fail() uses when it is given none. */
  constructor(private readonly failStatus = 503) {}

  readonly rateLimit = (n: number, retryAfterSeconds = 0): void => {
    this.limited = { n, retryAfter: retryAfterSeconds };
  };

  readonly fail = (n: number, status = this.failStatus): void => {
    this.failing = { n, status };
  };

  /** The fault this request gets, if any (rate limits first), counted down. */
  take(): Fault | null {
    if (this.limited.n > 0) {
      this.limited.n--;
      return { kind: 'limit', retryAfter: this.limited.retryAfter };
    }
    if (this.failing.n > 0) {
      this.failing.n--;
      return { kind: 'fail', status: this.failing.status };
    }
    return null;
  }
}

/** A fake's clock: the real one, moved on by tests (tokens, sessions and signed URLs age with it). */
export class Clock {
  private offsetMs = 0;
  readonly now = (): number => Date.now() + this.offsetMs;
  readonly advance = (seconds: number): void => {
    this.offsetMs += seconds * 1000;
  };
}

// ---------------------------------------------------------------------------------------------
// Answers

export function send(
  res: http.ServerResponse,
  status: number,
  body: string | Buffer,
  type: string,
  headers: http.OutgoingHttpHeaders = {},
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'content-type': type, 'content-length': bytes.length, ...headers });
  res.end(bytes);
}

/** A JSON answer with this Content-Type (the sites differ: with or without a charset, JSON:API's own type). */
export const jsonAs =
  (type: string) =>
  (res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void =>
    send(res, status, JSON.stringify(body), type, headers);

export const sendJson = jsonAs('application/json; charset=utf-8');

export const sendHtml = (res: http.ServerResponse, status: number, html: string, headers: http.OutgoingHttpHeaders = {}) =>
  send(res, status, html, 'text/html; charset=utf-8', headers);

/** Bytes with Range support: 206 with Content-Range for `bytes=a-b` / `a-` / `-n`, 416 past the end. */
export function sendBytes(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: Buffer,
  type: string,
  headers: Record<string, string> = {},
) {
  const common = { 'content-type': type, 'accept-ranges': 'bytes', ...headers };
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (req.headers.range && range && (range[1] || range[2])) {
    let start = range[1] ? Number(range[1]) : Math.max(0, body.length - Number(range[2]));
    let end = range[1] && range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
    if (!range[1]) end = body.length - 1;
    if (start >= body.length || start > end) {
      res.writeHead(416, { ...common, 'content-range': `bytes */${body.length}`, 'content-length': 0 });
      return res.end();
    }
    start = Math.max(0, start);
    res.writeHead(206, { ...common, 'content-range': `bytes ${start}-${end}/${body.length}`, 'content-length': end - start + 1 });
    return res.end(req.method === 'HEAD' ? undefined : body.subarray(start, end + 1));
  }
  res.writeHead(200, { ...common, 'content-length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** A bodiless redirect. */
export function redirect(res: http.ServerResponse, location: string, headers: http.OutgoingHttpHeaders = {}, status = 302): void {
  res.writeHead(status, { location, 'content-length': 0, ...headers });
  res.end();
}

/** A Rails redirect: the status, Location, and Rails' own small "You are being redirected." body. */
export function railsRedirect(res: http.ServerResponse, location: string, status = 302, headers: Record<string, string> = {}) {
  sendHtml(res, status, `<html><body>You are being <a href="${escapeHtml(location)}">redirected</a>.</body></html>`, {
    location,
    ...headers,
  });
}

/** The site's own escaping, for the fakes' pages too. */
export { escapeHtml };

// ---------------------------------------------------------------------------------------------
// Requests

/** The cookies of a request, by name (values as sent, not decoded). */
export function cookiesOf(req: http.IncomingMessage): Map<string, string> {
  const jar = new Map<string, string>();
  for (const pair of (req.headers.cookie ?? '').split(/;\s*/)) {
    const i = pair.indexOf('=');
    if (i > 0) jar.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
  }
  return jar;
}

/** A request header's (first) value. */
export function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A small request body (forms, JSON) as text; more than `limit` bytes throws (a 500). */
export async function readBody(req: http.IncomingMessage, limit = 1 << 20): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
