/**
 * Route declarations. Every API endpoint is declared once, as data: method, path, version(s),
 * summary, zod schemas for params, query, body and response, and a small handler. From that one
 * declaration api/app.ts registers the Express handler (inputs validated first, the first failing
 * rule's message becomes the 400 message) and api/http/openapi.ts documents it.
 *
 *   export default defineRoutes('meta', [
 *     route({ method: 'get', version: 1, path: '/app_version', summary: 'Commit id of the build.',
 *       response: z.string(), handler: ({ deps }) => deps.build.commit }),
 *   ]);
 *
 * Paths use OpenAPI syntax ('/{service}/user/{id}') relative to the version base (/api/v1, /api/v2),
 * or to /api for version null. This module holds types and pure helpers only: it must stay
 * importable by the Astro documentation page (no express runtime import).
 */
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Store } from '../data/store.ts';
import type { Config } from '../config.ts';
import type { BuildInfo } from '../build-info.ts';
import type { ApiVersion } from './errors.ts';
import type { Account } from '../data/accounts.ts';
import type { Access } from './session.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Logger {
  error(message: string, details?: Record<string, unknown>): void;
  warn?(message: string, details?: Record<string, unknown>): void;
}

/** What handlers get from the application (resolved from createApp's deps). */
export interface AppContext {
  db: Store;
  config: Config;
  build: BuildInfo;
  logger: Logger;
  /** Rebuilds the affected stored pages now (AppDeps.pagesChanged). */
  pagesChanged?: () => Promise<unknown>;
}

/** Returned by a handler that wrote the response itself (redirects, files, 304s). */
export const ANSWERED: unique symbol = Symbol('answered');
export type Answered = typeof ANSWERED;

type Out<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

export interface RouteContext<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  deps: AppContext;
  version: ApiVersion;
  /** The signed-in account (always set on routes whose access is not 'public'; looked up on first read there). */
  account: Account | null;
  req: Request;
  res: Response;
  /** The OpenAPI document of the application serving this request. */
  openApi: () => unknown;
}

export interface RouteSpec<
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
  R extends z.ZodType,
> {
  method: HttpMethod;
  /** OpenAPI-style path relative to the version base, e.g. '/{service}/user/{id}/profile'. */
  path: string;
  /** 1, 2, both ([1, 2]) or null for a route directly under /api. */
  version: ApiVersion | readonly ApiVersion[] | null;
  summary: string;
  description?: string;
  /** A z.object of path parameters. */
  params?: P;
  /** A z.object of query parameters. */
  query?: Q;
  /**
   * Request body (JSON or urlencoded form; for v2 the `data` of the {type, data} envelope).
   * A missing body is validated as {} so field rules give their own 'X is required.' messages.
   */
  body?: B;
  /** Success response (for v2, the `data` inside the envelope). */
  response: R;
  /** Success status, 200 unless told. */
  status?: number;
  /** Error statuses worth documenting besides 400 (added when there are inputs) and 500. */
  errors?: readonly number[];
  /** A form endpoint: a 405 on its path says 'Unknown method' (docs/product.md#general-rules). */
  form?: boolean;
  /** Who may call it (default 'public'); the app answers 401/403 before the handler runs. */
  access?: Access;
  handler: (ctx: RouteContext<P, Q, B>) => z.input<R> | Answered | Promise<z.input<R> | Answered>;
}

/** A declared route with its types erased, as the app and the document builder see it. */
export interface RouteDefinition {
  method: HttpMethod;
  path: string;
  versions: readonly (ApiVersion | null)[];
  summary: string;
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  status: number;
  errors: readonly number[];
  form: boolean;
  access: Access;
  handler: (ctx: ErasedRouteContext) => unknown;
}

/** The handler context with the schema-derived types erased. */
export interface ErasedRouteContext extends Omit<RouteContext<undefined, undefined, undefined>, 'params' | 'query' | 'body'> {
  params: unknown;
  query: unknown;
  body: unknown;
}

export interface RouteGroup {
  /** The area (one file in api/routes). */
  area: string;
  /**
   * The documentation section (OpenAPI tag) its routes are listed under: the area itself, or a section
   * several areas share (link requests and account administration under 'moderation').
   */
  section: string;
  /** Describes the section; in a shared section the first area's description stands for all. */
  description?: string;
  routes: readonly RouteDefinition[];
}

export function route<
  R extends z.ZodType,
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<P, Q, B, R>): RouteDefinition {
  if (!spec.path.startsWith('/')) throw new Error(`Route path must start with "/": ${spec.path}`);
  const versions = spec.version === null ? [null] : Array.isArray(spec.version) ? [...spec.version] : [spec.version];
  return {
    method: spec.method,
    path: spec.path,
    versions: versions as (ApiVersion | null)[],
    summary: spec.summary,
    description: spec.description,
    params: spec.params,
    query: spec.query,
    body: spec.body,
    response: spec.response,
    status: spec.status ?? 200,
    errors: spec.errors ?? [],
    form: spec.form ?? false,
    access: spec.access ?? 'public',
    handler: spec.handler as unknown as RouteDefinition['handler'],
  };
}

/** `about` is the area's description, or its section when it shares one with other areas. */
export function defineRoutes(
  area: string,
  routes: RouteDefinition[],
  about?: string | { section: string; description?: string },
): RouteGroup {
  const { section = area, description } = typeof about === 'string' ? { description: about } : (about ?? {});
  return { area, section, description, routes };
}

/** The base every version's paths live under. */
export function versionBase(version: ApiVersion | null): string {
  return version === null ? '/api' : `/api/v${version}`;
}

/** '/{service}/user/{id}' -> '/:service/user/:id' (Express 5 / path-to-regexp 8 syntax). */
export function toExpressPath(path: string): string {
  return path
    .split(/(\{[A-Za-z_][A-Za-z0-9_]*\})/)
    .map((part) => {
      const param = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(part);
      if (param) return `:${param[1]}`;
      // Characters path-to-regexp 8 reserves are escaped so literal paths stay literal.
      return part.replace(/[()[\]?+!*{}:\\]/g, (c) => `\\${c}`);
    })
    .join('');
}

/** An anchor-friendly id for one operation (the documentation page links to these). */
export function operationId(method: string, fullPath: string): string {
  return `${method.toLowerCase()}${fullPath}`
    .replace(/[{}]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/-+$/, '');
}
