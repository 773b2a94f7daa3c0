/**
 * One log line per answered request (pino-http): method, path without its query string (queries may
 * carry searches), status, duration, the request id, and a few request headers, cookies and credentials
 * redacted (logger.ts). Each request gets an id, sent back as X-Request-Id: the caller's own
 * X-Request-Id when it is short and plain ([A-Za-z0-9._-], up to 64 characters), else a new one.
 * req.log is the request's child logger, so anything logged while answering carries the id.
 *
 * Quiet on purpose: refused request targets (marked with quietRequest) get no line at all, since anyone
 * can send them; 2xx/3xx answers to the health checks log at debug (a load balancer polls them).
 */
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp, type HttpLogger } from 'pino-http';
import type { Logger } from './logger.ts';

const INCOMING_ID = /^[A-Za-z0-9._-]{1,64}$/;
const quiet = new WeakSet<ServerResponse>();
const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

/** This answer gets no log line (a refused request target). */
export function quietRequest(res: ServerResponse): void {
  quiet.add(res);
}

export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : crypto.randomUUID();
}

/** The path of a request target without its query string or fragment. */
export function pathWithoutQuery(url: string | undefined): string {
  return (url ?? '/').split(/[?#]/, 1)[0] ?? '/';
}

/** The request's path as it arrived (Express rewrites req.url inside its routers; originalUrl keeps it). */
function requestPath(req: IncomingMessage): string {
  return pathWithoutQuery((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url);
}

/**
 * The request headers worth a line: who asked and from where (Referer without its query string, since a
 * page's query may hold a search), and whether credentials came (logged as '[redacted]', logger.ts).
 * Not every header: a line per request must stay short.
 */
const LOGGED_HEADERS = ['user-agent', 'referer', 'x-forwarded-for', 'cookie', 'authorization'] as const;

function loggedHeaders(headers: Record<string, unknown> | undefined): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const name of LOGGED_HEADERS) {
    const value = headers?.[name];
    if (value !== undefined) kept[name] = name === 'referer' && typeof value === 'string' ? pathWithoutQuery(value) : value;
  }
  return kept;
}

export function createHttpLogger(logger: Logger): HttpLogger<IncomingMessage, ServerResponse> {
  return pinoHttp({
    logger,
    quietReqLogger: true,
    genReqId: (req, res) => {
      const id = requestId(req);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customAttributeKeys: { reqId: 'request_id', responseTime: 'duration_ms' },
    customLogLevel: (req, res, error) => {
      if (quiet.has(res)) return 'silent';
      if (error || res.statusCode >= 500) return 'error';
      if (HEALTH_PATHS.has(requestPath(req)) && res.statusCode < 400) return 'debug';
      return 'info';
    },
    customSuccessMessage: (req, res, ms) => `${req.method} ${requestPath(req)} ${res.statusCode} ${ms} ms`,
    customErrorMessage: (req, res) => `${req.method} ${requestPath(req)} ${res.statusCode}`,
    // A 5xx answered on purpose (a 503 from /readyz) carries no error of its own: no made-up stack.
    customErrorObject: (_req, res, error, value) =>
      error.message === `failed with status code ${res.statusCode}` ? { ...value, err: undefined } : value,
    serializers: {
      req: (req: { id?: unknown; method?: string; url?: string; headers?: Record<string, unknown>; raw?: IncomingMessage }) => ({
        id: req.id,
        method: req.method,
        path: req.raw ? requestPath(req.raw) : pathWithoutQuery(req.url),
        headers: loggedHeaders(req.headers),
      }),
      res: (res: { statusCode?: number }) => ({ status: res.statusCode }),
    },
  });
}
