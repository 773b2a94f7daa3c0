/**
 * The one HTTP server: a thin node:http layer that refuses unusable request targets (request-target.ts)
 * and then answers, in order, 1. the operator's /healthz, /readyz and /metrics (operator.ts), 2. /api/*
 * with the Express API, 3. media, 4. built assets and prerendered pages, 5. archive pages from the page
 * store, 6. everything else through the Astro SSR handler (archive pages rendered there are written to
 * the store on the way out). Every request gets an id and a completion log line (http-log.ts) and is
 * counted in the metrics under its route label (metrics.ts).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { Express } from 'express';
import { canonicalPageKey, cursorPageKey } from '../pages/keys.ts';
import { sendFile } from './send-file.ts';
import { walkFiles } from './walk.ts';
import { PageStore } from './page-store.ts';
import { IMMUTABLE, REVALIDATE, SECURITY_HEADERS } from './response-headers.ts';
import { ssrLocals, type PageRenderer, type SiteDeps, type SsrHandler } from './ssr.ts';
import { createMediaHandler, type MediaOptions } from './media.ts';
import { answerBadRequest, BAD_TARGET_MESSAGES, hasValidEncoding, isSingleEncoded, targetPath } from './request-target.ts';
import { cameOverHttps, pageSecurityPolicy, STRICT_TRANSPORT_SECURITY, type PageSecuritySettings } from './csp.ts';
import { decodeComponent } from '@shared/parse.ts';
import { labelRoute } from '../http/route-label.ts';
import { createServerMetrics, pageLabel, type ServerMetrics } from './metrics.ts';
import { createOperatorHandler } from './operator.ts';
import { createHttpLogger, quietRequest } from './http-log.ts';
import { pino } from 'pino';
import type { Logger } from './logger.ts';

export interface FrontDeps {
  api: Express;
  clientDir: string;
  media: MediaOptions;
  store: PageStore;
  ssr: SsrHandler;
  renderer: PageRenderer;
  /** The database and settings pages render with (the SSR handler's locals). */
  site: SiteDeps;
  /** What the Content-Security-Policy and Strict-Transport-Security depend on; the site's settings by default. */
  security?: PageSecuritySettings;
  log?: (line: string) => void;
  /** The structured log the request lines go to (logger.ts); none by default. */
  logger?: Logger;
  /** This server's metrics; a new registry by default. */
  metrics?: ServerMetrics;
}

/** Resolves a URL path inside root, refusing anything that would climb out of it. */
export function resolveInside(root: string, urlPath: string): string | undefined {
  const decoded = decodeComponent(urlPath);
  if (decoded === undefined || decoded.includes('\0')) return undefined;
  const resolved = path.join(root, path.normalize(decoded));
  return resolved === root || resolved.startsWith(root + path.sep) ? resolved : undefined;
}

/** The files of a build (dist/client never changes while a build is served), so a miss costs no stat. */
function listBuiltFiles(clientDir: string): Set<string> {
  return new Set([...walkFiles(clientDir)].filter((file) => !/\.(br|gz)$/.test(file)));
}

function serveBuiltAsset(req: IncomingMessage, res: ServerResponse, clientDir: string, builtFiles: Set<string>, pathname: string): boolean {
  const resolved = resolveInside(clientDir, pathname);
  if (!resolved) return false;
  // Prerendered pages are written as <path>/index.html (build.format 'directory').
  const file = pathname.endsWith('/') || !path.extname(pathname) ? path.join(resolved, 'index.html') : resolved;
  if (!builtFiles.has(file)) return false;
  const cacheControl = pathname.startsWith('/_astro/') ? IMMUTABLE : REVALIDATE;
  return sendFile(req, res, file, { precompressed: true, cacheControl });
}

/** A refused request target: a plain 400 with no log line (anyone can send them). */
function refuse(res: ServerResponse, message: string): void {
  quietRequest(res);
  labelRoute(res, 'bad_request');
  answerBadRequest(res, message);
}

