/**
 * The API application: everything under /api. Mounted at the root of the node:http server, which hands
 * it every request whose path starts with /api/.
 *
 * Routes are declared per area in api/routes/<area>.ts (see api/http/route.ts) and listed in
 * api/routes/index.ts; adding an area is one line there. createApp mounts each declared route on the
 * /api/v1, /api/v2 or /api router, then for every known path a 405 answer (with Allow) for the other
 * methods, then a JSON 404 for everything else, then the one error handler (api/http/errors.ts).
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Store } from './data/store.ts';
import type { Config } from './config.ts';
import { buildInfo, type BuildInfo } from './build-info.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { ROUTE_GROUPS } from './routes/index.ts';
import { openApiDocument } from './http/openapi.ts';
import { ANSWERED, toExpressPath, versionBase, type AppContext, type Logger, type RouteDefinition, type RouteGroup } from './http/route.ts';
import { CSRF_MESSAGE, MUST_REGISTER, accessDeniedMessage, allows, passesCsrfCheck, sessionAccount } from './http/session.ts';
import {
  BadRequestError,
  ForbiddenError,
  UnauthorizedError,
  InternalError,
  MethodNotAllowedError,
  NotFoundError,
  V2_SUCCESS_TYPE,
  ValidationError,
  asHttpError,
  errorBody,
  type ApiVersion,
} from './http/errors.ts';
import type { z } from 'zod';
import type { Logger as PinoLogger } from 'pino';
import { labelRoute } from './http/route-label.ts';
import { appLogger } from './server/logger.ts';

export interface AppDeps {
  db: Store;
  config: Config;
  /** Defaults to buildInfo() (the commit id GET /api/v1/app_version reports). */
  build?: BuildInfo;
  /**
   * Where unexpected errors are reported; defaults to the console. Never given bodies or cookies. A
   * request that came through the front server is reported on its own child logger instead (req.log,
   * api/server/http-log.ts), so the line carries the request id.
   */
  logger?: Logger;
  /** Extra route groups mounted after the standard ones (tests, optional features). */
  routes?: readonly RouteGroup[];
  /**
   * Check every answer against its route's response schema (a mismatch is a logged 500).
   * Defaults to on under vitest or when config.environment is 'test'.
   */
  checkResponses?: boolean;
  /**
   * Told after a write whose stored pages must change at once rather than at the next rebuild interval
   * (a takedown): the server rebuilds the affected stored pages now, and the answer waits for it, so
   * that the next visit of a removed page cannot find it stored. Without it the next rebuild applies it.
   */
  pagesChanged?: () => Promise<unknown>;
}

const BODY_LIMIT = '1mb';
const jsonParser = express.json({ limit: BODY_LIMIT, type: ['application/json', 'application/*+json'] });
const formParser = express.urlencoded({ extended: false, limit: BODY_LIMIT });

const consoleLogger: Logger = {
  error: (message, details) => console.error(`[api] ${message}`, details ?? ''),
  warn: (message, details) => console.warn(`[api] ${message}`, details ?? ''),
};

