/**
 * The operator's endpoints, answered by the front server before the API and the pages, never cached:
 * - GET /healthz: 200 {"status":"ok"} whenever the process answers (no database work);
 * - GET /readyz: 200 {"status":"ready","checks":{...}} or 503 {"status":"unavailable","checks":{...}}
 *   naming the failing checks (health.ts);
 * - GET /metrics: the Prometheus text (metrics.ts), for a scraper with `Authorization: Bearer
 *   <METRICS_TOKEN>` or a client on a loopback address. Without a token from elsewhere: 403; with a
 *   wrong token (from anywhere): 401 with `WWW-Authenticate: Bearer`. Session cookies play no part.
 */
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Store } from '../data/store.ts';
import type { Config } from '../config.ts';
import { readiness } from './health.ts';
import type { ServerMetrics } from './metrics.ts';
import type { Logger } from './logger.ts';

export const OPERATOR_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

export interface OperatorDeps {
  db: Store;
  config: Pick<Config, 'dataDir' | 'minFreeDiskMb' | 'metricsToken' | 'trustProxy'>;
  metrics?: ServerMetrics;
  logger?: Logger;
}

export type MetricsAccess = 'allowed' | 'forbidden' | 'unauthorized';

/** The client's address: the socket's, or behind a trusted proxy the last X-Forwarded-For entry. */
function clientOf(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = req.headers['x-forwarded-for'];
  if (trustProxy && forwarded) {
    const last = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded)
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .at(-1);
    if (last) return last;
  }
  return req.socket.remoteAddress ?? '';
}

export function isLoopback(address: string): boolean {
  const plain = address.toLowerCase().replace(/^::ffff:/, '');
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => crypto.createHash('sha256').update(value).digest();
  return crypto.timingSafeEqual(digest(given), digest(expected)) && expected.length > 0;
}

/** Who may read /metrics: a right bearer token, or (with no Authorization at all) a loopback client. */
export function metricsAccess(req: IncomingMessage, config: OperatorDeps['config']): MetricsAccess {
  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    const token = /^Bearer +(\S+) *$/i.exec(authorization)?.[1] ?? '';
    return sameSecret(token, config.metricsToken) ? 'allowed' : 'unauthorized';
  }
  return isLoopback(clientOf(req, config.trustProxy)) ? 'allowed' : 'forbidden';
}

function answer(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
) {
  res.statusCode = status;
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(req.method === 'HEAD' ? undefined : body);
}

const JSON_TYPE = 'application/json; charset=utf-8';
const json = (req: IncomingMessage, res: ServerResponse, status: number, value: unknown, headers?: Record<string, string>) =>
  answer(req, res, status, JSON_TYPE, JSON.stringify(value), headers);

/** Answers the operator's paths; false for every other path. */
export function createOperatorHandler(deps: OperatorDeps) {
  const reportFailure = (check: string, reason: string) => deps.logger?.warn({ check, reason }, `readiness check ${check} failed`);

  async function serveMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const access = metricsAccess(req, deps.config);
    if (access === 'unauthorized') {
      json(req, res, 401, { error: 'A valid metrics token is required.' }, { 'WWW-Authenticate': 'Bearer' });
    } else if (access === 'forbidden') {
      json(req, res, 403, { error: 'Metrics are served to loopback clients or with the metrics token only.' });
    } else if (!deps.metrics) {
      json(req, res, 404, { error: 'Metrics are off.' });
    } else {
      const text = await deps.metrics.registry.metrics();
      answer(req, res, 200, deps.metrics.registry.contentType, text);
    }
  }

  return function handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> | undefined {
    if (!(OPERATOR_PATHS as readonly string[]).includes(pathname)) return undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      json(req, res, 405, { error: `Method ${req.method} is not allowed on this path.` }, { Allow: 'GET, HEAD' });
      return Promise.resolve();
    }
    if (pathname === '/healthz') {
      json(req, res, 200, { status: 'ok' });
    } else if (pathname === '/readyz') {
      return readiness(deps.db, deps.config.dataDir, deps.config.minFreeDiskMb, reportFailure).then(({ ready, checks }) =>
        json(req, res, ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', checks }),
      );
    } else {
      return serveMetrics(req, res);
    }
    return Promise.resolve();
  };
}