export function createFrontHandler(deps: FrontDeps, metrics: ServerMetrics = createServerMetrics(deps.site.db)) {
  const inflight = new Map<string, Promise<boolean>>();
  const settings = deps.security ?? deps.site.config;
  const operator = createOperatorHandler({
    db: deps.site.db,
    config: { ...deps.site.config, trustProxy: settings.trustProxy },
    metrics,
    logger: deps.logger,
  });
  const builtFiles = listBuiltFiles(deps.clientDir);
  const media = createMediaHandler({ log: deps.log, ...deps.media });
  const policy = pageSecurityPolicy(settings);
  const pageOptions = {
    precompressed: true,
    cacheControl: REVALIDATE,
    contentType: 'text/html; charset=utf-8',
    compressMissing: (file: string) => deps.store.compressMissing(file),
  };

  /** Renders an archive page once (concurrent misses share the render) and stores it when it is a 200. */
  function renderIntoStore(key: string): Promise<boolean> {
    let pending = inflight.get(key);
    if (!pending) {
      metrics.pageRendered();
      pending = deps.renderer
        .render(key)
        .then(async (page) => {
          const expected = PageStore.contentTypeOf(key).split(';')[0];
          if (page.status !== 200 || !String(page.headers['content-type'] ?? '').startsWith(expected)) return false;
          await deps.store.write(key, page.body);
          return true;
        })
        .finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    return pending;
  }

  /** Whether the stored page of `key` (rendered into the store first when missing) continues from `after`. */
  async function storedContinuation(key: string, after: string): Promise<boolean> {
    try {
      if (!deps.store.has(key)) await renderIntoStore(key);
    } catch (error) {
      deps.log?.(`render of ${key} failed: ${(error as Error).message}`);
      return false;
    }
    return deps.store.continuesFrom(key) === after;
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? '/';
    const rawPath = targetPath(target);
    if (rawPath === undefined) return refuse(res, BAD_TARGET_MESSAGES.target);
    if (!hasValidEncoding(rawPath)) return refuse(res, BAD_TARGET_MESSAGES.encoding);
    const url = new URL(target, 'http://internal');
    const { pathname } = url;

    labelRoute(res, pathname);
    const operatorAnswer = operator(req, res, pathname);
    if (operatorAnswer !== undefined) return operatorAnswer;
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      // The API's handlers relabel their answers with their route's template.
      labelRoute(res, 'api:unmatched');
      deps.api(req, res);
      return;
    }
    labelRoute(res, 'media');
    if (media(req, res)) return;
    // Everything from here on is a page or a page's asset: stored, prerendered or rendered now.
    res.setHeader('Content-Security-Policy', policy);

    const isRead = req.method === 'GET' || req.method === 'HEAD';
    labelRoute(res, 'asset');
    if (isRead && serveBuiltAsset(req, res, deps.clientDir, builtFiles, pathname)) return;

    // Astro's router logs and refuses these; they are answered here without the log line.
    if (!isSingleEncoded(pathname)) return refuse(res, BAD_TARGET_MESSAGES.encoding);
    const key = isRead ? canonicalPageKey(pathname, url.search) : undefined;
    if (key) {
      const file = deps.store.fileFor(key);
      const options = { ...pageOptions, contentType: PageStore.contentTypeOf(key) };
      labelRoute(res, 'page_store');
      if (sendFile(req, res, file, options)) {
        metrics.pageStoreHit();
        return;
      }
      labelRoute(res, pageLabel(pathname));
      try {
        if ((await renderIntoStore(key)) && sendFile(req, res, file, options)) return;
      } catch (error) {
        deps.log?.(`render of ${key} failed: ${(error as Error).message}`);
      }
    }
    // A Next link (o and a cursor): the stored o page answers when it starts after that same cursor.
    const continued = isRead && !key ? cursorPageKey(pathname, url.search) : undefined;
    if (continued && (await storedContinuation(continued.key, continued.after))) {
      labelRoute(res, 'page_store');
      if (sendFile(req, res, deps.store.fileFor(continued.key), pageOptions)) {
        metrics.pageStoreHit();
        return;
      }
    }
    labelRoute(res, pageLabel(pathname));
    withStandardReason(res);
    deps.ssr(req, res, undefined, ssrLocals(deps.site));
  };
}

/**
 * Astro answers every status with the reason phrase 'OK' unless a page sets one; a 400 page would go
 * out as '400 OK'. Non-200 answers get the standard phrase instead.
 */
function withStandardReason(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    if (status !== 200 && res.statusMessage === 'OK') res.statusMessage = http.STATUS_CODES[status] ?? '';
    return writeHead(status, ...rest);
  }) as ServerResponse['writeHead'];
}

export function createFrontServer(deps: FrontDeps): http.Server {
  const metrics = deps.metrics ?? createServerMetrics(deps.site.db);
  const handle = createFrontHandler(deps, metrics);
  const httpLog = createHttpLogger(deps.logger ?? pino({ level: 'silent' }));
  const trustProxy = (deps.security ?? deps.site.config).trustProxy;
  const server = http.createServer((req, res) => {
    httpLog(req, res);
    metrics.track(req, res);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    if (cameOverHttps(req, trustProxy)) res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    handle(req, res).catch((error: unknown) => {
      req.log.error({ err: error }, 'request failed');
      deps.log?.(`request failed: ${(error as Error).message}`);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      }
      res.end('Internal server error');
    });
  });
  server.keepAliveTimeout = 65_000;
  return server;
}
