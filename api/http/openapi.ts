/**
 * The OpenAPI 3 document, generated from the route declarations (api/http/route.ts) so every endpoint
 * documents itself. Served as JSON at GET /api/schema and rendered by src/pages/documentation/api.astro.
 */
import { OpenAPIRegistry, OpenApiGeneratorV3, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ROUTE_GROUPS } from '../routes/index.ts';
import { V2_ERROR_TYPE, V2_SUCCESS_TYPE, type ApiVersion } from './errors.ts';
import { operationId, versionBase, type RouteDefinition, type RouteGroup } from './route.ts';
import type { Access } from './session.ts';

/** The generated document (typed loosely: consumers read it as plain JSON). */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: Record<string, Record<string, unknown>>;
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No content',
  303: 'See other',
  304: 'Not modified',
  400: 'Invalid input: the message names the first failing rule.',
  401: 'Not logged in.',
  403: 'Not allowed for this account.',
  404: 'Not found.',
  405: 'Method not allowed for this path.',
  409: 'Conflict.',
  413: 'Request body too large.',
  422: 'Unprocessable input.',
  429: 'Too many requests.',
  500: 'Internal server error.',
  503: 'Maintenance or not available.',
};

const ERROR_V1 = { $ref: '#/components/schemas/ErrorV1' };
const ERROR_V2 = { $ref: '#/components/schemas/ErrorV2' };

function jsonContent(schema: z.ZodType) {
  return { 'application/json': { schema } };
}

const ACCESS_NOTE: Record<Access, string> = {
  public: '',
  account: 'Requires a signed-in account (the `session` cookie).',
  moderator: 'Requires a moderator or administrator account.',
  administrator: 'Requires an administrator account.',
};

function routeConfig(route: RouteDefinition, version: ApiVersion | null, section: string): RouteConfig {
  const fullPath = versionBase(version) + route.path;
  const v2 = version === 2;
  const responseSchema = v2 ? z.object({ type: z.literal(V2_SUCCESS_TYPE), data: route.response }) : route.response;
  const responses: RouteConfig['responses'] = {
    [route.status]: {
      description: STATUS_TEXT[route.status] ?? 'Success.',
      content: route.status === 204 ? undefined : jsonContent(responseSchema),
    },
  };
  const errorStatuses = new Set<number>(route.errors);
  if (route.params || route.query || route.body) errorStatuses.add(400);
  if (route.access !== 'public') errorStatuses.add(401);
  if (route.access === 'moderator' || route.access === 'administrator') errorStatuses.add(403);
  errorStatuses.add(500);
  for (const status of [...errorStatuses].sort((a, b) => a - b)) {
    if (status < 400) {
      responses[status] = { description: STATUS_TEXT[status] ?? String(status) };
      continue;
    }
    responses[status] = {
      description: STATUS_TEXT[status] ?? 'Error.',
      content: { 'application/json': { schema: v2 ? ERROR_V2 : ERROR_V1 } },
    };
  }

  const request: RouteConfig['request'] = {};
  if (route.params) request.params = route.params as never;
  if (route.query) request.query = route.query as never;
  if (route.body) {
    const content: Record<string, { schema: z.ZodType }> = {
      'application/json': {
        schema: v2 ? z.object({ type: z.string().optional(), data: route.body }) : route.body,
      },
    };
    if (!v2) content['application/x-www-form-urlencoded'] = { schema: route.body };
    request.body = { required: true, content };
  }

  return {
    method: route.method,
    path: fullPath,
    operationId: operationId(route.method, fullPath),
    summary: route.summary,
    ...(route.description || route.access !== 'public'
      ? { description: [route.description, ACCESS_NOTE[route.access]].filter(Boolean).join('\n\n') }
      : {}),
    tags: [section],
    request,
    responses,
  };
}

export interface DocumentOptions {
  title?: string;
  version?: string;
}

