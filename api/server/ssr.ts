/**
 * The Astro SSR handler (@astrojs/node, middleware mode) loaded from dist/server, and a renderer that
 * calls it in-process for the page store and `scripts/rebuild`, so they store exactly the bytes a
 * visitor would get.
 *
 * The adapter exports only a Node `(req, res)` handler. It reads a request's url, method, headers and
 * socket, and answers with writeHead/write/end; the renderer hands it minimal objects with just that
 * surface instead of going through a socket (measured: 2.3x the pages per second of a loopback
 * request). tests/api/server/ssr.test.ts checks the renderer against the real build.
 *
 * Pages get the database and the settings the way the API does (createApp(deps)): every caller of the
 * handler passes them as Astro locals, `{ site: { db, config } }` (Astro.locals.site; the pages' helper
 * is src/loaders/deps.ts). Nothing in the built site opens the database or reads the environment itself.
 */
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Store } from '../data/store.ts';
import type { Config } from '../config.ts';

/** What pages render with: the archive database and the settings. */
export interface SiteDeps {
  db: Store;
  config: Config;
}

/** The Astro locals every caller of the SSR handler passes (typed for pages in src/env.d.ts). */
export interface SsrLocals {
  site: SiteDeps;
}

/** The adapter's handler (@astrojs/node, middleware mode): `(req, res, next, locals)`. */
export type SsrHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: ((error?: unknown) => void) | undefined,
  locals: SsrLocals,
) => void;

/** A fresh locals object per request: a page may add to Astro.locals, and that must not reach the next one. */
export function ssrLocals(site: SiteDeps): SsrLocals {
  return { site };
}

type PageLoader = () => Promise<unknown>;

export async function loadSsrHandler(distDir: string): Promise<SsrHandler> {
  const entry = path.join(distDir, 'server', 'entry.mjs');
  if (!fs.existsSync(entry)) throw new Error(`No SSR build at ${entry}: run \`npm run build\` first.`);
  const module = (await import(pathToFileURL(entry).href)) as { handler: SsrHandler; pageMap?: Map<string, PageLoader> };
  // Astro loads a page's module with a dynamic import() on every request. Under a module loader with
  // hooks (tsx runs our TypeScript) each import() is a round trip to the hooks thread, which halves
  // the pages rendered per second; the modules never change, so each loader runs once.
  for (const [route, load] of module.pageMap ?? []) {
    let loaded: Promise<unknown> | undefined;
    module.pageMap!.set(route, () => (loaded ??= load()));
  }
  return module.handler;
}

export interface RenderedPage {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface PageRenderer {
  render(key: string): Promise<RenderedPage>;
  close(): Promise<void>;
}

/** The request side: what NodeApp.createRequest reads. */
class RenderRequest extends EventEmitter {
  readonly method = 'GET';
  readonly socket = Object.assign(new EventEmitter(), { encrypted: false, remoteAddress: '127.0.0.1' });
  constructor(
    readonly url: string,
    readonly headers: IncomingHttpHeaders,
  ) {
    super();
  }
}

/** The response side: what NodeApp.writeResponse and the adapter's error paths call. */
class RenderResponse extends EventEmitter {
  statusCode = 200;
  statusMessage = '';
  private readonly headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];
  private settled = false;

  constructor(private readonly done: (error: Error | undefined, page?: RenderedPage) => void) {
    super();
  }

  writeHead(status: number, headers?: Record<string, string | string[] | number>): this {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers ?? {})) this.setHeader(name, value);
    return this;
  }

  setHeader(name: string, value: string | string[] | number): this {
    this.headers[name.toLowerCase()] = typeof value === 'number' ? String(value) : value;
    return this;
  }

  getHeader(name: string) {
    return this.headers[name.toLowerCase()];
  }

  write(chunk: string | Uint8Array, callback?: () => void): boolean {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    callback?.();
    return true;
  }

  end(chunk?: string | Uint8Array): this {
    if (chunk) this.write(chunk);
    if (!this.settled) {
      this.settled = true;
      this.emit('finish');
      this.done(undefined, { status: this.statusCode, headers: this.headers, body: Buffer.concat(this.chunks) });
    }
    return this;
  }

  destroy(error?: Error): this {
    if (!this.settled) {
      this.settled = true;
      this.done(error ?? new Error('render aborted'));
    }
    return this;
  }
}

export function createPageRenderer(handler: SsrHandler, site: SiteDeps, options: { host?: string } = {}): PageRenderer {
  const headers = { host: options.host ?? 'localhost', 'accept-encoding': 'identity' };
  return {
    render(key) {
      return new Promise((resolve, reject) => {
        const res = new RenderResponse((error, page) => (error ? reject(error) : resolve(page!)));
        handler(
          new RenderRequest(key, { ...headers }) as unknown as IncomingMessage,
          res as unknown as ServerResponse,
          undefined,
          ssrLocals(site),
        );
      });
    },
    async close() {},
  };
}