/** Which error format a request gets: v2 envelopes under /api/v2, plain v1 bodies elsewhere. */
function versionOf(req: Request): ApiVersion {
  return /^\/api\/v2(?:[/?#]|$)/.test(req.originalUrl) ? 2 : 1;
}

/** The request's child logger (set by the front server's HTTP logger), as the API's Logger. */
function requestLogger(req: Request): Logger | undefined {
  // Optional at run time: requests from supertest or another server have none.
  const log = (req as { log?: PinoLogger }).log;
  return log ? appLogger(log) : undefined;
}

/** The request path without its query string (queries may carry searches or keys: not logged). */
function pathOnly(req: Request): string {
  return req.originalUrl.split('?')[0] ?? '';
}

async function validate(schema: z.ZodType | undefined, input: unknown): Promise<unknown> {
  if (!schema) return {};
  const result = await schema.safeParseAsync(input);
  if (!result.success) throw new ValidationError(firstIssueMessage(result.error));
  return result.data;
}

/** v2 request bodies are {type, data}; the route's body schema validates `data`. */
function unwrapV2Body(body: unknown): unknown {
  if (body === undefined) return {};
  if (body && typeof body === 'object' && !Array.isArray(body) && 'data' in body) {
    return (body as { data: unknown }).data ?? {};
  }
  throw new BadRequestError('The request body must be {"type": ..., "data": ...}.');
}

class ResponseShapeError extends Error {}

export function createApp(deps: AppDeps): express.Express {
  const context: AppContext = {
    db: deps.db,
    config: deps.config,
    build: deps.build ?? buildInfo(),
    logger: deps.logger ?? consoleLogger,
    pagesChanged: deps.pagesChanged,
  };
  const groups: readonly RouteGroup[] = deps.routes?.length ? [...ROUTE_GROUPS, ...deps.routes] : ROUTE_GROUPS;
  const openApi = () => openApiDocument(groups);
  const checkResponses = deps.checkResponses ?? (process.env.VITEST !== undefined || deps.config.environment === 'test');

  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');

  const routers = new Map<ApiVersion | null, express.Router>();
  const routerFor = (version: ApiVersion | null) => {
    let router = routers.get(version);
    if (!router) routers.set(version, (router = express.Router()));
    return router;
  };
  /** Known paths per router, with their methods, for the 405 answers. */
  const known = new Map<string, { version: ApiVersion | null; path: string; methods: Set<string>; form: boolean }>();

  const handlerFor = (route: RouteDefinition, version: ApiVersion | null) => {
    const answerVersion: ApiVersion = version ?? 1;
    const routeLabel = `${versionBase(version)}${route.path}`;
    return async (req: Request, res: Response, next: NextFunction) => {
      // Counted in the metrics under the declared template, never the raw path.
      labelRoute(res, routeLabel);
      try {
        // Permissions first: a guest learns nothing about a protected route's inputs. (A request without
        // a session cookie costs no lookup.)
        const account = await sessionAccount(context.db, req.headers);
        if (route.access !== 'public' && !allows(route.access, account)) {
          throw account ? new ForbiddenError(accessDeniedMessage(route.access)) : new UnauthorizedError(MUST_REGISTER);
        }
        const params = await validate(route.params, req.params);
        const query = await validate(route.query, req.query);
        let body: unknown = {};
        if (route.body) {
          body = await validate(route.body, answerVersion === 2 ? unwrapV2Body(req.body) : (req.body ?? {}));
        }
        const result = await route.handler({
          params,
          query,
          body,
          deps: context,
          version: answerVersion,
          account,
          req,
          res,
          openApi,
        });
        if (result === ANSWERED || res.headersSent) return;
        if (checkResponses) {
          const check = await route.response.safeParseAsync(result);
          if (!check.success) {
            const issues = check.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
            throw new ResponseShapeError(
              `Answer of ${route.method.toUpperCase()} ${versionBase(version)}${route.path} does not match its schema: ${issues.join('; ')}`,
            );
          }
        }
        res.status(route.status);
        if (route.status === 204) {
          res.end();
          return;
        }
        res.json(answerVersion === 2 ? { type: V2_SUCCESS_TYPE, data: result } : result);
      } catch (error) {
        next(error);
      }
    };
  };

  for (const group of groups) {
    for (const route of group.routes) {
      for (const version of route.versions) {
        const expressPath = toExpressPath(route.path);
        const parsers = route.body ? (version === 2 ? [jsonParser] : [jsonParser, formParser]) : [];
        routerFor(version)[route.method](expressPath, ...parsers, handlerFor(route, version));
        const key = `${versionBase(version)} ${expressPath}`;
        let entry = known.get(key);
        if (!entry) known.set(key, (entry = { version, path: expressPath, methods: new Set(), form: false }));
        entry.methods.add(route.method.toUpperCase());
        entry.form ||= route.form;
      }
    }
  }

  // A known path asked with a method it does not answer: 405 with Allow (OPTIONS answers the list).
  for (const entry of known.values()) {
    const methods = [...entry.methods, 'OPTIONS'];
    routerFor(entry.version).all(entry.path, (req: Request, res: Response, next: NextFunction) => {
      const error = new MethodNotAllowedError(methods, entry.form ? 'Unknown method' : `Method ${req.method} is not allowed on this path.`);
      if (req.method === 'OPTIONS') {
        res.set(error.headers).status(204).end();
        return;
      }
      next(error);
    });
  }

  // Before any route: an unsafe request riding on a session cookie must come from this site's pages.
  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(passesCsrfCheck(req.method, req.headers) ? undefined : new ForbiddenError(CSRF_MESSAGE));
  });

  for (const version of [1, 2, null] as const) {
    const router = routers.get(version);
    if (router) app.use(versionBase(version), router);
  }

  app.use((_req: Request, _res: Response, next: NextFunction) => {
    next(new NotFoundError());
  });

  // The one error handler: typed errors answer their status and message, anything else is a logged 500.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    let httpError = asHttpError(error);
    if (!httpError) {
      const e = error instanceof Error ? error : new Error(String(error));
      (requestLogger(req) ?? context.logger).error(`Unexpected error answering ${req.method} ${pathOnly(req)}`, {
        name: e.name,
        message: e.message,
        stack: e.stack,
      });
      httpError = new InternalError();
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    res
      .status(httpError.status)
      .set(httpError.headers)
      .json(errorBody(httpError, versionOf(req)));
  });

  return app;
}