/** Builds the document for the given route groups (an application's own list in createApp). */
export function buildOpenApiDocument(groups: readonly RouteGroup[], options: DocumentOptions = {}): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('schemas', 'ErrorV1', {
    type: 'object',
    properties: { error: { type: 'string' } },
    required: ['error'],
  });
  registry.registerComponent('schemas', 'ErrorV2', {
    type: 'object',
    properties: {
      type: { type: 'string', enum: [V2_ERROR_TYPE] },
      error: {
        type: 'object',
        properties: { type: { type: 'string' }, message: { type: 'string' } },
        required: ['type', 'message'],
      },
    },
    required: ['type', 'error'],
  });
  for (const group of groups) {
    for (const route of group.routes) {
      for (const version of route.versions) registry.registerPath(routeConfig(route, version, group.section));
    }
  }
  const document = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: options.title ?? 'Trove API',
      version: options.version ?? '1',
      description:
        'Kemono-compatible API. Every answer is JSON. v1 errors are {"error": message}; v2 wraps ' +
        'answers as {"type": "api_response", "data": ...} and errors as {"type": "api_error", ' +
        '"error": {"type": ..., "message": ...}}; v2 request bodies are {"type": ..., "data": ...}.',
    },
    tags: sections(groups),
  });
  return document as unknown as OpenApiDocument;
}

/** One tag per documentation section, in the order of the section's first area, with that area's description. */
function sections(groups: readonly RouteGroup[]): { name: string; description?: string }[] {
  const tags = new Map<string, { name: string; description?: string }>();
  for (const group of groups) {
    if (tags.has(group.section)) continue;
    tags.set(group.section, { name: group.section, ...(group.description ? { description: group.description } : {}) });
  }
  return [...tags.values()];
}

const cache = new WeakMap<readonly RouteGroup[], OpenApiDocument>();

/** The document of every route the API serves (api/routes/index.ts). Cached per group list. */
export function openApiDocument(groups: readonly RouteGroup[] = ROUTE_GROUPS): OpenApiDocument {
  let document = cache.get(groups);
  if (!document) cache.set(groups, (document = buildOpenApiDocument(groups)));
  return document;
}

type JsonSchema = {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  nullable?: boolean;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  multipleOf?: number;
  default?: unknown;
  description?: string;
};

/**
 * A schema as readable TypeScript-like text, e.g. `{ id: string; tags: string[]; file?: {...} }`,
 * for the documentation page. References print as their component name.
 */
export function schemaText(schema: unknown, indent = ''): string {
  const s = (schema ?? {}) as JsonSchema;
  const inner = `${indent}  `;
  let text: string;
  if (s.$ref) text = s.$ref.split('/').pop() ?? s.$ref;
  else if (s.enum) text = s.enum.map((v) => JSON.stringify(v)).join(' | ');
  else if (s.oneOf || s.anyOf) text = (s.oneOf ?? s.anyOf)!.map((x) => schemaText(x, indent)).join(' | ');
  else if (s.allOf) text = s.allOf.map((x) => schemaText(x, indent)).join(' & ');
  else if (s.type === 'array') {
    const item = schemaText(s.items, indent);
    text = /[|&]/.test(item) ? `(${item})[]` : `${item}[]`;
  } else if (s.type === 'object' || s.properties) {
    const entries = Object.entries(s.properties ?? {});
    const required = new Set(s.required ?? []);
    const lines = entries.map(
      ([key, value]) =>
        `${inner}${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}${required.has(key) ? '' : '?'}: ${schemaText(value, inner)};`,
    );
    if (s.additionalProperties && typeof s.additionalProperties === 'object') {
      lines.push(`${inner}[key: string]: ${schemaText(s.additionalProperties, inner)};`);
    }
    text = lines.length ? `{\n${lines.join('\n')}\n${indent}}` : 'object';
  } else if (s.type) text = s.type;
  else text = 'any';
  if (s.nullable && text !== 'any') text += ' | null';
  return text;
}

/** Constraints of a (parameter) schema in words: "min 1", "multiple of 50", "default 0"... */
export function schemaConstraints(schema: unknown): string[] {
  const s = (schema ?? {}) as JsonSchema;
  const out: string[] = [];
  if (s.format) out.push(`format ${s.format}`);
  if (s.pattern) out.push(`pattern ${s.pattern}`);
  if (s.minimum !== undefined) out.push(`min ${s.minimum}`);
  if (s.maximum !== undefined) out.push(`max ${s.maximum}`);
  if (s.minLength !== undefined) out.push(`min length ${s.minLength}`);
  if (s.maxLength !== undefined) out.push(`max length ${s.maxLength}`);
  if (s.multipleOf !== undefined) out.push(`multiple of ${s.multipleOf}`);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out;
}
